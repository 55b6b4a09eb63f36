import CWaylandKeymap
import CWaylandVirtualInput
import GestureControl
import GesturePadSystem
import Glibc

/// One Wayland connection with a virtual pointer (`zwlr_virtual_pointer_v1`) and a virtual
/// keyboard (`zwp_virtual_keyboard_v1`) on the compositor's seat, for the `wlroots` backend:
/// the only code that touches libwayland's pointers for it. Confined to one thread (the
/// backend's) from `connect` to `close`.
///
/// libwayland (1.21) drops a connection whose send buffer fills while the compositor lags, so
/// `send` flushes every `requestsPerFlush` requests and `flush` waits for the socket to take
/// more on EAGAIN. The compositor's few events (errors, `delete_id`) are read without waiting
/// at each flush, which is also where a compositor that went away is noticed.
final class VirtualInputConnection {
    /// What the compositor offers, from its registry.
    struct Globals {
        var seat: (name: UInt32, version: UInt32)?
        var pointerManager: (name: UInt32, version: UInt32)?
        var keyboardManager: (name: UInt32, version: UInt32)?
    }

    /// Requests between two flushes inside a batch: 64 of the largest (a pointer motion is
    /// 20 bytes, a frame 8) stay far below libwayland's 4 KiB buffer.
    static let requestsPerFlush = 64
    /// How long a flush waits for the socket to take more before the connection counts as lost.
    static let flushTimeoutMilliseconds: Int32 = 2_000

    /// `wl_display *`, `wl_registry *`, `wl_seat *`, the managers and the devices: opaque C types.
    private var display: OpaquePointer?
    private var registry: OpaquePointer?
    private var seat: OpaquePointer?
    private var pointerManager: OpaquePointer?
    private var keyboardManager: OpaquePointer?
    private var pointer: OpaquePointer?
    private var keyboard: OpaquePointer?
    fileprivate var globals = Globals()
    /// The keymap the seat's keyboard had before this connection's own (XKB text), when
    /// `makeDevices` was asked to read it and there was one: the user's layout.
    private(set) var seatKeymap: String?
    private var unflushed = 0

    private init(display: OpaquePointer) {
        self.display = display
    }

    deinit { close() }

    /// Connects to the compositor of `WAYLAND_DISPLAY`, reads its globals and, when
    /// `makeDevices`, makes the pointer and the keyboard (with `readSeatKeymap`, after reading
    /// the seat's keymap: `seatKeymap`). Throws a one-line `ControlBackendError` without a
    /// compositor or without either protocol.
    static func connect(makeDevices: Bool = true, readSeatKeymap: Bool = false) throws -> VirtualInputConnection {
        guard let display = wl_display_connect(nil) else {
            throw ControlBackendError.wayland("no Wayland compositor to connect to (WAYLAND_DISPLAY): gesturepad help control")
        }
        let connection = VirtualInputConnection(display: display)
        guard let registry = wl_display_get_registry(display) else {
            throw ControlBackendError.wayland("the Wayland compositor gave no registry")
        }
        connection.registry = registry
        wl_registry_add_listener(registry, registryListener, connection.opaqueSelf)
        guard wl_display_roundtrip(display) >= 0 else {
            throw ControlBackendError.wayland("the Wayland compositor closed the connection")
        }
        guard makeDevices else { return connection }
        try connection.makeDevices(readSeatKeymap: readSeatKeymap)
        return connection
    }

    /// Whether the compositor of `WAYLAND_DISPLAY` offers both protocols (a round trip).
    static func compositorOffersBoth() -> Bool {
        guard let connection = try? connect(makeDevices: false) else { return false }
        defer { connection.close() }
        return connection.globals.pointerManager != nil && connection.globals.keyboardManager != nil
            && connection.globals.seat != nil
    }

