import CWaylandKeymap
import Dispatch
import Glibc

/// The keyboard layout the Wayland compositor gives its clients (`wl_keyboard.keymap`), for
/// the `portal` backend: the only code that touches libwayland's and xkbcommon's pointers.
/// Confined to one thread (the portal backend's) from `connect` to `close`.
///
/// A client without a window still gets the keymap, and a new one whenever the desktop's
/// layouts change. It comes once the seat offers a keyboard, which a desktop without a
/// keyboard device may do late (headless GNOME 43: only after a keyboard device exists and its
/// keymap changes), so the seat's capabilities are followed. Nothing here blocks: `connect`
/// only sends the first requests; the answers are read by `dispatch` when `fileDescriptor` is
/// readable (the backend's `poll`).
final class WaylandKeymap {
    /// `wl_display *`, `wl_registry *`, `wl_seat *`, `wl_keyboard *`: opaque C types.
    private var display: OpaquePointer?
    private var registry: OpaquePointer?
    private var seat: OpaquePointer?
    private var keyboard: OpaquePointer?
    /// `xkb_context *`.
    private var context: OpaquePointer?
    /// Layouts of a keymap that arrived and was not taken yet.
    private var pending: [KeymapLayout]?

    private init(display: OpaquePointer, context: OpaquePointer) {
        self.display = display
        self.context = context
    }

    deinit { close() }

    /// Connects to the compositor of `WAYLAND_DISPLAY` and asks for the seat; nil when there
    /// is none (not a Wayland session) or xkbcommon cannot start.
    static func connect() -> WaylandKeymap? {
        guard let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { return nil }
        guard let display = wl_display_connect(nil) else {
            xkb_context_unref(context)
            return nil
        }
        let keymap = WaylandKeymap(display: display, context: context)
        guard let registry = wl_display_get_registry(display) else { return nil }
        keymap.registry = registry
        wl_registry_add_listener(registry, registryListener, keymap.opaqueSelf)
        wl_display_flush(display)
        return keymap
    }

