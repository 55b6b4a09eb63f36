import CUInput
import GestureControl

/// An evdev event code (linux/input-event-codes.h): a key, a button or an axis.
typealias EvdevCode = UInt16

/// Keys, buttons and characters as evdev codes. The desktop turns codes into characters
/// through its own layout: characters are typed through `EvdevLayout` (the desktop's layout,
/// else US; the protocol layer refuses what the layout lacks upstream).
enum EvdevKeys {
    /// A key to press, with Shift and AltGr (the third level) held or not.
    struct Stroke: Sendable, Hashable {
        var code: EvdevCode
        var shifted: Bool
        var levelThree = false

        var modifierCount: Int { (shifted ? 1 : 0) + (levelThree ? 1 : 0) }
    }

    static let leftShift = EvdevCode(KEY_LEFTSHIFT)

    /// The stroke of a key action's key on `layout`; nil for a character it cannot type.
    static func stroke(for key: HostKey, on layout: EvdevLayout = .us) -> Stroke? {
        switch key {
        case .named(let named): Stroke(code: code(for: named), shifted: false)
        case .character(let scalar): layout.stroke(scalar)
        }
    }

    /// What `text` types for a scalar: newline is Enter, tab is Tab, a character the key the
    /// layout has it on; anything else nothing.
    static func textStroke(_ scalar: Unicode.Scalar, on layout: EvdevLayout = .us) -> Stroke? {
        switch scalar {
        case "\n": Stroke(code: EvdevCode(KEY_ENTER), shifted: false)
        case "\t": Stroke(code: EvdevCode(KEY_TAB), shifted: false)
        default: layout.stroke(scalar)
        }
    }

    /// The US-layout key of a printable ASCII character (space to tilde).
    static func usLayout(_ scalar: Unicode.Scalar) -> Stroke? {
        let v = Int(scalar.value)
        return v < usLayoutTable.count ? usLayoutTable[v] : nil
    }

    static func button(_ button: HostButton) -> EvdevCode {
        switch button {
        case .left: EvdevCode(BTN_LEFT)
        case .right: EvdevCode(BTN_RIGHT)
        case .middle: EvdevCode(BTN_MIDDLE)
        }
    }

    /// Every key and button code the encoder may send: what the device must declare.
    static var allCodes: [EvdevCode] { allCodes(for: .us) }

    /// Every key and button code the encoder may send with `layout`.
    static func allCodes(for layout: EvdevLayout) -> [EvdevCode] {
        let keys = NamedKey.allCases.map(code(for:)) + usLayoutTable.compactMap { $0?.code } + layout.codes
        let buttons = HostButton.allCases.map(button)
        return Array(Set(keys + buttons + [leftShift])).sorted()
    }

    /// The US layout's strokes by scalar value (`EvdevLayout.us`).
    static var usLayoutStrokes: [UInt32: Stroke] {
        var strokes: [UInt32: Stroke] = [:]
        for (value, stroke) in usLayoutTable.enumerated() {
            if let stroke { strokes[UInt32(value)] = stroke }
        }
        return strokes
    }

    /// The evdev code of every named key (ContextMenu is the PC "menu" key, KEY_COMPOSE;
    /// PrintScreen is KEY_SYSRQ; AltGraph the right Alt key).
    static func code(for key: NamedKey) -> EvdevCode {
        EvdevCode(rawCode(key))
    }

