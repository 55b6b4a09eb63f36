import CUInput
import GestureControl

/// Which key, with which modifiers, types each character on the keyboard layout the desktop
/// reads the uinput keyboard's key codes through. Pure.
///
/// A uinput keyboard sends key codes, not characters: the desktop turns them into characters
/// through its own layout, so on a German layout the US `Y` key types "z". Given the layout
/// (`control.keyboardLayout`, compiled by xkbcommon from the system's XKB data), each
/// character is typed with the key the layout has it on, Shift and AltGr (XKB's third level)
/// held as that level needs; without one, the US layout is assumed (printable ASCII).
struct EvdevLayout: Sendable, Hashable {
    /// The names of the layouts it types with, as XKB gives them (["German"]; several when
    /// it holds only what every layout of a keymap types alike: `init(agreedBy:)`).
    var names: [String]
    /// Unicode scalar value → the stroke that types it.
    var strokes: [UInt32: EvdevKeys.Stroke]
    /// The key that selects the third level (the layout's ISO_Level3_Shift: AltGr), if any.
    var levelThreeKey: EvdevCode?
    /// Unicode scalar value → the keysym the layout types it with (what the protocol layer
    /// checks a `text` against: `DesktopLayout.Table`).
    var keysyms: [UInt32: UInt32]

    /// The US layout, built in: printable ASCII.
    static let us = EvdevLayout(
        names: ["English (US)"], strokes: EvdevKeys.usLayoutStrokes, levelThreeKey: nil,
        keysyms: [:])

    /// The layouts' names, for the terminal ("German", "English (US), Russian").
    var name: String { names.joined(separator: ", ") }

    /// The stroke typing `scalar`, if the layout has the character.
    func stroke(_ scalar: Unicode.Scalar) -> EvdevKeys.Stroke? { strokes[scalar.value] }

    /// Every key a stroke of this layout may press: what the device must declare.
    var codes: [EvdevCode] {
        Set(strokes.values.map(\.code)).union(levelThreeKey.map { [$0] } ?? []).sorted()
    }

    /// What the protocol layer may accept for this layout (nil: the built-in US layout, which
    /// the capabilities say as `usLayoutASCII`).
    var table: DesktopLayout.Table? {
        self == .us ? nil : DesktopLayout.Table(keysyms: keysyms, names: names)
    }
}

extension EvdevLayout {
    /// The strokes of an XKB layout: for each printable character a key of the typewriter
    /// block when one types it (not the keypad's, nor the evdev keymap's extra keys such as
    /// KEY_EURO), then the fewest modifiers, then the first in key-code order; reachable with
    /// Shift and AltGr alone; evdev code = XKB key code − 8, at most 247 (X11 key codes end at
    /// 255). AltGr is the key with ISO_Level3_Shift at its first level, the right Alt key when
    /// it has it.
    init(_ layout: KeymapLayout) { self.init(layout, keeping: { _, _ in true }) }

    /// The strokes of an XKB layout as `init(_:)` chooses them, among the keys `keep` accepts
    /// (with the stroke each would be, its evdev code and modifiers: `init(agreedBy:)`).
    init(_ layout: KeymapLayout, keeping keep: (KeymapLayout.Key, EvdevKeys.Stroke) -> Bool) {
        func evdev(_ keycode: UInt32) -> EvdevCode? {
            keycode >= 9 && keycode <= 255 ? EvdevCode(keycode - 8) : nil
        }
        func rank(_ stroke: EvdevKeys.Stroke) -> Int {
            (Self.typewriterKeys.contains(Int32(stroke.code)) ? 0 : 10) + stroke.modifierCount
        }
        let levelThree = layout.keys.filter { $0.keysym == KeymapLayout.levelThreeShiftKeysym && $0.level == 0 }
            .compactMap { evdev($0.keycode) }
        let levelThreeKey = levelThree.contains(EvdevCode(KEY_RIGHTALT)) ? EvdevCode(KEY_RIGHTALT) : levelThree.first
        var strokes: [UInt32: EvdevKeys.Stroke] = [:]
        var keysyms: [UInt32: UInt32] = [:]
        for key in layout.keys where KeymapLayout.isPrintable(key.scalar) {
            guard let modifiers = key.modifiers, let code = evdev(key.keycode) else { continue }
            if modifiers.contains(.levelThree) && levelThreeKey == nil { continue }
            let stroke = EvdevKeys.Stroke(
                code: code, shifted: modifiers.contains(.shift), levelThree: modifiers.contains(.levelThree))
            if let kept = strokes[key.scalar], rank(kept) <= rank(stroke) { continue }
            guard keep(key, stroke) else { continue }
            strokes[key.scalar] = stroke
            keysyms[key.scalar] = key.keysym
        }
        self.init(names: [layout.name], strokes: strokes, levelThreeKey: levelThreeKey, keysyms: keysyms)
    }

    /// The typewriter block: the digit row, the three letter rows, space and the 102nd key.
    private static let typewriterKeys: Set<Int32> = Set(
        Array(KEY_1...KEY_EQUAL) + Array(KEY_Q...KEY_RIGHTBRACE) + Array(KEY_A...KEY_GRAVE)
            + Array(KEY_BACKSLASH...KEY_SLASH) + [KEY_SPACE, KEY_102ND])
}
