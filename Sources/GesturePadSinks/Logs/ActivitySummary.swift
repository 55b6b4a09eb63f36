import GestureEngine
import GestureProtocol

/// The terminal log's default output: every session's gesture events in, one `ActivityLine`
/// per thing the person did out — `tap ×2`, `pointer → 149 px`, `scroll ↓ 120 px`, `pinch ×1.40`,
/// `typed 11 characters`, `right click` — instead of the engine's phases (`press`, `release`,
/// `end`, `singleTapConfirmed`, which `--verbose` shows).
///
/// A single tap waits for its confirmation (`singleTapConfirmed`, or the next thing the person
/// does) so that a double tap is one line, `tap ×2`; a tap that starts a tap-and-drag comes out
/// before the drag, and the confirmation that follows the drag adds nothing. Everything else is
/// one line per contact, at its `end`. Pure: the lines carry the times the sink gave.
struct ActivitySummary: Sendable {
    /// One session's state: its pending tap and its current contact.
    private struct Session: Sendable {
        var pendingTap: (time: WallTime, fingers: Int)?
        var contact = ContactActivity()
    }

    private var sessions: [String: Session] = [:]

    /// One gesture event of `session`, handed to the sink at `time`.
    mutating func take(_ event: GestureEvent, session: String, time: WallTime, into lines: inout [ActivityLine]) {
        var state = sessions[session] ?? Session()
        defer { sessions[session] = state }
        func emit(_ at: WallTime, _ text: String) {
            lines.append(ActivityLine(session: session, time: at, kind: .gesture, text: text))
        }
        func flushTap() {
            if let tap = state.pendingTap { emit(tap.time, ActivityWords.tap(count: 1, fingers: tap.fingers)) }
            state.pendingTap = nil
        }
        switch event.gesture {
        case .tap:
            state.contact.tapped = true
            guard case .count(let count) = event.detail, count > 1 else {
                flushTap()
                state.pendingTap = (time, event.pointers)
                return
            }
            state.pendingTap = nil
            emit(time, ActivityWords.tap(count: count, fingers: event.pointers))
        case .singleTapConfirmed:
            flushTap()
        case .end:
            var cancelled = false
            if case .end(let reason, _) = event.detail { cancelled = reason == .cancel }
            if !state.contact.tapped, let text = state.contact.line(cancelled: cancelled) {
                flushTap()
                emit(time, text)
            }
            state.contact = ContactActivity()
        case .hover:
            if event.phase == .ended, case .pointer(_, let type) = event.detail { emit(time, "hover, \(type.name)") }
        case .drag, .longPressDrag, .longPress, .scroll, .pinch, .rotate, .swipe, .timedPress:
            // Something that is no tap began: the tap before it is confirmed by now (a drag
            // that begins while it waits is a tap-and-drag: the button is held).
            if event.gesture == .drag, event.phase == .began, state.pendingTap != nil { state.contact.afterTap = true }
            if event.phase == .began || event.gesture == .swipe { flushTap() }
            state.contact.record(event)
        case .press, .release, .doubleTap, .repeat:
            break
        }
    }

    /// A note of `session` (a command, a release): its line, after the session's pending tap.
    mutating func take(_ note: SessionNote, session: String, time: WallTime, into lines: inout [ActivityLine]) {
        flush(session, into: &lines)
        switch note {
        case .command(let command):
            lines.append(ActivityLine(session: session, time: time, kind: .command, text: ActivityWords.command(command)))
        case .releasedAfterSilence(let silence, let released):
            lines.append(
                ActivityLine(
                    session: session, time: time, kind: .release,
                    text: ActivityWords.release(silence: silence, released: released)))
        }
    }

    /// The session closed: its pending tap goes out, its state is forgotten.
    mutating func close(_ session: String, into lines: inout [ActivityLine]) {
        flush(session, into: &lines)
        sessions.removeValue(forKey: session)
    }

    private mutating func flush(_ session: String, into lines: inout [ActivityLine]) {
        guard let tap = sessions[session]?.pendingTap else { return }
        sessions[session]?.pendingTap = nil
        lines.append(
            ActivityLine(
                session: session, time: tap.time, kind: .gesture, text: ActivityWords.tap(count: 1, fingers: tap.fingers)))
    }
}
