import FoundationEssentials

/// Why a control backend (or something it needs) cannot work, by what failed, each with the
/// one line the user is shown. A caller switches on the case to know what failed (the chooser
/// tells "no session bus" from "the portal says no": `BackendChooser.Message.portalMissing`);
/// the message says how to fix it (`gesturepad help control`).
public enum ControlBackendError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// The X server: no display, no XTEST.
    case x11(String)
    /// `/dev/uinput`: missing, not writable, the device not made.
    case uinput(String)
    /// The session bus (sd-bus): no bus, a call that failed.
    case bus(String)
    /// The desktop portal's RemoteDesktop: not offered, no pointer, its restore token.
    case portal(String)
    /// The Wayland compositor: none, no seat, no virtual pointer or keyboard.
    case wayland(String)
    /// A keyboard layout name XKB does not know.
    case keyboardLayout(String)
    /// The process itself: an eventfd, a file, a thread.
    case system(String)

    /// The one-line message, printed as it is.
    public var message: String {
        switch self {
        case .x11(let m), .uinput(let m), .bus(let m), .portal(let m), .wayland(let m), .keyboardLayout(let m),
            .system(let m):
            m
        }
    }

    public var description: String { message }
    public var errorDescription: String? { message }
}
