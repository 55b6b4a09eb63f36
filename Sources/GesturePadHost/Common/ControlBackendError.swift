import FoundationEssentials

/// Why a control backend could not start, as one line for the user ("cannot open X display :0:
/// …", "/dev/uinput is not writable: add the udev rule in docs/control.md").
public struct ControlBackendError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// The one-line message, printed as it is.
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
    public var errorDescription: String? { message }
}
