import GestureControl
import GestureEngine
import GesturePadSettings
import GestureProtocol

/// What a hook is handed: a gesture event of a session, or a media player's event
/// (docs/outputs.md "Player events"). The runners queue it and, when a process is started or
/// fed, ask it for its JSON line, its argv and its environment.
enum HookPayload: Sendable {
    case gesture(GestureEvent, session: String)
    case media(MediaEvent)

    /// Its JSON line (no newline), with the wall-clock `time` the server saw it.
    func appendJSON(time: WallTime, into out: inout [UInt8]) {
        switch self {
        case .gesture(let event, let session): GestureJSON.append(event, session: session, time: time, into: &out)
        case .media(let event): MessageEncoder.appendMediaEvent(event, time: time, to: &out)
        }
    }

    /// A `run` hook's argv template filled in.
    func expand(_ template: ArgvTemplate) -> String {
        switch self {
        case .gesture(let event, _): template.expand(for: event)
        case .media(let event): template.expand(for: event)
        }
    }

    /// The `GESTUREPAD_*` variables of a `run` hook's process.
    func variables(time: WallTime) -> [(String, String)] {
        switch self {
        case .gesture(let event, let session): HookLaunch.variables(for: event, session: session, time: time)
        case .media(let event): HookLaunch.variables(for: event, time: time)
        }
    }

    /// The gesture event, if it is one.
    var gestureEvent: GestureEvent? {
        if case .gesture(let event, _) = self { event } else { nil }
    }

    /// The session of a gesture event.
    var session: String? {
        if case .gesture(_, let session) = self { session } else { nil }
    }
}
