import GestureEngine

/// What the log sinks queue for their writer threads: taken on the service thread with no
/// formatting, formatted later off it.
enum LogItem: Sendable {
    case event(GestureEvent, session: String, time: WallTime)
    case session(String, open: Bool, time: WallTime)
}
