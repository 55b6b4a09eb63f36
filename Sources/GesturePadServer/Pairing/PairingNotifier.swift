/// Where pairing is told besides the terminal: the desktop's notifications. The server owns
/// this protocol and the CLI hands it an implementation (GesturePadHost's D-Bus notifier), so
/// the server needs no desktop code. The service thread calls it: no call may block.
public protocol PairingNotifier: AnyObject, Sendable {
    /// Shows `notice`, replacing the one with the same tag.
    func show(_ notice: PairingNotice)
    /// Closes the notice tagged `tag`, if it is still shown.
    func withdraw(tag: String)
    /// `handler` hears every answer, on the notifier's own thread (it must not block).
    func observe(_ handler: @escaping @Sendable (PairingNotifierEvent) -> Void)
}

/// A notification about one device.
public struct PairingNotice: Sendable {
    /// The device's id: a later notice for it replaces this one, and answers name it.
    public var tag: String
    public var summary: String
    public var body: String
    /// The buttons, as (action key, label); the key comes back in `.invoked`.
    public var buttons: [(key: String, label: String)]
    /// How long it stays, in ms; -1 lets the desktop decide.
    public var timeoutMilliseconds: Int32

    public init(tag: String, summary: String, body: String, buttons: [(key: String, label: String)], timeoutMilliseconds: Int32) {
        self.tag = tag
        self.summary = summary
        self.body = body
        self.buttons = buttons
        self.timeoutMilliseconds = timeoutMilliseconds
    }
}

/// What a notifier tells the server.
public enum PairingNotifierEvent: Sendable, Hashable {
    /// The user pressed the button `action` of the notice tagged `tag`.
    case invoked(tag: String, action: String)
    /// Notifications cannot be shown (no session bus, no notification server): said once.
    case unavailable(String)
}
