import CXTest
import GestureControl

/// An X11 keysym (`KeySym`: `unsigned long`). 0 is `NoSymbol`.
typealias Keysym = UInt

/// Keys and characters as X11 keysyms (X11/keysym.h, X11/XF86keysym.h). The one table of
/// keysyms: the `portal` backend types characters with them too (`NotifyKeyboardKeysym`
/// takes X11 keysyms, which xkbcommon also speaks on Wayland).
enum X11Keysyms {
    /// `NoSymbol`.
    static let none: Keysym = 0
    static let shift = Keysym(XK_Shift_L)
    static let returnKey = Keysym(XK_Return)
    static let tab = Keysym(XK_Tab)

    /// The keysym of `key`: the named-key table, or `character(_:)`.
    static func keysym(for key: HostKey) -> Keysym {
        switch key {
        case .named(let named): keysym(for: named)
        case .character(let scalar): character(scalar)
        }
    }

    /// The keysym a character types: Latin-1 code points are their own keysyms; everything else
    /// uses the Unicode keysym convention, 0x01000000 + the code point.
    static func character(_ scalar: Unicode.Scalar) -> Keysym {
        let v = scalar.value
        if (0x20...0x7E).contains(v) || (0xA0...0xFF).contains(v) { return Keysym(v) }
        return 0x0100_0000 + Keysym(v)
    }

    /// What `text` types for a scalar: newline is Return, tab is Tab, other control
    /// characters (including a carriage return, so CR LF is one Return) type nothing.
    static func textKeysym(_ scalar: Unicode.Scalar) -> Keysym? {
        switch scalar {
        case "\n": returnKey
        case "\t": tab
        default: HostKey.isPrintable(scalar) ? character(scalar) : nil
        }
    }

    /// The keysym of every named key (Meta is Super_L, AltGraph ISO_Level3_Shift, as XKB maps
    /// the Windows and AltGr keys).
    static func keysym(for key: NamedKey) -> Keysym {
        Keysym(code(key))
    }

    private static func code(_ key: NamedKey) -> Int32 {
        switch key {
        case .shift: XK_Shift_L
        case .control: XK_Control_L
        case .alt: XK_Alt_L
        case .meta: XK_Super_L
        case .altGraph: XK_ISO_Level3_Shift
        case .capsLock: XK_Caps_Lock
        case .enter: XK_Return
        case .tab: XK_Tab
        case .backspace: XK_BackSpace
        case .delete: XK_Delete
        case .insert: XK_Insert
        case .escape: XK_Escape
        case .arrowLeft: XK_Left
        case .arrowRight: XK_Right
        case .arrowUp: XK_Up
        case .arrowDown: XK_Down
        case .home: XK_Home
        case .end: XK_End
        case .pageUp: XK_Page_Up
        case .pageDown: XK_Page_Down
        case .contextMenu: XK_Menu
        case .printScreen: XK_Print
        case .pause: XK_Pause
        case .scrollLock: XK_Scroll_Lock
        case .numLock: XK_Num_Lock
        case .f1: XK_F1
        case .f2: XK_F2
        case .f3: XK_F3
        case .f4: XK_F4
        case .f5: XK_F5
        case .f6: XK_F6
        case .f7: XK_F7
        case .f8: XK_F8
        case .f9: XK_F9
        case .f10: XK_F10
        case .f11: XK_F11
        case .f12: XK_F12
        case .audioVolumeUp: XF86XK_AudioRaiseVolume
        case .audioVolumeDown: XF86XK_AudioLowerVolume
        case .audioVolumeMute: XF86XK_AudioMute
        case .mediaPlayPause: XF86XK_AudioPlay
        case .mediaStop: XF86XK_AudioStop
        case .mediaTrackNext: XF86XK_AudioNext
        case .mediaTrackPrevious: XF86XK_AudioPrev
        case .browserBack: XF86XK_Back
        case .browserForward: XF86XK_Forward
        case .browserRefresh: XF86XK_Reload
        }
    }
}
