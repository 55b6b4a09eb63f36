import CSDBus
import Glibc

/// `DBusValue`s into and out of sd-bus messages, with the non-variadic sd-bus calls
/// (`append_basic`, `open_container`, `read_basic`, `enter_container`). Strings are copied
/// out at once: what `read_basic` returns is only borrowed from the message.
enum SDBusMessage {
    /// D-Bus type codes (sd-bus takes them as `char`).
    private enum Code {
        static let string = CChar(UInt8(ascii: "s"))
        static let objectPath = CChar(UInt8(ascii: "o"))
        static let signature = CChar(UInt8(ascii: "g"))
        static let uint32 = CChar(UInt8(ascii: "u"))
        static let int32 = CChar(UInt8(ascii: "i"))
        static let boolean = CChar(UInt8(ascii: "b"))
        static let double = CChar(UInt8(ascii: "d"))
        static let int64 = CChar(UInt8(ascii: "x"))
        static let uint64 = CChar(UInt8(ascii: "t"))
        static let array = CChar(UInt8(ascii: "a"))
        static let variant = CChar(UInt8(ascii: "v"))
        static let dictEntry = CChar(UInt8(ascii: "e"))
    }

    /// Appends `value` to `message`; returns sd-bus's result (negative errno on failure).
    static func append(_ value: DBusValue, to message: OpaquePointer) -> Int32 {
        switch value {
        case .string(let text): return text.withCString { sd_bus_message_append_basic(message, Code.string, $0) }
        case .objectPath(let path): return path.withCString { sd_bus_message_append_basic(message, Code.objectPath, $0) }
        case .uint32(let number): return appendNumber(number, Code.uint32, to: message)
        case .int32(let number): return appendNumber(number, Code.int32, to: message)
        case .bool(let flag): return appendNumber(Int32(flag ? 1 : 0), Code.boolean, to: message)
        case .double(let number): return appendNumber(number, Code.double, to: message)
        case .int64(let number): return appendNumber(number, Code.int64, to: message)
        case .uint64(let number): return appendNumber(number, Code.uint64, to: message)
        case .variant(let inner):
            guard let signature = signature(of: inner) else { return -EINVAL }
            var result = sd_bus_message_open_container(message, Code.variant, signature)
            if result >= 0 { result = append(inner, to: message) }
            return result >= 0 ? sd_bus_message_close_container(message) : result
        case .vardict(let entries): return appendVardict(entries, to: message)
        case .stringArray(let texts): return appendStrings(texts, to: message)
        case .unsupported: return -EINVAL
        }
    }

    /// The signature of a basic value, for its variant; nil for containers.
    static func signature(of value: DBusValue) -> String? {
        switch value {
        case .string: "s"
        case .objectPath: "o"
        case .uint32: "u"
        case .int32: "i"
        case .bool: "b"
        case .double: "d"
        case .int64: "x"
        case .uint64: "t"
        case .vardict, .stringArray, .variant, .unsupported: nil
        }
    }

    /// Every argument of `message` from its read position on.
    static func readArguments(_ message: OpaquePointer) -> [DBusValue] {
        var values: [DBusValue] = []
        while let value = readNext(message) { values.append(value) }
        return values
    }

    private static func appendNumber<T>(_ number: T, _ code: CChar, to message: OpaquePointer) -> Int32 {
        var copy = number
        return withUnsafePointer(to: &copy) { sd_bus_message_append_basic(message, code, $0) }
    }

    private static func appendStrings(_ texts: [String], to message: OpaquePointer) -> Int32 {
        var result = sd_bus_message_open_container(message, Code.array, "s")
        for text in texts where result >= 0 {
            result = text.withCString { sd_bus_message_append_basic(message, Code.string, $0) }
        }
        return result >= 0 ? sd_bus_message_close_container(message) : result
    }

