/// The D-Bus names and calls of MPRIS (org.mpris.MediaPlayer2) and of the bus itself that the
/// media thread uses: plain values, sent by `MediaLoop`.
enum MediaBus {
    static let path = "/org/mpris/MediaPlayer2"
    static let root = "org.mpris.MediaPlayer2"
    static let player = "org.mpris.MediaPlayer2.Player"
    static let properties = "org.freedesktop.DBus.Properties"
    static let daemon = "org.freedesktop.DBus"

    static func listNames() -> DBusMethodCall {
        DBusMethodCall(destination: daemon, path: "/org/freedesktop/DBus", interface: daemon, member: "ListNames", arguments: [])
    }

    static func owner(of name: String) -> DBusMethodCall {
        DBusMethodCall(
            destination: daemon, path: "/org/freedesktop/DBus", interface: daemon, member: "GetNameOwner",
            arguments: [.string(name)])
    }

    static func getAll(_ name: String, _ interface: String) -> DBusMethodCall {
        DBusMethodCall(destination: name, path: path, interface: properties, member: "GetAll", arguments: [.string(interface)])
    }

    static func get(_ name: String, _ interface: String, _ property: String) -> DBusMethodCall {
        DBusMethodCall(
            destination: name, path: path, interface: properties, member: "Get",
            arguments: [.string(interface), .string(property)])
    }

    static func set(_ name: String, _ property: String, _ value: DBusValue) -> DBusMethodCall {
        DBusMethodCall(
            destination: name, path: path, interface: properties, member: "Set",
            arguments: [.string(player), .string(property), .variant(value)])
    }

    /// A method of the player interface (`PlayPause`, `Next`, `Seek`, `SetPosition`, …).
    static func call(_ name: String, _ member: String, _ arguments: [DBusValue] = []) -> DBusMethodCall {
        DBusMethodCall(destination: name, path: path, interface: player, member: member, arguments: arguments)
    }
}
