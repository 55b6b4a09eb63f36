import CWaylandKeymap
import Dispatch
import GesturePadSystem
import Glibc

/// The Wayland client that fetches the keymap the compositor gives the seat's keyboard
/// (`wl_keyboard.keymap`, XKB text): the one code that follows a seat's keyboard with
/// libwayland. Confined to the thread that made it, from making to `close`.
///
/// Three uses. The `portal` backend keeps one connection (`connect`) for the server's life: a
/// client without a window still gets the keymap, and a new one whenever the desktop's layouts
/// change; nothing blocks (`connect` only sends the first requests, `dispatch` reads the answers
/// when `fileDescriptor` is readable, in the backend's `poll`). The `uinput` and `touchpad`
/// backends read it once at start (`readOnce`). The `wlroots` backend reads it on its own
/// connection before its virtual keyboard exists (`read(display:seat:)`). The keymap comes once
/// the seat offers a keyboard, which a desktop without a keyboard device may do late (headless
/// GNOME 43: only after a keyboard device exists and its keymap changes), so the seat's
/// capabilities are followed.
final class SeatKeymapClient {
    /// `wl_display *` (owned unless borrowed), `wl_registry *`, `wl_seat *`, `wl_keyboard *`.
    private var display: OpaquePointer?
    private let ownsDisplay: Bool
    private var registry: OpaquePointer?
    private var seat: OpaquePointer?
    private var keyboard: OpaquePointer?
    /// The text of a keymap that arrived and was not taken yet.
    private var pending: String?

    private init(display: OpaquePointer, ownsDisplay: Bool) {
        self.display = display
        self.ownsDisplay = ownsDisplay
    }

    deinit { close() }

    /// Connects to the compositor of `WAYLAND_DISPLAY` and asks for the seat; nil when there
    /// is none (not a Wayland session).
    static func connect() -> SeatKeymapClient? {
        guard let display = wl_display_connect(nil) else { return nil }
        let client = SeatKeymapClient(display: display, ownsDisplay: true)
        guard let registry = wl_display_get_registry(display) else { return nil }
        client.registry = registry
        wl_registry_add_listener(registry, registryListener, client.opaqueSelf)
        wl_display_flush(display)
        return client
    }

