/// Whether a backend drives the computer right now. `x11` and `uinput` are active from the
/// moment they open; the `portal` backend becomes active once the desktop allows it, and
/// inactive again when the desktop ends its session.
public enum ControlBackendStatus: Sendable, Hashable {
    /// The backend carries actions out.
    case active
    /// The backend does not drive the computer; `reason` is one line for the user (and for
    /// the pages: it becomes `{"type":"control","active":false,"reason":…}`).
    case inactive(reason: String)
    /// The desktop's user has not allowed control: its dialog is open, or was answered No. Not a
    /// fault — said as a notice, not a warning; `reason` as for `inactive`.
    case notAllowed(reason: String)

    public var isActive: Bool { self == .active }

    /// Why the backend does not drive the computer (nil while it does).
    public var reason: String? {
        switch self {
        case .active: nil
        case .inactive(let reason), .notAllowed(let reason): reason
        }
    }
}
