import GestureControl

/// What a session needs to know about driving the computer: whether the server controls it
/// (and with which backend, or why not), the mapping settings, and what the backend can type.
public struct ControlContext: Sendable, Hashable {
    /// `welcome.control` (CONTROL.md): active with a backend, or inactive with a reason.
    public enum Status: Sendable, Hashable {
        case active(backend: String)
        case inactive(reason: String)
    }

    public var status: Status
    public var settings: ControlSettings
    public var capabilities: ControlCapabilities

    public init(status: Status, settings: ControlSettings = ControlSettings(), capabilities: ControlCapabilities) {
        self.status = status
        self.settings = settings
        self.capabilities = capabilities
    }

    /// No control: recognize, draw, log and run hooks only.
    public static func off(reason: String) -> ControlContext {
        ControlContext(status: .inactive(reason: reason), capabilities: ControlCapabilities(characters: .anyUnicode))
    }

    /// Whether the server drives the computer.
    public var isActive: Bool {
        switch status {
        case .active: true
        case .inactive: false
        }
    }

    /// The `bad_field` error for a command the backend cannot carry out, if any.
    func refusal(for command: ControlCommand) -> ProtocolError? {
        let backend: String
        switch status {
        case .active(let name): backend = name
        case .inactive: return nil
        }
        let scalars: String.UnicodeScalarView
        switch command {
        case .text(let text): scalars = text.unicodeScalars
        case .key(.character(let scalar), _): scalars = String.UnicodeScalarView([scalar])
        case .key(.named, _), .button, .spotlight(false): return nil
        case .spotlight(true):
            guard capabilities.spotlight else {
                return ProtocolError(
                    .badField,
                    "spotlight: the \(backend) backend cannot draw one (the x11 backend can); the desktop's own pointer shows where it is"
                )
            }
            return nil
        }
        var refused: [Unicode.Scalar] = []
        for scalar in scalars where !capabilities.canType(scalar) && !refused.contains(scalar) {
            refused.append(scalar)
        }
        guard !refused.isEmpty else { return nil }
        let what = if case .text = command { "text" } else { "key" }
        return ProtocolError(
            .badField,
            "\(what): the \(backend) backend cannot type \(Self.list(refused)): \(capabilities.limitation); nothing was typed; gesturepad help control"
        )
    }

    /// `"é" (U+00E9), "中" (U+4E2D)`: the first `shown`, then how many more.
    private static func list(_ scalars: [Unicode.Scalar], shown: Int = 5) -> String {
        let named = scalars.prefix(shown).map { "\"\(Character($0))\" (U+\($0.hex))" }.joined(separator: ", ")
        return scalars.count > shown ? "\(named) and \(scalars.count - shown) more" : named
    }
}
