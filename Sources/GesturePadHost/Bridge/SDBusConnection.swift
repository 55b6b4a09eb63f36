import CSDBus
import Glibc

/// What arrived on the bus while `SDBusConnection.process()` ran.
enum SDBusIncoming: Sendable, Hashable {
    /// A signal the connection subscribed to.
    case signal(DBusSignal)
    /// A call sent with `send` was answered with an error ("name: message").
    case callFailed(String)
}

/// One sd-bus connection to the session bus, for the `portal` backend: the only code that
/// touches sd-bus pointers. Confined to one thread (the backend's) from `openSessionBus` to
/// `close`; sd-bus objects are not thread-safe.
///
/// Its one C callback (`sdBusTrampoline`) serves signal matches and the replies of `send`: it
/// recovers the connection from the user data and records the message in `inbox`, so that
/// callers act on it after `process()` returns, never from inside sd-bus.
final class SDBusConnection {
    /// `sd_bus *`: an incomplete C type, hence opaque.
    private var bus: OpaquePointer?
    /// Signals and failed calls, in arrival order, until `takeInbox()`.
    private var inbox: [SDBusIncoming] = []

    private init(bus: OpaquePointer) {
        self.bus = bus
    }

    deinit { close() }

    /// Connects to the session bus: `DBUS_SESSION_BUS_ADDRESS`, else the user's default bus.
    static func openSessionBus() throws -> SDBusConnection {
        var bus: OpaquePointer?
        let result = sd_bus_open_user(&bus)
        guard result >= 0, let bus else {
            throw ControlBackendError.bus("cannot connect to the session bus (DBUS_SESSION_BUS_ADDRESS): \(errorText(-result))")
        }
        return SDBusConnection(bus: bus)
    }

    /// The connection's unique name (`:1.42`); waits for the bus's Hello answer if needed.
    func uniqueName() throws -> String {
        guard let bus else { throw ControlBackendError.bus("the session bus connection is closed") }
        var name: UnsafePointer<CChar>?
        let result = sd_bus_get_unique_name(bus, &name)
        guard result >= 0, let name else {
            throw ControlBackendError.bus("the session bus did not give this connection a name: \(errorText(-result))")
        }
        return String(cString: name)
    }

    /// The timeout of blocking calls (`call`, and `send`'s reply wait).
    func setCallTimeout(seconds: Double) {
        guard let bus else { return }
        _ = sd_bus_set_method_call_timeout(bus, UInt64(max(seconds, 0.001) * 1_000_000))
    }

    /// Subscribes to signal `member` of `interface` from any sender and path (they arrive
    /// through `takeInbox()`). Blocks until the bus has installed the match.
    func subscribe(interface: String, member: String) throws {
        guard let bus else { throw ControlBackendError.bus("the session bus connection is closed") }
        let result = sd_bus_match_signal(
            bus, nil, nil, nil, interface, member, sdBusTrampoline, Unmanaged.passUnretained(self).toOpaque())
        guard result >= 0 else {
            throw ControlBackendError.bus("cannot subscribe to \(interface).\(member): \(errorText(-result))")
        }
    }

    /// Subscribes to the bus's `NameOwnerChanged` signal for `name` alone (its owner left,
    /// came, or changed), through `takeInbox()`.
    func subscribeOwnerChanges(of name: String) throws {
        guard let bus else { throw ControlBackendError.bus("the session bus connection is closed") }
        let rule =
            "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',"
            + "interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(name)'"
        let result = sd_bus_add_match(bus, nil, rule, sdBusTrampoline, Unmanaged.passUnretained(self).toOpaque())
        guard result >= 0 else {
            throw ControlBackendError.bus("cannot watch \(name) on the session bus: \(errorText(-result))")
        }
    }

    /// Calls a method and waits (up to `timeout` seconds, nil: the call timeout) for its
    /// reply's arguments. What else arrives meanwhile waits for the next `process()`.
    func call(_ call: DBusMethodCall, timeout: Double? = nil) throws -> [DBusValue] {
        try reply(to: call, timeout: timeout).arguments
    }

    /// Like `call`, with the unique name of the connection that answered: the owner of the
    /// called name when it answered, whose signals alone are to be believed.
    func reply(to call: DBusMethodCall, timeout: Double? = nil) throws -> (sender: String, arguments: [DBusValue]) {
        guard let bus else { throw ControlBackendError.bus("the session bus connection is closed") }
        let message = try makeMessage(call, on: bus)
        defer { sd_bus_message_unref(message) }
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        let microseconds = timeout.map { UInt64(max($0, 0.001) * 1_000_000) } ?? 0
        let result = sd_bus_call(bus, message, microseconds, &error, &reply)
        guard result >= 0, let reply else {
            throw ControlBackendError.bus("\(call.member) failed: \(Self.describe(error, code: result))")
        }
        defer { sd_bus_message_unref(reply) }
        return (Self.text(sd_bus_message_get_sender(reply)), SDBusMessage.readArguments(reply))
    }

