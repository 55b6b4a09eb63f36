import GestureControl
import GesturePadSystem
import GestureProtocol

/// Hands what the control backend reports on its own thread — its status, the desktop's
/// keyboard layout — and what the media players do to the service loop, which takes it between two `lws_service` calls and
/// gives it to the hub as inputs. Only the latest of each matters: a page needs to know
/// whether control is on now and what can be typed now, not every step on the way. A
/// `WorkerMailbox` whose wake-up wakes the service loop.
final class ControlMailbox: Sendable {
    /// What was posted and not taken yet.
    struct News {
        var status: ControlBackendStatus?
        var layout: DesktopLayout.Table?
        var media: MediaSnapshot?
    }

    private let latest: WorkerMailbox<News>

    /// `wake` wakes the service loop (from the backend's thread).
    init(wake: @escaping @Sendable () -> Void) {
        latest = WorkerMailbox(News(), wake: wake)
    }

    func post(_ status: ControlBackendStatus) {
        latest.post { $0.status = status }
    }

    func post(layout: DesktopLayout.Table) {
        latest.post { $0.layout = layout }
    }

    func post(media: MediaSnapshot) {
        latest.post { $0.media = media }
    }

    /// What was posted since the last call.
    func take() -> News {
        latest.take { news in
            defer { news = News() }
            return news
        }.taken
    }
}
