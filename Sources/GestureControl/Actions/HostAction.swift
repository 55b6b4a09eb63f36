/// One thing the computer is asked to do, as the control mapping decides it: the output of
/// `ControlMapper`, the input of a backend (`x11`, `uinput`, `portal`, `touchpad`). Plain
/// values, no I/O.
///
/// Conventions (CONTROL.md): motion in screen pixels, x right and y down; wheel amounts in
/// detents (1.0 is one click of a wheel), `dy > 0` scrolls down (X11 button 5), `dx > 0`
/// scrolls right (button 7); fractions are the backend's to carry out (high resolution) or
/// to accumulate until a whole detent.
public enum HostAction: Sendable, Hashable {
    /// Relative pointer motion in whole screen pixels (sub-pixel remainders stay in the mapper).
    case motion(dx: Int, dy: Int)
    /// A pointer button goes down or up.
    case button(HostButton, PressState)
    /// Wheel motion in detents, both axes.
    case wheel(dx: Double, dy: Double)
    /// A scroll sequence ended (the portal's `finish`; others ignore it).
    case wheelStop
    /// A key goes down or up (modifiers are keys too).
    case key(HostKey, PressState)
    /// Type this text, whatever the keyboard layout (1–1,000 characters, validated before).
    case text(String)
    /// A touch passed through to a native touchpad (the `touchpad` backend; only a mapper
    /// whose touches are routed as contacts makes it, and other backends ignore it).
    case contact(TouchContact)
    /// The touch surface of connection `owner`, CSS px: at its `hello` and at each `resize`
    /// (the `touchpad` backend sizes its device by it; others ignore it).
    case touchSurface(owner: Int, width: Double, height: Double)
    /// Show (true) or hide (false) the spotlight: a ring the desktop side draws around the
    /// pointer so a room can follow it (presenter mode; the `x11` backend draws it, others have
    /// none and are never sent it: `ControlCapabilities.spotlight`).
    case spotlight(Bool)
}

/// Down or up, for buttons and keys.
public enum PressState: String, Sendable, Hashable {
    case down
    case up
}
