import GestureControl

/// Turns `HostAction`s into RemoteDesktop portal calls. Pure: it appends to the array it is
/// given and keeps what must outlive one action (what is held, the scroll in progress, the
/// wheel remainders of discrete steps).
///
/// - motion: `NotifyPointerMotion` (zero motion is not sent);
/// - buttons: `NotifyPointerButton` with evdev codes (BTN_LEFT 272, BTN_RIGHT 273,
///   BTN_MIDDLE 274), 1 / 0; a second press of a held button, or a release of one not held,
///   sends nothing;
/// - wheel: smooth `NotifyPointerAxis`, `smoothUnitsPerDetent` (10) per detent, positive
///   down / right as `HostAction.wheel`; `wheelStop` sends one with `finish` (kinetic
///   scrolling ends there). While a modifier key is held (pinch zoom holds Control) the wheel
///   goes as `NotifyPointerAxisDiscrete` steps instead, once whole detents accumulate:
///   applications zoom one step per click. Never both for the same motion: GNOME turns the
///   smooth axis into wheel clicks itself (10 units per click), so discrete steps on top
///   would scroll twice;
/// - named keys: `NotifyKeyboardKeycode`, the evdev code of `EvdevKeys` (layout-independent);
/// - character keys and text: `NotifyKeyboardKeysym`, pressed and released, with the keysym
///   the desktop's layout lists for the character (`layout`: "€" is EuroSign on a German
///   layout) — the compositor finds the key and level itself, and drops a keysym its layout
///   lacks; while the layout is unknown, the keysym of `X11Keysyms` (Latin-1 as is, others
///   as Unicode keysyms). Newline is Return, tab is Tab. A character the layout lacks (the
///   protocol layer refused those; the layout changed since) is skipped and counted in
///   `skipped`.
///
/// What an implementation does differently is corrected here (`PortalDesktop`, KDE Plasma's
/// portal): the vertical axis sent negated, so that it arrives right; discrete steps sent as
/// wheel-sized axis values; characters sent as the key codes of `DesktopLayout.Table.strokes`
/// with their Shift / AltGr held around them, not as keysyms.
struct PortalActionEncoder: Sendable {
    /// Smooth scroll units per wheel detent: GNOME's (mutter's `DISCRETE_SCROLL_STEP`) unit of
    /// one click, which is also about what a touchpad scrolls per 15° of wheel.
    static let smoothUnitsPerDetent = 10.0

    private enum HeldKey: Sendable, Hashable {
        case keycode(Int32)
        case keysym(Int32)
        /// A character typed by key code: its modifiers are held with it.
        case stroke(DesktopLayout.Stroke)
    }

    /// Buttons down, in press order.
    private var heldButtons = HeldButtons<Int32>() {
        didSet { heldChanges &+= 1 }
    }
    /// Keys down by key actions, in press order.
    private var heldKeys = HeldKeys<HeldKey>() {
        didSet { heldChanges &+= 1 }
    }
    /// Counts changes of what is held: `heldRecord` is read only when it moved.
    private(set) var heldChanges = 0
    private var scroll = ScrollState()
    /// The desktop's layout, when known: which keysym types each character.
    var layout: DesktopLayout.Table?
    /// Characters not typed since the last `takeSkipped()`: the layout has no key for them.
    private var skipped: [Unicode.Scalar] = []

    /// The implementation whose quirks are corrected.
    let desktop: PortalDesktop

    init(layout: DesktopLayout.Table? = nil, desktop: PortalDesktop = .other) {
        self.layout = layout
        self.desktop = desktop
    }

    /// The characters skipped since the last call.
    mutating func takeSkipped() -> [Unicode.Scalar] {
        defer { skipped.removeAll() }
        return skipped
    }

