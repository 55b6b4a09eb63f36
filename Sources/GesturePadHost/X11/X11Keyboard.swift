import GestureControl

/// The X11 keyboard as a state machine: key actions and text in, `X11KeyStep`s out. Pure (no
/// display), so the typing rules are testable; `X11Executor` carries the steps out.
///
/// - A keysym in column 0 of the keymap is pressed as it is; one in column 1 with Shift held
///   around it (unless Shift is already down).
/// - A keysym the keymap lacks (`é` on a US layout, `中`, a missing media key) is bound to a
///   spare keycode (one with no keysym at all when the keyboard was opened) in both columns,
///   then pressed.
/// - Bindings stay until the spare is needed for another keysym (least recently used first)
///   or the keyboard closes: an application that reads its events late, or looks the keymap
///   up again on MappingNotify, still finds the keysym it was sent; and a character typed
///   again needs no new binding. Before a spare that was pressed is rebound, a `sync` makes
///   the server deliver the earlier key events first.
/// - Every key held by a key action is tracked, so that `releaseAll` releases it. Shift is
///   shared: a key action holding it is not pressed again for a capital, and text typed while
///   it is held comes out shifted, as on a real keyboard.
struct X11Keyboard {
    private struct Spare {
        var keycode: Keycode
        /// What the spare is bound to; `NoSymbol` when free.
        var keysym: Keysym = X11Keysyms.none
        /// For least-recently-used reuse.
        var lastUse: UInt64 = 0
        /// Pressed since the last `sync`: rebinding it needs one first.
        var pressedSinceSync = false
    }

    private(set) var keymap: X11Keymap
    private var spares: [Spare]
    /// Keys down by key actions, in press order, with their keycode and whether Shift came with it.
    private var held = HeldKeys<(keycode: Keycode, withShift: Bool)>()
    /// How many holders each keycode has: pressed at the first, released at the last.
    private var holders = KeyHolders(codes: 256)
    private var shiftKeycode: Keycode?
    private var useClock: UInt64 = 0

    /// - Parameter keymap: the server's mapping when the display was opened; its keycodes
    ///   without any keysym become the spares (highest first, as they are the least likely to
    ///   be on a real keyboard).
    init(keymap: X11Keymap) {
        self.keymap = keymap
        spares = keymap.unboundKeycodes.reversed().map { Spare(keycode: $0) }
        shiftKeycode = keymap.position(of: X11Keysyms.shift)?.keycode
    }

    /// Spare keycodes still available for binding.
    var spareKeycodes: [Keycode] { spares.map(\.keycode) }

    /// A key action: press (once; a second down is ignored) or release (only what is held).
    mutating func key(_ key: HostKey, _ state: PressState, into steps: inout [X11KeyStep]) {
        switch state {
        case .down:
            guard !held.isHeld(key),
                let position = position(for: X11Keysyms.keysym(for: key), into: &steps)
            else { return }
            if position.shifted { hold(shiftKeycode, into: &steps) }
            hold(position.keycode, into: &steps)
            held.hold(key, (position.keycode, position.shifted))
        case .up:
            guard let released = held.release(key) else { return }
            release(released, into: &steps)
        }
    }

    /// Types `text`: each character pressed and released, Shift around those that need it.
    /// Characters that cannot be typed (control characters, no spare left) are skipped.
    mutating func type(_ text: String, into steps: inout [X11KeyStep]) {
        for scalar in text.unicodeScalars {
            guard let keysym = X11Keysyms.textKeysym(scalar), let position = position(for: keysym, into: &steps)
            else { continue }
            if position.shifted { hold(shiftKeycode, into: &steps) }
            steps.append(.press(position.keycode))
            steps.append(.release(position.keycode))
            markPressed(position.keycode)
            if position.shifted { unhold(shiftKeycode, into: &steps) }
        }
    }

    /// Releases every key held, last pressed first.
    mutating func releaseAll(into steps: inout [X11KeyStep]) {
        while let last = held.popLast() { release(last.payload, into: &steps) }
        for keycode in holders.releaseAll() { steps.append(.release(Keycode(keycode))) }
    }

    /// Unbinds every spare (after a `sync`), leaving the keymap as it was found.
    mutating func unbindAll(into steps: inout [X11KeyStep]) {
        guard spares.contains(where: { $0.keysym != X11Keysyms.none }) else { return }
        steps.append(.sync)
        for index in spares.indices where spares[index].keysym != X11Keysyms.none {
            steps.append(.bind(spares[index].keycode, X11Keysyms.none))
            keymap.bind(spares[index].keycode, to: X11Keysyms.none)
            spares[index].keysym = X11Keysyms.none
        }
    }

    /// Takes a new snapshot of the server's mapping (after MappingNotify). A spare stays ours
    /// while it is unbound or still bound to what we bound it to; one bound by someone else
    /// is given up.
    mutating func update(keymap newKeymap: X11Keymap) {
        keymap = newKeymap
        spares = spares.compactMap { spare in
            let keysyms = newKeymap.keysyms(of: spare.keycode)
            var spare = spare
            if keysyms.allSatisfy({ $0 == X11Keysyms.none }) {
                spare.keysym = X11Keysyms.none
                return spare
            }
            return spare.keysym != X11Keysyms.none && keysyms.first == spare.keysym ? spare : nil
        }
        shiftKeycode = newKeymap.position(of: X11Keysyms.shift)?.keycode
    }

    /// Where to type `keysym` from: the keymap, or a spare bound to it now.
    private mutating func position(for keysym: Keysym, into steps: inout [X11KeyStep]) -> X11Keymap.Position? {
        if let position = keymap.position(of: keysym), !position.shifted || shiftKeycode != nil {
            return position
        }
        guard let index = spareToBind() else { return nil }
        if spares[index].pressedSinceSync {
            steps.append(.sync)
            for i in spares.indices { spares[i].pressedSinceSync = false }
        }
        steps.append(.bind(spares[index].keycode, keysym))
        keymap.bind(spares[index].keycode, to: keysym)
        spares[index].keysym = keysym
        return X11Keymap.Position(keycode: spares[index].keycode, shifted: false)
    }

    /// A free spare, else the least recently used one not held down.
    private func spareToBind() -> Int? {
        if let free = spares.firstIndex(where: { $0.keysym == X11Keysyms.none }) { return free }
        return spares.indices.filter { !holders.isDown(Int(spares[$0].keycode)) }.min {
            spares[$0].lastUse < spares[$1].lastUse
        }
    }

    private mutating func release(_ held: (keycode: Keycode, withShift: Bool), into steps: inout [X11KeyStep]) {
        unhold(held.keycode, into: &steps)
        if held.withShift { unhold(shiftKeycode, into: &steps) }
    }

    private mutating func hold(_ keycode: Keycode?, into steps: inout [X11KeyStep]) {
        guard let keycode else { return }
        if holders.take(Int(keycode)) { steps.append(.press(keycode)) }
        markPressed(keycode)
    }

    private mutating func unhold(_ keycode: Keycode?, into steps: inout [X11KeyStep]) {
        guard let keycode, holders.letGo(Int(keycode)) else { return }
        steps.append(.release(keycode))
    }

    /// Notes a press of `keycode`, for the LRU and the sync-before-rebind rule.
    private mutating func markPressed(_ keycode: Keycode) {
        guard let index = spares.firstIndex(where: { $0.keycode == keycode }) else { return }
        useClock += 1
        spares[index].lastUse = useClock
        spares[index].pressedSinceSync = true
    }
}