    private func makeDevices(readSeatKeymap: Bool) throws {
        guard let registry, let display else { throw ControlBackendError.wayland("the Wayland connection is closed") }
        guard let seatGlobal = globals.seat else { throw ControlBackendError.wayland("the Wayland compositor has no seat") }
        guard let pointerGlobal = globals.pointerManager, let keyboardGlobal = globals.keyboardManager else {
            throw ControlBackendError.wayland(
                "the Wayland compositor does not offer \(globals.pointerManager == nil ? "zwlr_virtual_pointer_manager_v1" : "zwp_virtual_keyboard_manager_v1") (wlroots compositors do): gesturepad help control"
            )
        }
        seat = bind(registry, seatGlobal, GESTUREPAD_GLOBAL_SEAT)
        pointerManager = bind(registry, pointerGlobal, GESTUREPAD_GLOBAL_POINTER_MANAGER)
        keyboardManager = bind(registry, keyboardGlobal, GESTUREPAD_GLOBAL_KEYBOARD_MANAGER)
        guard let seat, let pointerManager, let keyboardManager else {
            throw ControlBackendError.wayland("binding the Wayland compositor's virtual input failed")
        }
        if readSeatKeymap, let ownSeat = bind(registry, seatGlobal, GESTUREPAD_GLOBAL_SEAT) {
            seatKeymap = SeatKeymapClient.read(display: display, seat: ownSeat)
        }
        pointer = zwlr_virtual_pointer_manager_v1_create_virtual_pointer(pointerManager, seat)
        keyboard = zwp_virtual_keyboard_manager_v1_create_virtual_keyboard(keyboardManager, seat)
        guard pointer != nil, keyboard != nil, wl_display_roundtrip(display) >= 0 else {
            throw ControlBackendError.wayland("the Wayland compositor refused a virtual pointer or keyboard")
        }
    }

    private func bind(_ registry: OpaquePointer, _ global: (name: UInt32, version: UInt32), _ kind: gesturepad_global)
        -> OpaquePointer?
    {
        let version = min(global.version, gesturepad_global_version(Int32(kind.rawValue)))
        return OpaquePointer(gesturepad_bind_global(registry, global.name, Int32(kind.rawValue), version))
    }

    /// Whether the connection still works.
    var isOpen: Bool {
        guard let display else { return false }
        return wl_display_get_error(display) == 0
    }

    /// Queues one request, stamped in ms of `CLOCK_MONOTONIC` — the clock wlroots stamps its own
    /// input with, so that a client comparing the times of our motion with a real device's
    /// (double-click, kinetic scrolling) sees one timeline; flushes every
    /// `requestsPerFlush`. False when the connection broke.
    @discardableResult
    func send(_ request: VirtualInputRequest) -> Bool {
        guard let pointer, let keyboard else { return false }
        // Wrapped to the protocol's 32 bits, as the compositor's own stamps are.
        let time = UInt32(truncatingIfNeeded: Int64(MonotonicClock.nowMilliseconds()))
        switch request {
        case .motion(let dx, let dy):
            zwlr_virtual_pointer_v1_motion(pointer, time, wl_fixed_from_double(dx), wl_fixed_from_double(dy))
        case .button(let code, let pressed):
            zwlr_virtual_pointer_v1_button(pointer, time, code, pressed ? 1 : 0)
        case .axisSource(let source):
            zwlr_virtual_pointer_v1_axis_source(pointer, source.rawValue)
        case .axis(let axis, let value):
            zwlr_virtual_pointer_v1_axis(pointer, time, axis.rawValue, wl_fixed_from_double(value))
        case .axisDiscrete(let axis, let value, let steps):
            zwlr_virtual_pointer_v1_axis_discrete(pointer, time, axis.rawValue, wl_fixed_from_double(value), steps)
        case .axisStop(let axis):
            zwlr_virtual_pointer_v1_axis_stop(pointer, time, axis.rawValue)
        case .frame:
            zwlr_virtual_pointer_v1_frame(pointer)
        case .keymap(let text):
            let descriptor = text.withCString { gesturepad_keymap_file($0, strlen($0) + 1) }
            guard descriptor >= 0 else { return false }
            zwp_virtual_keyboard_v1_keymap(
                keyboard, UInt32(GESTUREPAD_KEYMAP_FORMAT_XKB_V1), descriptor, UInt32(text.utf8.count + 1))
            Glibc.close(descriptor)  // libwayland sent a duplicate
        case .key(let code, let pressed):
            zwp_virtual_keyboard_v1_key(keyboard, time, code, pressed ? 1 : 0)
        case .modifiers(let depressed):
            zwp_virtual_keyboard_v1_modifiers(keyboard, depressed, 0, 0, 0)
        }
        unflushed += 1
        if unflushed >= Self.requestsPerFlush { return flush() }
        return true
    }