    mutating func encode(_ action: HostAction, into calls: inout [PortalNotify]) {
        switch action {
        case .motion(let dx, let dy):
            guard dx != 0 || dy != 0 else { return }
            calls.append(.pointerMotion(dx: Double(dx), dy: Double(dy)))
        case .button(let button, let state):
            let code = Int32(EvdevKeys.button(button))
            guard heldButtons.change(code, pressed: state == .down) else { return }
            calls.append(.pointerButton(button: code, pressed: state == .down))
        case .wheel(let dx, let dy):
            if holdsModifier {
                encodeDiscrete(dx: dx, dy: dy, into: &calls)
            } else {
                encodeSmooth(dx: dx, dy: dy, into: &calls)
            }
        case .wheelStop:
            finishScroll(into: &calls)
        case .contact, .touchSurface, .spotlight:
            return  // touches pass through only to a native touchpad; no spotlight here
        case .key(let key, .down):
            guard !heldKeys.isHeld(key) else { return }
            guard let held = heldKey(for: key) else { return }
            heldKeys.hold(key, held)
            Self.notify(held, pressed: true, into: &calls)
        case .key(let key, .up):
            guard let held = heldKeys.release(key) else { return }
            Self.notify(held, pressed: false, into: &calls)
        case .text(let text):
            for scalar in text.unicodeScalars {
                guard let key = textKey(scalar) else { continue }
                Self.notify(key, pressed: true, into: &calls)
                Self.notify(key, pressed: false, into: &calls)
            }
        }
    }

    /// How a scalar of `text` is typed: by key code where the desktop takes that
    /// (`PortalDesktop.typesByKeycode`, a layout known), else by keysym.
    private mutating func textKey(_ scalar: Unicode.Scalar) -> HeldKey? {
        byKeycode ? stroke(for: scalar).map { .stroke($0) } : textKeysym(scalar).map { .keysym($0) }
    }

    /// Characters go by key code: the desktop takes them so, and its layout is known.
    private var byKeycode: Bool { desktop.typesByKeycode && !(layout?.strokes.isEmpty ?? true) }

    /// The key-code stroke of a scalar (`byKeycode`): Return and Tab for newline and tab, the
    /// table's stroke for a character; nil (and the character counted in `skipped`) when the
    /// table lacks it.
    private mutating func stroke(for scalar: Unicode.Scalar) -> DesktopLayout.Stroke? {
        guard let layout else { return nil }
        switch scalar {
        case "\n": return DesktopLayout.Stroke(keycode: UInt32(EvdevKeys.code(for: .enter)))
        case "\t": return DesktopLayout.Stroke(keycode: UInt32(EvdevKeys.code(for: .tab)))
        default: break
        }
        guard HostKey.isPrintable(scalar) else { return nil }
        guard let stroke = layout.strokes[scalar.value] else {
            skipped.append(scalar)
            return nil
        }
        return stroke
    }

    /// The keysym `text` types for a scalar: Return and Tab for newline and tab, nothing for
    /// other control characters, else `characterKeysym`.
    private mutating func textKeysym(_ scalar: Unicode.Scalar) -> Int32? {
        if scalar == "\n" || scalar == "\t" { return X11Keysyms.textKeysym(scalar).map { Int32(truncatingIfNeeded: $0) } }
        guard HostKey.isPrintable(scalar) else { return nil }
        return characterKeysym(scalar)
    }

    /// The layout's keysym for a character; without a layout, `X11Keysyms.character`. A
    /// character the layout lacks is recorded in `skipped`.
    private mutating func characterKeysym(_ scalar: Unicode.Scalar) -> Int32? {
        guard let layout else { return Int32(truncatingIfNeeded: X11Keysyms.character(scalar)) }
        guard let keysym = layout.keysym(for: scalar) else {
            skipped.append(scalar)
            return nil
        }
        return Int32(bitPattern: keysym)
    }

    /// What is held by code, for a record that outlives the process (`PortalLoop`, KDE):
    /// buttons as `b272`, keys as `k29`, comma-separated, in press order; "" for nothing.
    var heldRecord: String {
        let buttons = heldButtons.codes.map { "b\($0)" }
        let keys = heldKeys.entries.flatMap { entry -> [String] in
            switch entry.payload {
            case .keycode(let code): ["k\(code)"]
            case .stroke(let stroke): (stroke.modifiers + [stroke.keycode]).map { "k\($0)" }
            case .keysym: []
            }
        }
        return (buttons + keys).joined(separator: ",")
    }

