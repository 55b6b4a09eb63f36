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
        case .key(.named, _), .button: return nil
        }
        guard let bad = scalars.first(where: { !capabilities.canType($0) }) else { return nil }
        let what = if case .text = command { "text" } else { "key" }
        return ProtocolError(
            .badField,
            "\(what): the \(backend) backend cannot type \"\(Character(bad))\" (U+\(bad.hex)): it types US-layout ASCII only; see docs/control.md"
        )
    }
}