    /// Queues a method call without waiting; an error reply arrives as `.callFailed`.
    /// Returns false when the call could not be queued (the connection broke).
    @discardableResult
    func send(_ call: DBusMethodCall) -> Bool {
        guard let bus, let message = try? makeMessage(call, on: bus) else { return false }
        defer { sd_bus_message_unref(message) }
        return sd_bus_call_async(bus, nil, message, sdBusTrampoline, Unmanaged.passUnretained(self).toOpaque(), 0) >= 0
    }

    /// Reads and writes what is pending and dispatches what arrived into the inbox. Returns
    /// nil, or the error that broke the connection.
    func process() -> ControlBackendError? {
        guard let bus else { return ControlBackendError.bus("the session bus connection is closed") }
        while true {
            let result = sd_bus_process(bus, nil)
            if result == 0 { return nil }
            if result < 0 { return ControlBackendError.bus("the session bus connection broke: \(errorText(-result))") }
        }
    }

    /// What arrived since the last call, in order.
    func takeInbox() -> [SDBusIncoming] {
        defer { inbox.removeAll(keepingCapacity: true) }
        return inbox
    }

    /// The descriptor, `poll` events and timeout (ms, -1: none) to wait on before `process()`.
    func pollRequest() -> (fileDescriptor: Int32, events: Int16, timeoutMilliseconds: Int32)? {
        guard let bus else { return nil }
        let descriptor = sd_bus_get_fd(bus)
        let events = sd_bus_get_events(bus)
        guard descriptor >= 0, events >= 0 else { return nil }
        var deadline: UInt64 = 0
        var timeout: Int32 = -1
        if sd_bus_get_timeout(bus, &deadline) >= 0, deadline != UInt64.max {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let nowMicroseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1_000
            let left = deadline > nowMicroseconds ? deadline - nowMicroseconds : 0
            timeout = Int32(clamping: (left + 999) / 1_000)
        }
        return (descriptor, Int16(truncatingIfNeeded: events), timeout)
    }

    /// Writes what is queued (blocking), then closes the connection. Later calls do nothing.
    func close() {
        guard let bus else { return }
        self.bus = nil
        sd_bus_flush_close_unref(bus)
    }

    /// Called by the trampoline for each message it is given.
    fileprivate func received(_ message: OpaquePointer) {
        var type: UInt8 = 0
        guard sd_bus_message_get_type(message, &type) >= 0 else { return }
        switch Int(type) {
        case SD_BUS_MESSAGE_SIGNAL:
            let signal = DBusSignal(
                sender: Self.text(sd_bus_message_get_sender(message)),
                path: Self.text(sd_bus_message_get_path(message)),
                interface: Self.text(sd_bus_message_get_interface(message)),
                member: Self.text(sd_bus_message_get_member(message)),
                arguments: SDBusMessage.readArguments(message))
            inbox.append(.signal(signal))
        case SD_BUS_MESSAGE_METHOD_ERROR:
            if let error = sd_bus_message_get_error(message) {
                inbox.append(.callFailed(Self.describe(error.pointee, code: -EIO)))
            }
        default:
            break
        }
    }

    private func makeMessage(_ call: DBusMethodCall, on bus: OpaquePointer) throws -> OpaquePointer {
        var message: OpaquePointer?
        var result = sd_bus_message_new_method_call(
            bus, &message, call.destination, call.path, call.interface, call.member)
        guard result >= 0, let message else {
            throw ControlBackendError.bus("cannot build the \(call.member) call: \(errorText(-result))")
        }
        for argument in call.arguments where result >= 0 {
            result = SDBusMessage.append(argument, to: message)
        }
        guard result >= 0 else {
            sd_bus_message_unref(message)
            throw ControlBackendError.bus("cannot build the \(call.member) call: \(errorText(-result))")
        }
        return message
    }

    private static func text(_ pointer: UnsafePointer<CChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }

    /// "org.freedesktop.DBus.Error.ServiceUnknown: The name … was not provided", or the errno text.
    private static func describe(_ error: sd_bus_error, code: Int32) -> String {
        let name = text(error.name)
        let message = text(error.message)
        if name.isEmpty { return errorText(code < 0 ? -code : code) }
        return message.isEmpty ? name : "\(name): \(message)"
    }
}

/// The one C callback: recovers the connection and hands it the message.
private let sdBusTrampoline: sd_bus_message_handler_t = { message, userdata, _ in
    guard let message, let userdata else { return 0 }
    Unmanaged<SDBusConnection>.fromOpaque(userdata).takeUnretainedValue().received(message)
    return 0
}
