import GestureEngine
import GestureProtocol

/// What the log sinks queue for their writer threads: taken on the service thread with no
/// formatting, formatted later off it.
enum LogItem: Sendable {
    case event(GestureEvent, session: String, time: WallTime)
    case session(String, open: Bool, time: WallTime)
    /// A command carried out or a release by the silence rule (the terminal log prints it).
    case note(SessionNote, session: String, time: WallTime)
}
