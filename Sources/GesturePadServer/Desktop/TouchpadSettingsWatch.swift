import GestureControl
import GesturePadSystem
import Synchronization

/// The desktop's touchpad settings for the desktop page (docs/server.md "The desktop page"),
/// read off the service thread: reading runs a program (`gsettings`, `swaymsg`), which must not
/// hold up a frame. The page's request gets the latest settings read and, when they are older
/// than `freshFor` (and no read is under way), starts a new read on the watch's worker thread —
/// so the desktop is asked only while someone looks at the page, at most once per `freshFor`.
final class TouchpadSettingsWatch: Sendable {
    /// How long a reading stands before a request asks the desktop again (ms).
    static let freshFor: Double = 2_000

    private struct State {
        var latest: DesktopTouchpadSettings?
        var readAt: Double?
        var reading = false
    }

    private let state = Mutex(State())
    private let thread = WorkerThread(name: "gp-tp-settings")

    /// `read` asks the desktop (`TouchpadSettingsReader.read`); it runs on the watch's thread.
    init(read: @escaping @Sendable () -> DesktopTouchpadSettings?) {
        thread.setTurn { [weak self] in
            let settings = read()
            self?.state.withLock {
                $0.latest = settings
                $0.reading = false
            }
            return .idle
        }
    }

    /// The latest settings read (nil before the first read is done, or when the desktop did not
    /// answer); asks the desktop again when they are older than `freshFor` at `now` (ms).
    func latest(now: Double) -> DesktopTouchpadSettings? {
        let (latest, start) = state.withLock { s -> (DesktopTouchpadSettings?, Bool) in
            let start = Self.shouldRead(readAt: s.readAt, reading: s.reading, now: now)
            if start {
                s.reading = true
                s.readAt = now
            }
            return (s.latest, start)
        }
        if start { thread.wake() }
        return latest
    }

    /// Whether a request at `now` starts a read: none under way, and none started within
    /// `freshFor`.
    static func shouldRead(readAt: Double?, reading: Bool, now: Double) -> Bool {
        guard !reading else { return false }
        guard let readAt else { return true }
        return now - readAt >= freshFor || now < readAt
    }
}
