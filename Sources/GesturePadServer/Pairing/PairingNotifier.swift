/// Where pairing is told besides the terminal: the desktop's notifications. The server owns
/// this protocol and the CLI hands it an implementation (GesturePadHost's D-Bus notifier), so
/// the server needs no desktop code. The service thread calls it: no call may block.
public protocol PairingNotifier: AnyObject, Sendable {
    /// Shows a notification about the device `tag` (its id), replacing the last one with that
    /// tag. `buttons` are (action key, label): the key comes back in `.invoked`;
    /// `timeoutMilliseconds` -1 lets the desktop decide how long it stays.
    func show(
        tag: String, summary: String, body: String, buttons: [(key: String, label: String)], timeoutMilliseconds: Int32)
    /// Closes the notice tagged `tag`, if it is still shown.
    func withdraw(tag: String)
    /// `handler` hears every answer, on the notifier's own thread (it must not block).
    func observe(_ handler: @escaping @Sendable (PairingNotifierEvent) -> Void)
}

/// What a notifier tells the server.
public enum PairingNotifierEvent: Sendable, Hashable {
    /// The user pressed the button `action` of the notice tagged `tag`.
    case invoked(tag: String, action: String)
    /// Notifications cannot be shown (no session bus, no notification server): said once.
    case unavailable(String)
}
