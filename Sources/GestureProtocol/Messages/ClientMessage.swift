import GestureControl
import GestureEngine

/// One validated page → server message.
public enum ClientMessage: Sendable, Hashable {
    /// The first message of a connection.
    case hello(HelloMessage)
    /// A message for the engine: `down`, `move`, `up`, `cancel`, `leave`, `resize`.
    case input(PointerInput)
    /// `ping`: `t`, and the byte range of its number text in the frame (echoed by `pong`).
    case ping(t: Double, echo: Range<Int>)
    /// `text`, `key`, `button` (CONTROL.md), `spotlight` (additive): for the computer, when the
    /// server controls it.
    case control(ControlCommand)
    /// `settings` (additive): pointer settings for this connection.
    case settings(SettingsUpdate)
    /// `unpair` (additive): forget this connection's device on the computer.
    case unpair
    /// `media` (additive): a command for the computer's media players.
    case media(MediaCommand)

    /// The message's type.
    public var type: MessageType {
        switch self {
        case .hello: .hello
        case .ping: .ping
        case .control(.text): .text
        case .control(.key): .key
        case .control(.button): .button
        case .control(.spotlight): .spotlight
        case .settings: .settings
        case .unpair: .unpair
        case .media: .media
        case .input(let input):
            switch input {
            case .down: .down
            case .move: .move
            case .up: .up
            case .cancel: .cancel
            case .leave: .leave
            case .resize: .resize
            case .clock: .ping
            }
        }
    }

    /// The page-clock time the message carries, if any.
    public var time: Double? {
        switch self {
        case .hello, .control, .settings, .unpair, .media: nil
        case .ping(let t, _): t
        case .input(let input): input.time
        }
    }
}
