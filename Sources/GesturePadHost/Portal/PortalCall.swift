/// The names of the desktop portal on the session bus (xdg-desktop-portal's
/// `org.freedesktop.portal.RemoteDesktop`, `Request` and `Session` documentation).
enum PortalBus {
    static let service = "org.freedesktop.portal.Desktop"
    static let objectPath = "/org/freedesktop/portal/desktop"
    static let remoteDesktop = "org.freedesktop.portal.RemoteDesktop"
    static let request = "org.freedesktop.portal.Request"
    static let session = "org.freedesktop.portal.Session"
    static let properties = "org.freedesktop.DBus.Properties"

    /// Device types of `SelectDevices` and of the `devices` result (bits).
    static let keyboard: UInt32 = 1
    static let pointer: UInt32 = 2

    /// The object path of the Request made with `token` by the connection `uniqueName`:
    /// `/org/freedesktop/portal/desktop/request/SENDER/TOKEN`, SENDER being the unique name
    /// without its `:` and with `.` as `_` (`:1.42` → `1_42`). Known before the call, so the
    /// Response cannot arrive unrecognised.
    static func requestPath(uniqueName: String, token: String) -> String {
        "\(objectPath)/request/\(senderElement(uniqueName))/\(token)"
    }

    static func senderElement(_ uniqueName: String) -> String {
        String(uniqueName.drop { $0 == ":" }.map { $0 == "." ? "_" : $0 })
    }

    /// `Properties.Get(RemoteDesktop, name)`.
    static func property(_ name: String) -> DBusMethodCall {
        DBusMethodCall(
            destination: service, path: objectPath, interface: properties, member: "Get",
            arguments: [.string(remoteDesktop), .string(name)])
    }
}

/// A method call the portal session asks for (`PortalSession.Action.call`).
enum PortalCall: Sendable, Hashable {
    /// `RemoteDesktop.CreateSession({handle_token, session_handle_token})`.
    case createSession(handleToken: String, sessionToken: String)
    /// `RemoteDesktop.SelectDevices(session, {handle_token, types, persist_mode?, restore_token?})`.
    case selectDevices(session: String, handleToken: String, types: UInt32, persistMode: UInt32?, restoreToken: String?)
    /// `RemoteDesktop.Start(session, "", {handle_token})`.
    case start(session: String, handleToken: String)
    /// `Session.Close()` on the session object.
    case closeSession(session: String)

    /// Whether the call answers with a Request handle (all but `closeSession`).
    var returnsRequest: Bool {
        if case .closeSession = self { return false }
        return true
    }

    /// The D-Bus call.
    var methodCall: DBusMethodCall {
        switch self {
        case .createSession(let handleToken, let sessionToken):
            let options = [
                DBusEntry("handle_token", .string(handleToken)), DBusEntry("session_handle_token", .string(sessionToken)),
            ]
            return remoteDesktop("CreateSession", [.vardict(options)])
        case .selectDevices(let session, let handleToken, let types, let persistMode, let restoreToken):
            var options = [DBusEntry("handle_token", .string(handleToken)), DBusEntry("types", .uint32(types))]
            if let persistMode { options.append(DBusEntry("persist_mode", .uint32(persistMode))) }
            if let restoreToken { options.append(DBusEntry("restore_token", .string(restoreToken))) }
            return remoteDesktop("SelectDevices", [.objectPath(session), .vardict(options)])
        case .start(let session, let handleToken):
            return remoteDesktop(
                "Start", [.objectPath(session), .string(""), .vardict([DBusEntry("handle_token", .string(handleToken))])])
        case .closeSession(let session):
            return DBusMethodCall(
                destination: PortalBus.service, path: session, interface: PortalBus.session, member: "Close", arguments: [])
        }
    }

    private func remoteDesktop(_ member: String, _ arguments: [DBusValue]) -> DBusMethodCall {
        DBusMethodCall(
            destination: PortalBus.service, path: PortalBus.objectPath, interface: PortalBus.remoteDesktop, member: member,
            arguments: arguments)
    }
}
