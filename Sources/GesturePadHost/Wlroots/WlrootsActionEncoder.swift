import CUInput
import GestureControl

/// Turns `HostAction`s into virtual pointer and virtual keyboard requests for a wlroots
/// compositor. Pure: it appends to the array it is given and keeps what outlives one action
/// (what is held, the modifiers sent, the scroll in progress, the keymap's spare keys).
///
/// - motion: `motion` + `frame` (zero motion is not sent);
/// - buttons: evdev codes (BTN_LEFT 272 …); a second press of a held button, or a release of
///   one not held, sends nothing;
/// - wheel: smooth `axis` with source finger (each axis request followed by its source:
///   wlroots 0.15 gives `axis_source` to the axis last named, and a frame whose axes have
///   different sources fails an assertion that ends sway), `smoothUnitsPerDetent` per detent (what GTK and
///   Qt take as one wheel click from a touchpad); `wheelStop` sends `axis_stop` on both axes
///   (clients end their scroll there). While a modifier key is held (pinch zoom holds
///   Control) whole detents go as `axis_discrete` wheel clicks instead: applications zoom a
///   step per click;
/// - keys: the evdev code of `EvdevKeys` (named keys) or the layout's key for a character;
///   a character the layout lacks goes on a spare key of the uploaded keymap
///   (`VirtualKeymap`). The compositor derives no modifiers from keys (a Shift_L press then
///   `h` types "h"): the mask of what is held is sent with `modifiers` at every change;
/// - text: the layout's key with the Shift / AltGr its level needs, sent as modifiers around
///   it; every character the layout lacks is bound to a spare key first, in one keymap upload
///   per text — any Unicode, nothing refused. Newline is Return, tab is Tab.
struct WlrootsActionEncoder: Sendable {
    /// Smooth axis units per wheel detent: libinput's touchpad scroll unit, which GTK and Qt
    /// divide by 10 into wheel clicks.
    static let smoothUnitsPerDetent = 10.0
    /// The length of one wheel click (`axis_discrete`'s value): libinput's 15° per detent.
    static let discreteValuePerStep = 15.0

    /// The real-modifier bits of an XKB keymap (fixed: Shift, Lock, Control, Mod1 … Mod5).
    enum Modifier {
        static let shift: UInt32 = 1 << 0
        static let control: UInt32 = 1 << 2
        static let alt: UInt32 = 1 << 3
        static let meta: UInt32 = 1 << 6
        static let levelThree: UInt32 = 1 << 7
    }

    /// The characters of the user's layout and how to type them.
    let layout: EvdevLayout
    /// The keymap uploaded (its spare keys).
    private(set) var keymap: VirtualKeymap
    /// Buttons down, in press order.
    private var heldButtons = HeldButtons<UInt32>()
    /// Keys down by key actions, in press order, with their code and the modifiers their stroke needs.
    private var heldKeys = HeldKeys<(code: UInt32, strokeModifiers: UInt32)>()
    /// The modifier mask last sent.
    private var sentModifiers: UInt32 = 0
    private var scroll = ScrollState()

    init(layout: EvdevLayout, keymap: VirtualKeymap) {
        self.layout = layout
        self.keymap = keymap
    }

    /// What a new pair of devices sends first: the keymap (the protocol wants one before any
    /// key), no modifiers, a motion by nothing (sway then points the new pointer at the window
    /// under it: a release sent before that reaches no window), and one release of every
    /// button — a predecessor that died with a button down left the compositor's grab on, and
    /// one unmatched release ends it.
    mutating func start(into requests: inout [VirtualInputRequest]) {
        requests.append(.keymap(keymap.text))
        requests.append(.modifiers(depressed: 0))
        sentModifiers = 0
        requests += [.motion(dx: 0, dy: 0), .frame]
        for button in HostButton.allCases {
            requests.append(.button(code: UInt32(EvdevKeys.button(button)), pressed: false))
        }
        requests.append(.frame)
        heldButtons.removeAll()
        heldKeys.removeAll()
        _ = scroll.stop()
    }

    mutating func encode(_ action: HostAction, into requests: inout [VirtualInputRequest]) {
        switch action {
        case .motion(let dx, let dy):
            guard dx != 0 || dy != 0 else { return }
            requests.append(.motion(dx: Double(dx), dy: Double(dy)))
            requests.append(.frame)
        case .button(let button, let state):
            let code = UInt32(EvdevKeys.button(button))
            guard heldButtons.change(code, pressed: state == .down) else { return }
            requests.append(.button(code: code, pressed: state == .down))
            requests.append(.frame)
        case .wheel(let dx, let dy):
            if heldModifiers != 0 {
                encodeDiscrete(dx: dx, dy: dy, into: &requests)
            } else {
                encodeSmooth(dx: dx, dy: dy, into: &requests)
            }
        case .wheelStop:
            stopScroll(into: &requests)
        case .contact, .touchSurface, .spotlight:
            return  // touches pass through only to a native touchpad
        case .key(let key, .down):
            press(key, into: &requests)
        case .key(let key, .up):
            guard let released = heldKeys.release(key) else { return }
            requests.append(.key(code: released.code, pressed: false))
            sendModifiers(heldModifiers, into: &requests)
        case .text(let text):
            type(text, into: &requests)
        }
    }

    /// Stops a scroll in progress, releases every held button, then every held key, each last
    /// pressed first (`HeldButtons`: the order of every backend); no modifiers.
    mutating func releaseAll(into requests: inout [VirtualInputRequest]) {
        stopScroll(into: &requests)
        if !heldButtons.isEmpty {
            while let button = heldButtons.popLast() { requests.append(.button(code: button, pressed: false)) }
            requests.append(.frame)
        }
        while let last = heldKeys.popLast() { requests.append(.key(code: last.payload.code, pressed: false)) }
        sendModifiers(0, into: &requests)
    }

