/// A desktop notification to show (org.freedesktop.Notifications `Notify`).
public struct DesktopNotice: Sendable, Hashable {
    /// A button of the notification: `key` comes back in `ActionInvoked`, `label` is shown.
    public struct Action: Sendable, Hashable {
        public var key: String
        public var label: String

        public init(key: String, label: String) {
            self.key = key
            self.label = label
        }
    }

    /// The caller's name for it (a device id): a later notice with the same tag replaces it,
    /// `withdraw(tag:)` closes it, and answers name it.
    public var tag: String
    public var summary: String
    public var body: String
    public var actions: [Action]
    /// How long it stays, in ms; -1 lets the notification server decide.
    public var timeoutMilliseconds: Int32

    public init(tag: String, summary: String, body: String, actions: [Action], timeoutMilliseconds: Int32 = -1) {
        self.tag = tag
        self.summary = summary
        self.body = body
        self.actions = actions
        self.timeoutMilliseconds = timeoutMilliseconds
    }
}

/// What the notifier tells its observer (on the notifier's thread).
public enum DesktopNotifierEvent: Sendable, Hashable {
    /// The user pressed the button `action` of the notification tagged `tag`.
    case invoked(tag: String, action: String)
    /// Notifications cannot be shown (no session bus, no notification server): said once.
    case unavailable(String)
}

/// The names of the notification service on the session bus (Desktop Notifications
/// Specification 1.2).
enum NotificationBus {
    static let service = "org.freedesktop.Notifications"
    static let objectPath = "/org/freedesktop/Notifications"
    static let interface = "org.freedesktop.Notifications"
    /// The application name and icon every notice carries.
    static let appName = "GesturePad"
    static let icon = "input-touchpad"

    /// `Notify(app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout)`.
    static func notify(_ notice: DesktopNotice, replacing id: UInt32) -> DBusMethodCall {
        let actions = notice.actions.flatMap { [$0.key, $0.label] }
        let hints = [DBusEntry("desktop-entry", .string("gesturepad")), DBusEntry("category", .string("device"))]
        return call(
            "Notify",
            [
                .string(appName), .uint32(id), .string(icon), .string(notice.summary), .string(notice.body),
                .stringArray(actions), .vardict(hints), .int32(notice.timeoutMilliseconds),
            ])
    }

    /// `CloseNotification(id)`.
    static func close(_ id: UInt32) -> DBusMethodCall {
        call("CloseNotification", [.uint32(id)])
    }

    private static func call(_ member: String, _ arguments: [DBusValue]) -> DBusMethodCall {
        DBusMethodCall(destination: service, path: objectPath, interface: interface, member: member, arguments: arguments)
    }
}