    /// The releases of a `heldRecord` (unknown parts skipped), last held first.
    static func releases(of record: String) -> [PortalNotify] {
        record.split(separator: ",").reversed().compactMap { part -> PortalNotify? in
            guard let code = Int32(part.dropFirst()), code > 0, code < 0x300 else { return nil }
            switch part.first {
            case "b": return .pointerButton(button: code, pressed: false)
            case "k": return .keyboardKeycode(code, pressed: false)
            default: return nil
            }
        }
    }

    /// Finishes a scroll in progress, releases every held button, then every held key, each
    /// last pressed first (`HeldButtons`: the order of every backend).
    mutating func releaseAll(into calls: inout [PortalNotify]) {
        finishScroll(into: &calls)
        while let button = heldButtons.popLast() { calls.append(.pointerButton(button: button, pressed: false)) }
        while let last = heldKeys.popLast() { Self.notify(last.payload, pressed: false, into: &calls) }
    }

    /// Whether a key action holds a modifier (Shift, Control, Alt, Meta, AltGraph).
    private var holdsModifier: Bool {
        heldKeys.entries.contains { entry in
            guard case .named(let named) = entry.key else { return false }
            return [.shift, .control, .alt, .meta, .altGraph].contains(named)
        }
    }

    private mutating func encodeSmooth(dx: Double, dy: Double, into calls: inout [PortalNotify]) {
        let x = ScrollState.smoothUnits(dx, unitsPerDetent: Self.smoothUnitsPerDetent)
        let y = ScrollState.smoothUnits(dy, unitsPerDetent: Self.smoothUnitsPerDetent)
        guard x != 0 || y != 0 else { return }
        scroll.sentSmooth()
        calls.append(.pointerAxis(dx: x, dy: desktop.negatesVerticalAxis ? -y : y, finish: false))
    }

    private mutating func encodeDiscrete(dx: Double, dy: Double, into calls: inout [PortalNotify]) {
        let steps = scroll.add(dx: dx, dy: dy)
        let down = steps.down.detents
        let right = steps.right.detents
        // KDE: the steps arrive as the axis value, 10 of which are one wheel click to a client.
        let scale = desktop.discreteStepsAreAxisValues ? Int(Self.smoothUnitsPerDetent) : 1
        if down != 0 { calls.append(.pointerAxisDiscrete(axis: 0, steps: Int32(clamping: down * scale))) }
        if right != 0 { calls.append(.pointerAxisDiscrete(axis: 1, steps: Int32(clamping: right * scale))) }
    }

    private mutating func finishScroll(into calls: inout [PortalNotify]) {
        guard scroll.stop() else { return }
        calls.append(.pointerAxis(dx: 0, dy: 0, finish: true))
    }

    /// Named keys by evdev code; characters by key code or keysym (nil: not on the layout).
    private mutating func heldKey(for key: HostKey) -> HeldKey? {
        switch key {
        case .named(let named): return .keycode(Int32(EvdevKeys.code(for: named)))
        case .character(let scalar):
            return byKeycode ? stroke(for: scalar).map { .stroke($0) } : characterKeysym(scalar).map { .keysym($0) }
        }
    }

    /// A press (a stroke's modifiers first) or release (the key first, then its modifiers).
    private static func notify(_ key: HeldKey, pressed: Bool, into calls: inout [PortalNotify]) {
        switch key {
        case .keycode(let code): calls.append(.keyboardKeycode(code, pressed: pressed))
        case .keysym(let keysym): calls.append(.keyboardKeysym(keysym, pressed: pressed))
        case .stroke(let stroke):
            if pressed {
                for modifier in stroke.modifiers { calls.append(.keyboardKeycode(Int32(modifier), pressed: true)) }
                calls.append(.keyboardKeycode(Int32(stroke.keycode), pressed: true))
            } else {
                calls.append(.keyboardKeycode(Int32(stroke.keycode), pressed: false))
                for modifier in stroke.modifiers.reversed() {
                    calls.append(.keyboardKeycode(Int32(modifier), pressed: false))
                }
            }
        }
    }
}
