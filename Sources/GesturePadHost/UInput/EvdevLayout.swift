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
    /// The layout's name, as XKB gives it ("German").
    var name: String
    /// Unicode scalar value → the stroke that types it.
    var strokes: [UInt32: EvdevKeys.Stroke]
    /// The key that selects the third level (the layout's ISO_Level3_Shift: AltGr), if any.
    var levelThreeKey: EvdevCode?
    /// Unicode scalar value → the keysym the layout types it with (what the protocol layer
    /// checks a `text` against: `DesktopLayout.Table`).
    var keysyms: [UInt32: UInt32]

    /// The US layout, built in: printable ASCII.
    static let us = EvdevLayout(
        name: "English (US)", strokes: EvdevKeys.usLayoutStrokes, levelThreeKey: nil,
        keysyms: [:])

    static let levelThreeShiftKeysym: UInt32 = 0xFE03

    /// The stroke typing `scalar`, if the layout has the character.
    func stroke(_ scalar: Unicode.Scalar) -> EvdevKeys.Stroke? { strokes[scalar.value] }

    /// Every key a stroke of this layout may press: what the device must declare.
    var codes: [EvdevCode] {
        Set(strokes.values.map(\.code)).union(levelThreeKey.map { [$0] } ?? []).sorted()
    }

    /// What the protocol layer may accept for this layout (nil: the built-in US layout, which
    /// the capabilities say as `usLayoutASCII`).
    var table: DesktopLayout.Table? {
        self == .us ? nil : DesktopLayout.Table(keysyms: keysyms, names: [name])
    }
}

extension EvdevLayout {
    /// The strokes of an XKB layout: for each printable character a key of the typewriter
    /// block when one types it (not the keypad's, nor the evdev keymap's extra keys such as
    /// KEY_EURO), then the fewest modifiers, then the first in key-code order; reachable with
    /// Shift and AltGr alone; evdev code = XKB key code − 8, at most 247 (X11 key codes end at
    /// 255). AltGr is the key with ISO_Level3_Shift at its first level, the right Alt key when
    /// it has it.
    init(_ layout: KeymapLayout) {
        func evdev(_ keycode: UInt32) -> EvdevCode? {
            keycode >= 9 && keycode <= 255 ? EvdevCode(keycode - 8) : nil
        }
        func rank(_ stroke: EvdevKeys.Stroke) -> Int {
            (Self.typewriterKeys.contains(Int32(stroke.code)) ? 0 : 10) + stroke.modifierCount
        }
        let levelThree = layout.keys.filter { $0.keysym == Self.levelThreeShiftKeysym && $0.level == 0 }
            .compactMap { evdev($0.keycode) }
        let levelThreeKey = levelThree.contains(EvdevCode(KEY_RIGHTALT)) ? EvdevCode(KEY_RIGHTALT) : levelThree.first
        var strokes: [UInt32: EvdevKeys.Stroke] = [:]
        var keysyms: [UInt32: UInt32] = [:]
        for key in layout.keys where Self.isPrintable(key.scalar) {
            guard let modifiers = key.modifiers, let code = evdev(key.keycode) else { continue }
            if modifiers.contains(.levelThree) && levelThreeKey == nil { continue }
            let stroke = EvdevKeys.Stroke(
                code: code, shifted: modifiers.contains(.shift), levelThree: modifiers.contains(.levelThree))
            if let kept = strokes[key.scalar], rank(kept) <= rank(stroke) { continue }
            strokes[key.scalar] = stroke
            keysyms[key.scalar] = key.keysym
        }
        self.init(name: layout.name, strokes: strokes, levelThreeKey: levelThreeKey, keysyms: keysyms)
    }

    /// The typewriter block: the digit row, the three letter rows, space and the 102nd key.
    private static let typewriterKeys: Set<Int32> = Set(
        Array(KEY_1...KEY_EQUAL) + Array(KEY_Q...KEY_RIGHTBRACE) + Array(KEY_A...KEY_GRAVE)
            + Array(KEY_BACKSLASH...KEY_SLASH) + [KEY_SPACE, KEY_102ND])

    private static func isPrintable(_ scalar: UInt32) -> Bool {
        scalar >= 0x20 && !(0x7F...0x9F).contains(scalar)
    }
}