    private static func appendVardict(_ entries: [DBusEntry], to message: OpaquePointer) -> Int32 {
        var result = sd_bus_message_open_container(message, Code.array, "{sv}")
        for entry in entries where result >= 0 {
            guard let signature = signature(of: entry.value) else { return -EINVAL }
            result = sd_bus_message_open_container(message, Code.dictEntry, "sv")
            if result >= 0 { result = entry.key.withCString { sd_bus_message_append_basic(message, Code.string, $0) } }
            if result >= 0 { result = sd_bus_message_open_container(message, Code.variant, signature) }
            if result >= 0 { result = append(entry.value, to: message) }
            if result >= 0 { result = sd_bus_message_close_container(message) }
            if result >= 0 { result = sd_bus_message_close_container(message) }
        }
        return result >= 0 ? sd_bus_message_close_container(message) : result
    }

    /// The next complete value, nil at the end (or on a read error).
    private static func readNext(_ message: OpaquePointer) -> DBusValue? {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        guard sd_bus_message_peek_type(message, &type, &contents) > 0 else { return nil }
        if let basic = readBasic(message, type) { return basic }
        let inner = contents.map { String(cString: $0) } ?? ""
        switch type {
        case Code.array where inner == "{sv}":
            return readVardict(message)
        case Code.array where inner == "s" || inner == "o":
            guard sd_bus_message_enter_container(message, Code.array, inner) > 0 else { return nil }
            var texts: [String] = []
            while let value = readBasic(message, inner == "s" ? Code.string : Code.objectPath), let text = value.text {
                texts.append(text)
            }
            _ = sd_bus_message_exit_container(message)
            return .stringArray(texts)
        case Code.variant:
            guard sd_bus_message_enter_container(message, Code.variant, inner) > 0 else { return nil }
            let value = readNext(message) ?? .unsupported(signature: inner)
            _ = sd_bus_message_exit_container(message)
            return value
        default:
            guard sd_bus_message_skip(message, nil) >= 0 else { return nil }
            return .unsupported(signature: String(UnicodeScalar(UInt8(bitPattern: type))) + inner)
        }
    }

    private static func readBasic(_ message: OpaquePointer, _ type: CChar) -> DBusValue? {
        switch type {
        case Code.string, Code.objectPath, Code.signature:
            var text: UnsafePointer<CChar>?
            guard sd_bus_message_read_basic(message, type, &text) > 0, let text else { return nil }
            let copy = String(cString: text)
            return type == Code.objectPath ? .objectPath(copy) : .string(copy)
        case Code.uint32:
            var number: UInt32 = 0
            return sd_bus_message_read_basic(message, type, &number) > 0 ? .uint32(number) : nil
        case Code.int32:
            var number: Int32 = 0
            return sd_bus_message_read_basic(message, type, &number) > 0 ? .int32(number) : nil
        case Code.boolean:
            var flag: Int32 = 0
            return sd_bus_message_read_basic(message, type, &flag) > 0 ? .bool(flag != 0) : nil
        case Code.double:
            var number = 0.0
            return sd_bus_message_read_basic(message, type, &number) > 0 ? .double(number) : nil
        case Code.int64:
            var number: Int64 = 0
            return sd_bus_message_read_basic(message, type, &number) > 0 ? .int64(number) : nil
        case Code.uint64:
            var number: UInt64 = 0
            return sd_bus_message_read_basic(message, type, &number) > 0 ? .uint64(number) : nil
        default:
            return nil
        }
    }

    private static func readVardict(_ message: OpaquePointer) -> DBusValue? {
        guard sd_bus_message_enter_container(message, Code.array, "{sv}") > 0 else { return nil }
        var entries: [DBusEntry] = []
        while sd_bus_message_enter_container(message, Code.dictEntry, "sv") > 0 {
            var key: UnsafePointer<CChar>?
            guard sd_bus_message_read_basic(message, Code.string, &key) > 0, let key else { break }
            let name = String(cString: key)
            var contents: UnsafePointer<CChar>?
            var type: CChar = 0
            guard sd_bus_message_peek_type(message, &type, &contents) > 0, let contents,
                sd_bus_message_enter_container(message, Code.variant, contents) > 0
            else { break }
            let signature = String(cString: contents)
            entries.append(DBusEntry(name, readNext(message) ?? .unsupported(signature: signature)))
            _ = sd_bus_message_exit_container(message)
            _ = sd_bus_message_exit_container(message)
        }
        _ = sd_bus_message_exit_container(message)
        return .vardict(entries)
    }
}