    private static func rawCode(_ key: NamedKey) -> Int32 {
        switch key {
        case .shift: KEY_LEFTSHIFT
        case .control: KEY_LEFTCTRL
        case .alt: KEY_LEFTALT
        case .meta: KEY_LEFTMETA
        case .altGraph: KEY_RIGHTALT
        case .capsLock: KEY_CAPSLOCK
        case .enter: KEY_ENTER
        case .tab: KEY_TAB
        case .backspace: KEY_BACKSPACE
        case .delete: KEY_DELETE
        case .insert: KEY_INSERT
        case .escape: KEY_ESC
        case .arrowLeft: KEY_LEFT
        case .arrowRight: KEY_RIGHT
        case .arrowUp: KEY_UP
        case .arrowDown: KEY_DOWN
        case .home: KEY_HOME
        case .end: KEY_END
        case .pageUp: KEY_PAGEUP
        case .pageDown: KEY_PAGEDOWN
        case .contextMenu: KEY_COMPOSE
        case .printScreen: KEY_SYSRQ
        case .pause: KEY_PAUSE
        case .scrollLock: KEY_SCROLLLOCK
        case .numLock: KEY_NUMLOCK
        case .f1: KEY_F1
        case .f2: KEY_F2
        case .f3: KEY_F3
        case .f4: KEY_F4
        case .f5: KEY_F5
        case .f6: KEY_F6
        case .f7: KEY_F7
        case .f8: KEY_F8
        case .f9: KEY_F9
        case .f10: KEY_F10
        case .f11: KEY_F11
        case .f12: KEY_F12
        case .audioVolumeUp: KEY_VOLUMEUP
        case .audioVolumeDown: KEY_VOLUMEDOWN
        case .audioVolumeMute: KEY_MUTE
        case .mediaPlayPause: KEY_PLAYPAUSE
        case .mediaStop: KEY_STOPCD
        case .mediaTrackNext: KEY_NEXTSONG
        case .mediaTrackPrevious: KEY_PREVIOUSSONG
        case .browserBack: KEY_BACK
        case .browserForward: KEY_FORWARD
        case .browserRefresh: KEY_REFRESH
        }
    }

    /// Index: an ASCII code; the US-layout stroke typing it, nil for control characters.
    private static let usLayoutTable: [Stroke?] = {
        var table = [Stroke?](repeating: nil, count: 128)
        func put(_ character: Unicode.Scalar, _ code: Int32, shifted: Bool = false) {
            table[Int(character.value)] = Stroke(code: EvdevCode(code), shifted: shifted)
        }
        let letters: [Int32] = [
            KEY_A, KEY_B, KEY_C, KEY_D, KEY_E, KEY_F, KEY_G, KEY_H, KEY_I, KEY_J, KEY_K, KEY_L, KEY_M,
            KEY_N, KEY_O, KEY_P, KEY_Q, KEY_R, KEY_S, KEY_T, KEY_U, KEY_V, KEY_W, KEY_X, KEY_Y, KEY_Z,
        ]
        for (offset, code) in letters.enumerated() {
            table[0x61 + offset] = Stroke(code: EvdevCode(code), shifted: false)
            table[0x41 + offset] = Stroke(code: EvdevCode(code), shifted: true)
        }
        // Digits and, shifted, the symbols above them: 0 1 2 … 9 / ) ! @ … (.
        let digits: [Int32] = [KEY_0, KEY_1, KEY_2, KEY_3, KEY_4, KEY_5, KEY_6, KEY_7, KEY_8, KEY_9]
        for (digit, (code, symbol)) in zip(digits, Array(")!@#$%^&*(".unicodeScalars)).enumerated() {
            table[0x30 + digit] = Stroke(code: EvdevCode(code), shifted: false)
            table[Int(symbol.value)] = Stroke(code: EvdevCode(code), shifted: true)
        }
        let pairs: [(Unicode.Scalar, Unicode.Scalar, Int32)] = [
            ("-", "_", KEY_MINUS), ("=", "+", KEY_EQUAL), ("[", "{", KEY_LEFTBRACE), ("]", "}", KEY_RIGHTBRACE),
            ("\\", "|", KEY_BACKSLASH), (";", ":", KEY_SEMICOLON), ("'", "\"", KEY_APOSTROPHE),
            (",", "<", KEY_COMMA), (".", ">", KEY_DOT), ("/", "?", KEY_SLASH), ("`", "~", KEY_GRAVE),
        ]
        for (plain, shifted, code) in pairs {
            put(plain, code)
            put(shifted, code, shifted: true)
        }
        put(" ", KEY_SPACE)
        return table
    }()
}
