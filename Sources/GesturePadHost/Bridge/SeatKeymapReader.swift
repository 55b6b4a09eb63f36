import CWaylandKeymap
import Glibc

/// Reads the keymap the compositor gives the seat's keyboard (`wl_keyboard.keymap`, XKB text)
/// on a connection that is already up: for the `wlroots` backend, whose virtual keyboard takes
/// the user's own layout as the base of the keymap it uploads. Two round trips: the seat's
/// capabilities, then the keyboard's keymap. Nil when the seat has no keyboard (a headless
/// compositor before any) or the keymap is not XKB text.
final class SeatKeymapReader {
    private var keyboard: OpaquePointer?
    private var hasKeyboard = false
    private var text: String?

    private init() {}

    /// The keymap text of the seat `seat` (a `wl_seat *` bound for this read alone: the
    /// reader's listeners are on it, and it is destroyed here with the keyboard, so no event
    /// reaches the reader after it is gone) on `display`.
    static func read(display: OpaquePointer, seat: OpaquePointer) -> String? {
        let reader = SeatKeymapReader()
        defer {
            if let keyboard = reader.keyboard { wl_proxy_destroy(keyboard) }
            wl_proxy_destroy(seat)
        }
        return withExtendedLifetime(reader) {
            let data = Unmanaged.passUnretained(reader).toOpaque()
            wl_seat_add_listener(seat, seatListener, data)
            guard wl_display_roundtrip(display) >= 0, reader.hasKeyboard, let keyboard = wl_seat_get_keyboard(seat)
            else { return nil }
            reader.keyboard = keyboard
            wl_keyboard_add_listener(keyboard, keyboardListener, data)
            guard wl_display_roundtrip(display) >= 0 else { return nil }
            return reader.text
        }
    }

    fileprivate static func from(_ data: UnsafeMutableRawPointer?) -> SeatKeymapReader? {
        data.map { Unmanaged<SeatKeymapReader>.fromOpaque($0).takeUnretainedValue() }
    }

    fileprivate func capabilities(_ capabilities: UInt32) {
        hasKeyboard = capabilities & WL_SEAT_CAPABILITY_KEYBOARD.rawValue != 0
    }

    fileprivate func keymap(format: UInt32, descriptor: Int32, size: UInt32) {
        defer { Glibc.close(descriptor) }
        guard format == WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue, size > 0 else { return }
        guard let mapped = mmap(nil, Int(size), PROT_READ, MAP_PRIVATE, descriptor, 0), mapped != MAP_FAILED else {
            return
        }
        defer { munmap(mapped, Int(size)) }
        // A NUL-terminated string within `size`; its length is not trusted.
        let bytes = UnsafeRawBufferPointer(start: mapped, count: strnlen(mapped.assumingMemoryBound(to: CChar.self), Int(size)))
        text = String(decoding: bytes, as: UTF8.self)
    }
}

// The listeners: tables of C function pointers (`data` is the reader), allocated once, never
// written after.

nonisolated(unsafe) private let seatListener: UnsafeMutablePointer<wl_seat_listener> = {
    let listener = UnsafeMutablePointer<wl_seat_listener>.allocate(capacity: 1)
    listener.initialize(
        to: wl_seat_listener(
            capabilities: { data, _, capabilities in SeatKeymapReader.from(data)?.capabilities(capabilities) },
            name: { _, _, _ in }))
    return listener
}()

nonisolated(unsafe) private let keyboardListener: UnsafeMutablePointer<wl_keyboard_listener> = {
    let listener = UnsafeMutablePointer<wl_keyboard_listener>.allocate(capacity: 1)
    listener.initialize(
        to: wl_keyboard_listener(
            keymap: { data, _, format, descriptor, size in
                guard let reader = SeatKeymapReader.from(data) else {
                    Glibc.close(descriptor)
                    return
                }
                reader.keymap(format: format, descriptor: descriptor, size: size)
            },
            enter: { _, _, _, _, _ in },
            leave: { _, _, _, _ in },
            key: { _, _, _, _, _, _ in },
            modifiers: { _, _, _, _, _, _, _ in },
            repeat_info: { _, _, _, _ in }))
    return listener
}()
