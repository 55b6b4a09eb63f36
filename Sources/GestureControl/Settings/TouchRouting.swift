/// Where a touchpad connection's touches go: through the control mapping, or past it to a
/// native touchpad device.
public enum TouchRouting: Sendable, Hashable {
    /// The mapping turns them into pointer motion, clicks, wheel, zoom and swipe keys
    /// (`x11`, `uinput`, `portal`).
    case gestures
    /// They pass through as the contacts of connection `owner` (`touchpad`): the desktop's own
    /// touchpad handling decides what they do. A mouse or pen on the page, the keyboard and the
    /// button bar still go through the mapping.
    case contacts(owner: Int)
}
