/// The named keys GesturePad can press, spelled as W3C `KeyboardEvent.key` values (UI Events
/// KeyboardEvent key Values). The raw value is the name on the wire (`key` messages,
/// configuration key combinations).
public enum NamedKey: String, Sendable, Hashable, CaseIterable {
    // Modifiers
    case shift = "Shift"
    case control = "Control"
    case alt = "Alt"
    case meta = "Meta"
    case altGraph = "AltGraph"
    case capsLock = "CapsLock"
    // Whitespace and editing
    case enter = "Enter"
    case tab = "Tab"
    case backspace = "Backspace"
    case delete = "Delete"
    case insert = "Insert"
    case escape = "Escape"
    // Navigation
    case arrowLeft = "ArrowLeft"
    case arrowRight = "ArrowRight"
    case arrowUp = "ArrowUp"
    case arrowDown = "ArrowDown"
    case home = "Home"
    case end = "End"
    case pageUp = "PageUp"
    case pageDown = "PageDown"
    // UI
    case contextMenu = "ContextMenu"
    case printScreen = "PrintScreen"
    case pause = "Pause"
    case scrollLock = "ScrollLock"
    case numLock = "NumLock"
    // Function keys
    case f1 = "F1", f2 = "F2", f3 = "F3", f4 = "F4", f5 = "F5", f6 = "F6"
    case f7 = "F7", f8 = "F8", f9 = "F9", f10 = "F10", f11 = "F11", f12 = "F12"
    // Media and volume
    case audioVolumeUp = "AudioVolumeUp"
    case audioVolumeDown = "AudioVolumeDown"
    case audioVolumeMute = "AudioVolumeMute"
    case mediaPlayPause = "MediaPlayPause"
    case mediaStop = "MediaStop"
    case mediaTrackNext = "MediaTrackNext"
    case mediaTrackPrevious = "MediaTrackPrevious"
    // Browser
    case browserBack = "BrowserBack"
    case browserForward = "BrowserForward"
    case browserRefresh = "BrowserRefresh"

    /// The four modifiers a `key` message may hold (CONTROL.md `modifiers`).
    public static let modifiers: [NamedKey] = [.shift, .control, .alt, .meta]

    /// True for `Shift`, `Control`, `Alt`, `Meta`, `AltGraph`.
    public var isModifier: Bool {
        switch self {
        case .shift, .control, .alt, .meta, .altGraph: true
        default: false
        }
    }
}