    /// The mask of the modifier keys held by key actions, with what the held strokes need.
    private var heldModifiers: UInt32 {
        heldKeys.entries.reduce(0) { mask, entry in
            guard case .named(let named) = entry.key else { return mask | entry.payload.strokeModifiers }
            return mask | Self.modifierBit(named)
        }
    }

    private static func modifierBit(_ key: NamedKey) -> UInt32 {
        switch key {
        case .shift: Modifier.shift
        case .control: Modifier.control
        case .alt: Modifier.alt
        case .meta: Modifier.meta
        case .altGraph: Modifier.levelThree
        default: 0
        }
    }

    private mutating func press(_ key: HostKey, into requests: inout [VirtualInputRequest]) {
        guard !heldKeys.isHeld(key) else { return }
        let code: UInt32
        var strokeModifiers: UInt32 = 0
        switch key {
        case .named(let named):
            code = UInt32(EvdevKeys.code(for: named))
        case .character(let scalar):
            if let stroke = layout.stroke(scalar) {
                code = UInt32(stroke.code)
                strokeModifiers = Self.modifiers(of: stroke)
            } else {
                let spare = heldSpareCharacters + [scalar]
                bindSpareKeys(keymap.extras.contains(scalar) ? keymap.extras : keymap.extras + spare, into: &requests)
                guard let spareCode = keymap.evdevCode(of: scalar) else { return }
                code = spareCode
            }
        }
        heldKeys.hold(key, (code, strokeModifiers))
        sendModifiers(heldModifiers, into: &requests)
        requests.append(.key(code: code, pressed: true))
    }

    private mutating func type(_ text: String, into requests: inout [VirtualInputRequest]) {
        let missing = text.unicodeScalars.filter { HostKey.isPrintable($0) && layout.stroke($0) == nil }
        if !missing.isEmpty, !missing.allSatisfy(keymap.extras.contains) {
            bindSpareKeys(heldSpareCharacters + missing, into: &requests)
        }
        for scalar in text.unicodeScalars {
            let code: UInt32
            var modifiers: UInt32 = 0
            if let stroke = EvdevKeys.textStroke(scalar, on: layout) {
                code = UInt32(stroke.code)
                modifiers = Self.modifiers(of: stroke)
            } else if HostKey.isPrintable(scalar), let spare = keymap.evdevCode(of: scalar) {
                code = spare
            } else {
                continue
            }
            sendModifiers(modifiers, into: &requests)
            requests.append(.key(code: code, pressed: true))
            requests.append(.key(code: code, pressed: false))
        }
        sendModifiers(heldModifiers, into: &requests)
    }

    /// The characters of held keys that sit on spare keys (kept bound by a new upload).
    private var heldSpareCharacters: [Unicode.Scalar] {
        heldKeys.entries.compactMap { entry in
            guard case .character(let scalar) = entry.key, layout.stroke(scalar) == nil else { return nil }
            return scalar
        }
    }

    /// Uploads a keymap with `scalars` on the spare keys, if they are not there already. A new
    /// keymap starts with no modifiers: the held ones are sent again.
    private mutating func bindSpareKeys(_ scalars: [Unicode.Scalar], into requests: inout [VirtualInputRequest]) {
        guard keymap.bind(scalars) else { return }
        requests.append(.keymap(keymap.text))
        sentModifiers = 0
        sendModifiers(heldModifiers, into: &requests)
    }

    private static func modifiers(of stroke: EvdevKeys.Stroke) -> UInt32 {
        (stroke.shifted ? Modifier.shift : 0) | (stroke.levelThree ? Modifier.levelThree : 0)
    }

    private mutating func sendModifiers(_ mask: UInt32, into requests: inout [VirtualInputRequest]) {
        guard mask != sentModifiers else { return }
        sentModifiers = mask
        requests.append(.modifiers(depressed: mask))
    }

    private mutating func encodeSmooth(dx: Double, dy: Double, into requests: inout [VirtualInputRequest]) {
        let x = ScrollState.smoothUnits(dx, unitsPerDetent: Self.smoothUnitsPerDetent)
        let y = ScrollState.smoothUnits(dy, unitsPerDetent: Self.smoothUnitsPerDetent)
        guard x != 0 || y != 0 else { return }
        scroll.sentSmooth()
        if y != 0 { requests += [.axis(.vertical, value: y), .axisSource(.finger)] }
        if x != 0 { requests += [.axis(.horizontal, value: x), .axisSource(.finger)] }
        requests.append(.frame)
    }

    private mutating func encodeDiscrete(dx: Double, dy: Double, into requests: inout [VirtualInputRequest]) {
        let steps = scroll.add(dx: dx, dy: dy)
        let down = steps.down.detents
        let right = steps.right.detents
        guard down != 0 || right != 0 else { return }
        for (axis, steps) in [(VirtualInputRequest.Axis.vertical, down), (.horizontal, right)] where steps != 0 {
            let clamped = Int32(clamping: steps)
            requests.append(.axisDiscrete(axis, value: Double(clamped) * Self.discreteValuePerStep, steps: clamped))
            requests.append(.axisSource(.wheel))
        }
        requests.append(.frame)
    }

    private mutating func stopScroll(into requests: inout [VirtualInputRequest]) {
        guard scroll.stop() else { return }
        requests += [.axisStop(.vertical), .axisSource(.finger), .axisStop(.horizontal), .axisSource(.finger), .frame]
    }
}