    /// The compositor's layouts read once (the `uinput` and `touchpad` backends, at start):
    /// connects, waits up to `timeout` seconds for the keymap, disconnects. Nil without a
    /// compositor, or when no keymap came in time (a seat without a keyboard).
    static func readOnce(timeout: Double) -> [KeymapLayout]? {
        guard let keymap = connect() else { return nil }
        defer { keymap.close() }
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, timeout) * 1e9)
        while true {
            keymap.flush()
            if let layouts = keymap.takeLayouts() { return layouts }
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else { return nil }
            var ready = pollfd(fd: keymap.fileDescriptor, events: Int16(POLLIN), revents: 0)
            let count = poll(&ready, 1, Int32(min(Double(deadline - now) / 1e6, 60_000).rounded(.up)))
            if count < 0 && errno == EINTR { continue }
            guard count > 0, keymap.dispatch() else { return nil }
        }
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

    /// The layouts of a keymap that arrived since the last call, if any.
    func takeLayouts() -> [KeymapLayout]? {
        defer { pending = nil }
        return pending
    }

    /// Disconnects; later calls do nothing.
    func close() {
        if let keyboard { wl_proxy_destroy(keyboard) }
        if let seat { wl_proxy_destroy(seat) }
        if let registry { wl_proxy_destroy(registry) }
        if let display { wl_display_disconnect(display) }
        if let context { xkb_context_unref(context) }
        (keyboard, seat, registry, display, context) = (nil, nil, nil, nil, nil)
    }

    private func lose() -> Bool {
        close()
        return false
    }

    private var opaqueSelf: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    fileprivate static func from(_ data: UnsafeMutableRawPointer?) -> WaylandKeymap? {
        data.map { Unmanaged<WaylandKeymap>.fromOpaque($0).takeUnretainedValue() }
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
        guard format == WL_KEYBOARD_KEYMAP_FORMAT_XKB_V1.rawValue, size > 0, let context else { return }
        guard let mapped = mmap(nil, Int(size), PROT_READ, MAP_PRIVATE, descriptor, 0), mapped != MAP_FAILED else {
            return
        }
        defer { munmap(mapped, Int(size)) }
        // A NUL-terminated string within `size` (the protocol); its length is not trusted.
        let text = mapped.assumingMemoryBound(to: CChar.self)
        let length = strnlen(text, Int(size))
        guard
            let compiled = xkb_keymap_new_from_buffer(
                context, text, length, XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS)
        else { return }
        defer { xkb_keymap_unref(compiled) }
        pending = Self.layouts(of: compiled)
    }

    // MARK: - xkbcommon

    /// Every layout of `keymap`, its keys in the order compositors search them for a keysym
    /// (key code, then level; `min ..< max`, as mutter and KWin loop).
    static func layouts(of keymap: OpaquePointer) -> [KeymapLayout] {
        let minimum = xkb_keymap_min_keycode(keymap)
        let maximum = xkb_keymap_max_keycode(keymap)
        let masks = ModifierMasks(keymap)
        return (0..<xkb_keymap_num_layouts(keymap)).map { layout in
            var keys: [KeymapLayout.Key] = []
            for keycode in minimum..<max(minimum, maximum) {
                for level in 0..<xkb_keymap_num_levels_for_key(keymap, keycode, layout) {
                    var symbols: UnsafePointer<xkb_keysym_t>?
                    let count = xkb_keymap_key_get_syms_by_level(keymap, keycode, layout, level, &symbols)
                    guard count > 0, let symbols else { continue }
                    let modifiers = masks.modifiers(keymap, keycode: keycode, layout: layout, level: level)
                    for index in 0..<Int(count) {
                        let keysym = symbols[index]
                        keys.append(
                            .init(
                                keycode: keycode, level: level, keysym: keysym, scalar: xkb_keysym_to_utf32(keysym),
                                modifiers: modifiers))
                    }
                }
            }
            let name = xkb_keymap_layout_get_name(keymap, layout).map { String(cString: $0) } ?? "layout \(layout + 1)"
            return KeymapLayout(name: name, keys: keys)
        }
    }

    /// The real modifiers of a keymap that select levels GesturePad can reach by pressing keys:
    /// Shift, and Mod5 (where XKB puts LevelThree, AltGr).
    private struct ModifierMasks {
        let shift: xkb_mod_mask_t
        let levelThree: xkb_mod_mask_t

        init(_ keymap: OpaquePointer) {
            func mask(_ name: String) -> xkb_mod_mask_t {
                let index = xkb_keymap_mod_get_index(keymap, name)
                return index == XKB_MOD_INVALID ? 0 : 1 << index
            }
            shift = mask("Shift")
            levelThree = mask("Mod5")
        }

        /// The fewest of Shift and AltGr that select `level` of the key (nil: none do).
        func modifiers(_ keymap: OpaquePointer, keycode: UInt32, layout: UInt32, level: UInt32)
            -> KeymapLayout.LevelModifiers?
        {
            var found = [xkb_mod_mask_t](repeating: 0, count: 16)
            let count = xkb_keymap_key_get_mods_for_level(keymap, keycode, layout, level, &found, found.count)
            var best: KeymapLayout.LevelModifiers?
            for mask in found.prefix(Int(count)) where mask & ~(shift | levelThree) == 0 {
                var modifiers: KeymapLayout.LevelModifiers = []
                if mask & shift != 0 { modifiers.insert(.shift) }
                if mask & levelThree != 0 { modifiers.insert(.levelThree) }
                if best.map({ modifiers.rawValue.nonzeroBitCount < $0.rawValue.nonzeroBitCount }) ?? true {
                    best = modifiers
                }
            }
            return best
        }
    }

    /// The layouts of the keymap xkbcommon compiles from rules names (`layout` "us", "de",
    /// "us,ru"; the layout a user names for uinput, tests), from the system's XKB data; nil when
    /// it cannot.
    static func layouts(layout: String, variant: String = "") -> [KeymapLayout]? {
        guard let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { return nil }
        defer { xkb_context_unref(context) }
        // An unknown name is the caller's to say, in one line: not xkbcommon's ten on stderr.
        xkb_context_set_log_level(context, XKB_LOG_LEVEL_CRITICAL)
        return layout.withCString { layoutName in
            variant.withCString { variantName in
                var names = xkb_rule_names(rules: nil, model: nil, layout: layoutName, variant: variantName, options: nil)
                guard let keymap = xkb_keymap_new_from_names(context, &names, XKB_KEYMAP_COMPILE_NO_FLAGS) else {
                    return nil
                }
                defer { xkb_keymap_unref(keymap) }
                return layouts(of: keymap)
            }
        }
    }
}

// MARK: - The listeners
//
// Tables of C function pointers (no captures: `data` is the WaylandKeymap) that libwayland
// keeps a pointer to: allocated once, never written after, hence `nonisolated(unsafe)`.

nonisolated(unsafe) private let registryListener: UnsafeMutablePointer<wl_registry_listener> = {
    let listener = UnsafeMutablePointer<wl_registry_listener>.allocate(capacity: 1)
    listener.initialize(
        to: wl_registry_listener(
            global: { data, _, name, interface, version in
                guard let interface else { return }
                WaylandKeymap.from(data)?.global(name: name, interface: String(cString: interface), version: version)
            },
            global_remove: { _, _, _ in }))
    return listener
}()

nonisolated(unsafe) private let seatListener: UnsafeMutablePointer<wl_seat_listener> = {
    let listener = UnsafeMutablePointer<wl_seat_listener>.allocate(capacity: 1)
    listener.initialize(
        to: wl_seat_listener(
            capabilities: { data, _, capabilities in WaylandKeymap.from(data)?.capabilities(capabilities) },
            name: { _, _, _ in }))
    return listener
}()

nonisolated(unsafe) private let keyboardListener: UnsafeMutablePointer<wl_keyboard_listener> = {
    let listener = UnsafeMutablePointer<wl_keyboard_listener>.allocate(capacity: 1)
    listener.initialize(
        to: wl_keyboard_listener(
            keymap: { data, _, format, descriptor, size in
                guard let keymap = WaylandKeymap.from(data) else {
                    Glibc.close(descriptor)
                    return
                }
                keymap.keymap(format: format, descriptor: descriptor, size: size)
            },
            enter: { _, _, _, _, _ in },
            leave: { _, _, _, _ in },
            key: { _, _, _, _, _, _ in },
            modifiers: { _, _, _, _, _, _, _ in },
            repeat_info: { _, _, _, _ in }))
    return listener
}()