    /// Sends what is queued, waiting for the socket on EAGAIN, then reads what the compositor
    /// sent without waiting. False when the connection broke (or stayed full past the timeout).
    @discardableResult
    func flush() -> Bool {
        guard let display else { return false }
        unflushed = 0
        while true {
            do {
                try SystemCall.retrying { wl_display_flush(display) }
                break
            } catch {
                guard error.wouldBlock else { return false }
            }
            var writable = pollfd(fd: wl_display_get_fd(display), events: Int16(POLLOUT), revents: 0)
            guard let count = try? SystemCall.retrying({ poll(&writable, 1, Self.flushTimeoutMilliseconds) }),
                count > 0, writable.revents & Int16(POLLOUT) != 0
            else { return false }
        }
        return readPending()
    }

    /// Reads and handles events already on the socket, without waiting.
    private func readPending() -> Bool {
        guard let display else { return false }
        while wl_display_prepare_read(display) != 0 {
            guard wl_display_dispatch_pending(display) >= 0 else { return false }
        }
        var readable = pollfd(fd: wl_display_get_fd(display), events: Int16(POLLIN), revents: 0)
        if poll(&readable, 1, 0) > 0 {
            if readable.revents & Int16(POLLHUP | POLLERR) != 0 && readable.revents & Int16(POLLIN) == 0 {
                wl_display_cancel_read(display)
                return false
            }
            guard wl_display_read_events(display) >= 0 else { return false }
        } else {
            wl_display_cancel_read(display)
        }
        return wl_display_dispatch_pending(display) >= 0 && isOpen
    }

    /// Destroys the devices and disconnects (the compositor drops what they held); later calls
    /// do nothing.
    func close() {
        if let pointer { zwlr_virtual_pointer_v1_destroy(pointer) }
        if let keyboard { zwp_virtual_keyboard_v1_destroy(keyboard) }
        for proxy in [pointerManager, keyboardManager, seat, registry] {
            if let proxy { wl_proxy_destroy(proxy) }
        }
        if let display {
            _ = wl_display_flush(display)
            wl_display_disconnect(display)
        }
        (pointer, keyboard, pointerManager, keyboardManager, seat, registry, display) = (nil, nil, nil, nil, nil, nil, nil)
    }

    private var opaqueSelf: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    fileprivate static func from(_ data: UnsafeMutableRawPointer?) -> VirtualInputConnection? {
        data.map { Unmanaged<VirtualInputConnection>.fromOpaque($0).takeUnretainedValue() }
    }

    fileprivate func global(name: UInt32, interface: UnsafePointer<CChar>, version: UInt32) {
        switch gesturepad_global(UInt32(gesturepad_global_kind(interface))) {
        case GESTUREPAD_GLOBAL_SEAT where globals.seat == nil: globals.seat = (name, version)
        case GESTUREPAD_GLOBAL_POINTER_MANAGER: globals.pointerManager = (name, version)
        case GESTUREPAD_GLOBAL_KEYBOARD_MANAGER: globals.keyboardManager = (name, version)
        default: break
        }
    }
}

// The registry listener: a table of C function pointers (no captures: `data` is the
// connection) that libwayland keeps a pointer to; allocated once, never written after.
nonisolated(unsafe) private let registryListener: UnsafeMutablePointer<wl_registry_listener> = {
    let listener = UnsafeMutablePointer<wl_registry_listener>.allocate(capacity: 1)
    listener.initialize(
        to: wl_registry_listener(
            global: { data, _, name, interface, version in
                guard let interface else { return }
                VirtualInputConnection.from(data)?.global(name: name, interface: interface, version: version)
            },
            global_remove: { _, _, _ in }))
    return listener
}()