    /// The compositor's keymap read once (the `uinput` and `touchpad` backends, at start):
    /// connects, waits up to `timeout` seconds for the keymap, disconnects. Nil without a
    /// compositor, when no keymap came in time (a seat without a keyboard), or when it does not
    /// compile.
    static func readOnce(timeout: Double) -> XKBKeymap? {
        guard let client = connect() else { return nil }
        defer { client.close() }
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, timeout) * 1e9)
        while true {
            client.flush()
            if let text = client.takeKeymap() { return XKBKeymap(text: text) }
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else { return nil }
            var ready = pollfd(fd: client.fileDescriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(min(Double(deadline - now) / 1e6, 60_000).rounded(.up))
            // A signal's interruption polls again for the same time at most: the deadline
            // above still ends the loop.
            guard let count = try? SystemCall.retrying({ poll(&ready, 1, milliseconds) }), count > 0, client.dispatch()
            else { return nil }
        }
    }

    /// The keymap text of the seat `seat` (a `wl_seat *` bound for this read alone, which is
    /// destroyed here with its keyboard, so no event reaches the client after it is gone) on
    /// `display`, a connection that is already up and stays so (the `wlroots` backend's). Two
    /// round trips: the seat's capabilities, then the keyboard's keymap. Nil when the seat has
    /// no keyboard (a headless compositor before any) or the keymap is not XKB text.
    static func read(display: OpaquePointer, seat: OpaquePointer) -> String? {
        let client = SeatKeymapClient(display: display, ownsDisplay: false)
        defer { client.close() }
        client.seat = seat
        wl_seat_add_listener(seat, seatListener, client.opaqueSelf)
        guard wl_display_roundtrip(display) >= 0, client.keyboard != nil, wl_display_roundtrip(display) >= 0 else {
            return nil
        }
        return client.takeKeymap()
    }

    /// The descriptor to `poll` for input.
    var fileDescriptor: Int32 { display.map { wl_display_get_fd($0) } ?? -1 }

    /// Sends what is queued (before the backend waits).
    func flush() {
        guard let display else { return }
        _ = wl_display_flush(display)
    }

    /// Reads and handles what the compositor sent; call only when `fileDescriptor` is
    /// readable. False when the connection broke (then everything here is closed).
    func dispatch() -> Bool {
        guard let display else { return false }
        while wl_display_prepare_read(display) != 0 {
            guard wl_display_dispatch_pending(display) >= 0 else { return lose() }
        }
        guard wl_display_read_events(display) >= 0, wl_display_dispatch_pending(display) >= 0 else { return lose() }
        _ = wl_display_flush(display)
        return true
    }

    /// The text of a keymap that arrived since the last call, if any.
    func takeKeymap() -> String? {
        defer { pending = nil }
        return pending
    }

    /// Disconnects (a borrowed display stays connected); later calls do nothing.
    func close() {
        if let keyboard { wl_proxy_destroy(keyboard) }
        if let seat { wl_proxy_destroy(seat) }
        if let registry { wl_proxy_destroy(registry) }
        if let display, ownsDisplay { wl_display_disconnect(display) }
        (keyboard, seat, registry, display) = (nil, nil, nil, nil)
    }

    private func lose() -> Bool {
        close()
        return false
    }

    private var opaqueSelf: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    fileprivate static func from(_ data: UnsafeMutableRawPointer?) -> SeatKeymapClient? {
        data.map { Unmanaged<SeatKeymapClient>.fromOpaque($0).takeUnretainedValue() }
    }

    // MARK: - Events

    fileprivate func global(name: UInt32, interface: String, version: UInt32) {
        guard seat == nil, let registry, interface == String(cString: gesturepad_seat_interface_name()) else { return }
        guard let bound = gesturepad_bind_seat(registry, name, min(version, 5)) else { return }
        seat = bound
        wl_seat_add_listener(bound, seatListener, opaqueSelf)
    }

    fileprivate func capabilities(_ capabilities: UInt32) {
        let hasKeyboard = capabilities & WL_SEAT_CAPABILITY_KEYBOARD.rawValue != 0
        if hasKeyboard, keyboard == nil, let seat, let made = wl_seat_get_keyboard(seat) {
            keyboard = made
            wl_keyboard_add_listener(made, keyboardListener, opaqueSelf)
        } else if !hasKeyboard, let keyboard {
            wl_proxy_destroy(keyboard)
            self.keyboard = nil
        }
    }

    fileprivate func keymap(format: UInt32, descriptor: Int32, size: UInt32) {
        defer { Glibc.close(descriptor) }
        guard format == WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue, size > 0 else { return }
        guard let mapped = mmap(nil, Int(size), PROT_READ, MAP_PRIVATE, descriptor, 0), mapped != MAP_FAILED else {
            return
        }
        defer { munmap(mapped, Int(size)) }
        // A NUL-terminated string within `size` (the protocol); its length is not trusted.
        let length = strnlen(mapped.assumingMemoryBound(to: CChar.self), Int(size))
        pending = String(decoding: UnsafeRawBufferPointer(start: mapped, count: length), as: UTF8.self)
    }
}

// MARK: - The listeners
//
// Tables of C function pointers (no captures: `data` is the SeatKeymapClient) that libwayland
// keeps a pointer to: allocated once, never written after, hence `nonisolated(unsafe)`.

nonisolated(unsafe) private let registryListener: UnsafeMutablePointer<wl_registry_listener> = {
    let listener = UnsafeMutablePointer<wl_registry_listener>.allocate(capacity: 1)
    listener.initialize(
        to: wl_registry_listener(
            global: { data, _, name, interface, version in
                guard let interface else { return }
                SeatKeymapClient.from(data)?.global(name: name, interface: String(cString: interface), version: version)
            },
            global_remove: { _, _, _ in }))
    return listener
}()

nonisolated(unsafe) private let seatListener: UnsafeMutablePointer<wl_seat_listener> = {
    let listener = UnsafeMutablePointer<wl_seat_listener>.allocate(capacity: 1)
    listener.initialize(
        to: wl_seat_listener(
            capabilities: { data, _, capabilities in SeatKeymapClient.from(data)?.capabilities(capabilities) },
            name: { _, _, _ in }))
    return listener
}()

nonisolated(unsafe) private let keyboardListener: UnsafeMutablePointer<wl_keyboard_listener> = {
    let listener = UnsafeMutablePointer<wl_keyboard_listener>.allocate(capacity: 1)
    listener.initialize(
        to: wl_keyboard_listener(
            keymap: { data, _, format, descriptor, size in
                guard let client = SeatKeymapClient.from(data) else {
                    Glibc.close(descriptor)
                    return
                }
                client.keymap(format: format, descriptor: descriptor, size: size)
            },
            enter: { _, _, _, _, _ in },
            leave: { _, _, _, _ in },
            key: { _, _, _, _, _, _ in },
            modifiers: { _, _, _, _, _, _, _ in },
            repeat_info: { _, _, _, _ in }))
    return listener
}()
