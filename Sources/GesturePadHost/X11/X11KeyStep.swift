/// One step of pressing keys on X11, as `X11Keyboard` plans it and `X11Executor` carries it
/// out, in order, on the display.
enum X11KeyStep: Sendable, Hashable {
    /// `XTestFakeKeyEvent` down.
    case press(Keycode)
    /// `XTestFakeKeyEvent` up.
    case release(Keycode)
    /// `XChangeKeyboardMapping`: `keycode` now types `keysym` (`NoSymbol`: unbound again).
    case bind(Keycode, Keysym)
    /// `XSync`: the server has handled every request before this one. Comes before a spare
    /// keycode is bound to something else, so that the key events typed with the old binding
    /// are delivered first (remote-touchpad #82).
    case sync
}
