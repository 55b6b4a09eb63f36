import CUInput
import GestureControl

/// Turns `HostAction`s into the `input_event`s of a virtual pointer-and-keyboard, each group
/// ended by `EV_SYN SYN_REPORT`. Pure: it only appends to the array it is given, and keeps what
/// must outlive one action (wheel remainders, what is held).
///
/// - motion: `REL_X`, `REL_Y` (zero components left out), one group;
/// - buttons: `BTN_LEFT` / `BTN_RIGHT` / `BTN_MIDDLE` 1 or 0, one group each; a second
///   press of a held button, or a release of one not held, sends nothing;
/// - wheel: `REL_WHEEL_HI_RES` / `REL_HWHEEL_HI_RES` in 1/120 detents, fractions carried, and
///   `REL_WHEEL` / `REL_HWHEEL` whenever a whole detent has accumulated, in one group.
///   `REL_WHEEL` positive scrolls up, so a wheel `dy > 0` (down) is negative; `REL_HWHEEL`
///   positive is right, as `dx`. `wheelStop` sends nothing and keeps the remainders;
/// - keys: the evdev code (`EvdevKeys`); a character the key `layout` has it on, Shift and AltGr
///   each pressed in a group of their own before it as its level needs, and released after
///   it; text: each character pressed and released so. Characters the layout cannot type
///   are skipped (and counted): upstream refuses them.
struct InputEventEncoder {
    private var scroll = ScrollState()
    /// Buttons down, in press order.
    private var heldButtons = HeldButtons<EvdevCode>()
    /// Keys down by key actions, in press order, with the stroke each was pressed with.
    private var heldKeys = HeldKeys<EvdevKeys.Stroke>()
    /// How many holders each key code has (Shift is shared by held keys and characters).
    private var holders = KeyHolders(codes: Int(KEY_MAX) + 1)
    /// Characters skipped because the layout cannot type them.
    private(set) var skippedCharacters = 0
    /// The layout the desktop reads the key codes through.
    let layout: EvdevLayout

    init(layout: EvdevLayout = .us) {
        self.layout = layout
    }

    mutating func encode(_ action: HostAction, into events: inout [InputEvent]) {
        switch action {
        case .motion(let dx, let dy):
            guard dx != 0 || dy != 0 else { return }
            if dx != 0 { events.append(.relative(REL_X, dx)) }
            if dy != 0 { events.append(.relative(REL_Y, dy)) }
            events.append(.report)
        case .button(let button, let state):
            let code = EvdevKeys.button(button)
            guard heldButtons.change(code, pressed: state == .down) else { return }
            events.append(.key(code, down: state == .down))
            events.append(.report)
        case .wheel(let dx, let dy):
            encodeWheel(dx: dx, dy: dy, into: &events)
        case .wheelStop, .contact, .touchSurface, .spotlight:
            return  // touches pass through only to a native touchpad (`TouchpadExecutor`)
        case .key(let key, .down):
            guard !heldKeys.isHeld(key) else { return }
            guard let stroke = EvdevKeys.stroke(for: key, on: layout) else {
                skippedCharacters += 1
                return
            }
            holdModifiers(of: stroke, into: &events)
            hold(stroke.code, into: &events)
            heldKeys.hold(key, stroke)
        case .key(let key, .up):
            guard let stroke = heldKeys.release(key) else { return }
            release(stroke, into: &events)
        case .text(let text):
            for scalar in text.unicodeScalars {
                guard let stroke = EvdevKeys.textStroke(scalar, on: layout) else {
                    skippedCharacters += 1
                    continue
                }
                holdModifiers(of: stroke, into: &events)
                events.append(.key(stroke.code, down: true))
                events.append(.report)
                events.append(.key(stroke.code, down: false))
                events.append(.report)
                unholdModifiers(of: stroke, into: &events)
            }
        }
    }

    /// Releases every held button, then every held key, each last pressed first (`HeldButtons`:
    /// the order of every backend).
    mutating func releaseAll(into events: inout [InputEvent]) {
        while let button = heldButtons.popLast() {
            events.append(.key(button, down: false))
            events.append(.report)
        }
        while let last = heldKeys.popLast() { release(last.payload, into: &events) }
        for code in holders.releaseAll() {
            events.append(.key(EvdevCode(code), down: false))
            events.append(.report)
        }
    }

    private mutating func encodeWheel(dx: Double, dy: Double, into events: inout [InputEvent]) {
        let (right, down) = scroll.add(dx: dx, dy: dy)
        let start = events.count
        if down.highResolution != 0 { events.append(.relative(REL_WHEEL_HI_RES, -down.highResolution)) }
        if down.detents != 0 { events.append(.relative(REL_WHEEL, -down.detents)) }
        if right.highResolution != 0 { events.append(.relative(REL_HWHEEL_HI_RES, right.highResolution)) }
        if right.detents != 0 { events.append(.relative(REL_HWHEEL, right.detents)) }
        if events.count > start { events.append(.report) }
    }

    private mutating func release(_ stroke: EvdevKeys.Stroke, into events: inout [InputEvent]) {
        unhold(stroke.code, into: &events)
        unholdModifiers(of: stroke, into: &events)
    }

    private mutating func holdModifiers(of stroke: EvdevKeys.Stroke, into events: inout [InputEvent]) {
        if stroke.shifted { hold(EvdevKeys.leftShift, into: &events) }
        if stroke.levelThree, let key = layout.levelThreeKey { hold(key, into: &events) }
    }

    private mutating func unholdModifiers(of stroke: EvdevKeys.Stroke, into events: inout [InputEvent]) {
        if stroke.levelThree, let key = layout.levelThreeKey { unhold(key, into: &events) }
        if stroke.shifted { unhold(EvdevKeys.leftShift, into: &events) }
    }

    private mutating func hold(_ code: EvdevCode, into events: inout [InputEvent]) {
        guard holders.take(Int(code)) else { return }
        events.append(.key(code, down: true))
        events.append(.report)
    }

    private mutating func unhold(_ code: EvdevCode, into events: inout [InputEvent]) {
        guard holders.letGo(Int(code)) else { return }
        events.append(.key(code, down: false))
        events.append(.report)
    }
}
