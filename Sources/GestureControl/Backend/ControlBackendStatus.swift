/// Whether a backend drives the computer right now. `x11` and `uinput` are active from the
/// moment they open; the `portal` backend becomes active once the desktop allows it, and
/// inactive again when the desktop ends its session.
public enum ControlBackendStatus: Sendable, Hashable {
    /// The backend carries actions out.
    case active
    /// The backend does not drive the computer; `reason` is one line for the user (and for
    /// the pages: it becomes `{"type":"control","active":false,"reason":…}`).
    case inactive(reason: String)

    public var isActive: Bool { self == .active }
}
