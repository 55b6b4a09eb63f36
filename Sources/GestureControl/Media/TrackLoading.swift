/// Holds a new track back while its player is still loading it (pure; times in ms on the
/// media thread's clock). mpv names a track after its file until it has read the file's tags
/// and length — `two.mp3`, no artist, no length — and tells the real tags 40–120 ms later (seen
/// with mpv-mpris on Debian 12). Told at once, that name would reach the pages for a moment and
/// run the users' `track` hooks twice, the first time with the file's name. So a snapshot whose
/// followed track is new and has no length yet waits for the length, at most `hold` ms: a
/// stream that never gives one (a radio) is told after that.
public struct TrackLoading: Sendable {
    /// The longest a new track without a length is held back: longer than mpv's loading seen
    /// on a loaded machine, short enough that a radio's new title still shows at once.
    public static let defaultHold = 250.0

    public let hold: Double
    /// The new track waiting for its length, and since when.
    private var waiting: (track: FollowedTrack, since: Double)? = nil

    public init(hold: Double = TrackLoading.defaultHold) {
        self.hold = max(hold, 0)
    }

    /// How long `snapshot` is still to be held back, ms (nil: it may be told now), when `told`
    /// is the snapshot told last.
    public mutating func wait(for snapshot: MediaSnapshot, after told: MediaSnapshot?, now: Double) -> Double? {
        let track = FollowedTrack(snapshot)
        guard snapshot.unavailable == nil, snapshot.title != nil, snapshot.length == nil,
            told.map(FollowedTrack.init) != track
        else {
            waiting = nil
            return nil
        }
        let since = waiting.flatMap { $0.track == track ? $0.since : nil } ?? now
        waiting = (track, since)
        let left = since + hold - now
        return left > 0 ? left : nil
    }
}
