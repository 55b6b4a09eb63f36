/// A D-Bus value as the portal backend and the desktop notifications send and read it: the
/// basic types they use, `as` (a notification's actions) and `a{sv}` (a "vardict" of options
/// or results). Plain values: the sd-bus bridge turns them into message contents and back.
enum DBusValue: Sendable, Hashable {
    case string(String)
    case objectPath(String)
    case uint32(UInt32)
    case int32(Int32)
    case bool(Bool)
    case double(Double)
    /// `x` (MPRIS positions and lengths, µs).
    case int64(Int64)
    /// `t`.
    case uint64(UInt64)
    /// A value sent as a variant (`v`: a property's new value in `Properties.Set`).
    indirect case variant(DBusValue)
    /// `as`, in order.
    case stringArray([String])
    /// `a{sv}`, in the order given (each value a basic type, sent as a variant).
    case vardict([DBusEntry])
    /// Something the reader does not decode (another container, a file descriptor): skipped.
    case unsupported(signature: String)

    /// The text of a string or an object path (the portal sends `session_handle` as either).
    var text: String? {
        switch self {
        case .string(let text), .objectPath(let text): text
        default: nil
        }
    }

    var uint32: UInt32? {
        if case .uint32(let value) = self { return value }
        return nil
    }

    /// A number of any numeric type, as a Double.
    var number: Double? {
        switch self {
        case .uint32(let value): Double(value)
        case .int32(let value): Double(value)
        case .int64(let value): Double(value)
        case .uint64(let value): Double(value)
        case .double(let value): value
        case .string, .objectPath, .bool, .variant, .stringArray, .vardict, .unsupported: nil
        }
    }

    var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The entries of a vardict, by key (later duplicates win).
    var entries: [String: DBusValue] {
        guard case .vardict(let list) = self else { return [:] }
        var result: [String: DBusValue] = [:]
        for entry in list { result[entry.key] = entry.value }
        return result
    }
}

/// One `{sv}` entry of a vardict.
struct DBusEntry: Sendable, Hashable {
    var key: String
    var value: DBusValue

    init(_ key: String, _ value: DBusValue) {
        self.key = key
        self.value = value
    }
}

/// A signal that arrived (`Request.Response`, `Session.Closed`), decoded.
struct DBusSignal: Sendable, Hashable {
    /// The unique name (`:1.42`) of the connection that emitted it: who to believe.
    var sender: String = ""
    var path: String
    var interface: String
    var member: String
    var arguments: [DBusValue]
}

/// A D-Bus method call: where it goes and its arguments, in order.
struct DBusMethodCall: Sendable, Hashable {
    var destination: String
    var path: String
    var interface: String
    var member: String
    var arguments: [DBusValue]
}
