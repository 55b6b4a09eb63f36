import GesturePadHost
import GesturePadServer

/// The server's `PairingNotifier` carried out by GesturePadHost's D-Bus `DesktopNotifier`:
/// the one place the two meet.
final class DesktopPairingNotifier: PairingNotifier {
    private let desktop: DesktopNotifier

    init(_ desktop: DesktopNotifier) {
        self.desktop = desktop
    }

    func show(
        tag: String, summary: String, body: String, buttons: [(key: String, label: String)], timeoutMilliseconds: Int32
    ) {
        let actions = buttons.map { DesktopNotice.Action(key: $0.key, label: $0.label) }
        desktop.show(
            DesktopNotice(tag: tag, summary: summary, body: body, actions: actions, timeoutMilliseconds: timeoutMilliseconds))
    }

    func withdraw(tag: String) {
        desktop.withdraw(tag: tag)
    }

    func observe(_ handler: @escaping @Sendable (PairingNotifierEvent) -> Void) {
        desktop.observe { event in
            switch event {
            case .invoked(let tag, let action): handler(.invoked(tag: tag, action: action))
            case .unavailable(let reason): handler(.unavailable(reason))
            }
        }
    }

    /// Stops the notifier's thread (after the server has stopped).
    func stop() {
        desktop.stop()
    }
}
