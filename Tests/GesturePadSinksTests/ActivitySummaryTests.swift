import GestureControl
import GestureEngine
import GestureProtocol
import Testing

@testable import GesturePadSinks

/// A session's events as the engine gives them, fed to one `ActivitySummary`.
private struct Feed {
    var summary = ActivitySummary()
    var lines: [ActivityLine] = []
    var clock: Int64 = 0

    /// Feeds events; returns the texts of the lines they produced.
    mutating func take(_ events: GestureEvent..., session: String = "1") -> [String] {
        take(events, session: session)
    }

    mutating func take(_ events: [GestureEvent], session: String = "1") -> [String] {
        let start = lines.count
        for event in events {
            clock += 10
            summary.take(event, session: session, time: WallTime(epochMilliseconds: clock), into: &lines)
        }
        return lines[start...].map(\.text)
    }

    mutating func take(_ note: SessionNote, session: String = "1") -> [String] {
        let start = lines.count
        summary.take(note, session: session, time: WallTime(epochMilliseconds: clock), into: &lines)
        return lines[start...].map(\.text)
    }
}

private func event(_ gesture: GestureKind, _ phase: GesturePhase = .ended, pointers: Int = 1, _ detail: GestureDetail = .none)
    -> GestureEvent
{
    GestureEvent(gesture: gesture, phase: phase, t: 0, x: 100, y: 100, pointers: pointers, detail: detail)
}

private func tap(_ count: Int, pointers: Int = 1) -> [GestureEvent] {
    [
        event(.press, .began, pointers: pointers, .pointer(id: 1, pointerType: .touch)),
        event(.release, pointers: pointers, .release(id: 1, inside: true, duration: 50)),
        event(.tap, pointers: pointers, .count(count)),
        event(.end, pointers: pointers, .end(reason: .release, duration: 50)),
    ]
}

private func motion(_ dx: Double, _ dy: Double) -> GestureDetail {
    .motion(
        MotionFields(
            startX: 0, startY: 0, dx: dx, dy: dy, ddx: 0, ddy: 0, vx: 0, vy: 0, predictedX: 0, predictedY: 0, predictedDx: 0,
            predictedDy: 0))
}

private let end = event(.end, .ended, .end(reason: .release, duration: 400))

struct ActivitySummaryTests {
    /// A lone tap is one line, once confirmed; press, release and end make none.
    @Test func singleTap() {
        var feed = Feed()
        #expect(feed.take(tap(1)).isEmpty)
        #expect(feed.take(event(.singleTapConfirmed)) == ["tap"])
        #expect(feed.lines.count == 1)
    }

    /// A double tap is one line, `tap ×2`, as soon as the second tap lands; two-finger taps say so.
    @Test func doubleTapIsOneLine() {
        var feed = Feed()
        _ = feed.take(tap(1))
        #expect(feed.take(tap(2) + [event(.doubleTap)]) == ["tap ×2"])
        #expect(feed.take(tap(1, pointers: 2) + [event(.singleTapConfirmed, pointers: 2)]) == ["tap, 2 fingers"])
        #expect(feed.lines.map(\.text) == ["tap ×2", "tap, 2 fingers"])
    }

    /// Tap-and-drag: the tap comes out when the drag begins, the drag at its end with its
    /// distance, and the confirmation the engine sends after the drag adds nothing.
    @Test func tapAndDragHasNoStrayConfirmation() {
        var feed = Feed()
        _ = feed.take(tap(1))
        _ = feed.take(event(.press, .began, .pointer(id: 1, pointerType: .touch)))
        #expect(feed.take(event(.drag, .began, motion(11, 0))) == ["tap"])
        #expect(
            feed.take(event(.drag, .ended, motion(149, 3)), event(.release, .ended, .release(id: 1, inside: true, duration: 400)))
                .isEmpty)
        #expect(feed.take(end, event(.singleTapConfirmed)) == ["drag → 149 px"])
        #expect(feed.lines.map(\.text) == ["tap", "drag → 149 px"])
    }

    /// One line per contact: a swipe names its direction and fingers, two fingers list what they
    /// did, a cancelled contact says so, a long press its duration.
    @Test func contacts() {
        var feed = Feed()
        let swipe = event(
            .swipe, pointers: 3, .swipe(SwipeFields(direction: .left, distance: 180.4, velocity: 900, duration: 140)))
        #expect(
            feed.take(
                event(.drag, .began, pointers: 3, motion(-20, 0)), event(.drag, .ended, pointers: 3, motion(-180, 0)), swipe, end)
                == ["swipe left, 3 fingers · 180 px"])
        let scroll = GestureDetail.scroll(ScrollFields(dx: 0, dy: 120, ddx: 0, ddy: 0, vx: 0, vy: 0))
        #expect(
            feed.take(
                event(.scroll, .began, pointers: 2, scroll), event(.pinch, .began, pointers: 2, .pinch(scale: 1.2, velocity: 0)),
                event(.scroll, .ended, pointers: 2, scroll), event(.pinch, .ended, pointers: 2, .pinch(scale: 1.5, velocity: 0)),
                event(.end, .ended, pointers: 2, .end(reason: .cancel, duration: 300))) == [
                    "scroll ↓ 120 px · pinch ×1.50 (cancelled)"
                ])
        #expect(
            feed.take(event(.longPress, .began, .duration(500)), event(.longPress, .ended, .duration(812)), end) == [
                "long press 0.8 s"
            ])
        #expect(
            feed.take(
                event(.rotate, .began, pointers: 2, .rotate(angle: 10, velocity: 0)),
                event(.rotate, .ended, pointers: 2, .rotate(angle: -31.6, velocity: 0)), end)
                == ["rotate -32°"])
        #expect(feed.take(event(.timedPress, .began, .duration(200)), event(.timedPress, .ended, .duration(300)), end).isEmpty)
    }

    /// One vocabulary with the page (docs/outputs.md): a plain one-finger move is `pointer`, a
    /// long-press drag is a `drag`, a brisk scroll stays a scroll though the engine ends it with
    /// a swipe, and a one-finger flick is pointer motion that names its swipe.
    @Test func oneVocabularyWithThePage() {
        var feed = Feed()
        #expect(feed.take(event(.drag, .began, motion(11, 0)), event(.drag, .ended, motion(102, 4)), end) == ["pointer → 102 px"])
        #expect(
            feed.take(
                event(.longPress, .began, .duration(500)), event(.longPressDrag, .began, motion(12, 0)),
                event(.longPressDrag, .ended, motion(0, -60)), event(.longPress, .ended, .duration(900)), end)
                == ["drag ↑ 60 px"])
        let scroll = GestureDetail.scroll(ScrollFields(dx: 0, dy: -180, ddx: 0, ddy: 0, vx: 0, vy: -1100))
        let flick = event(
            .swipe, pointers: 2, .swipe(SwipeFields(direction: .up, distance: 180, velocity: 1100, duration: 168, ends: .scroll)))
        #expect(
            feed.take(
                event(.scroll, .began, pointers: 2, scroll), event(.scroll, .ended, pointers: 2, scroll), flick,
                event(.end, .ended, pointers: 2, .end(reason: .release, duration: 168))) == ["scroll ↑ 180 px"])
        let oneFinger = event(.swipe, .ended, .swipe(SwipeFields(direction: .right, distance: 180, velocity: 900, duration: 150)))
        #expect(
            feed.take(event(.drag, .began, motion(11, 0)), event(.drag, .ended, motion(180, 0)), oneFinger, end) == [
                "pointer → 180 px · swipe right"
            ])
    }

    /// Commands and releases are lines of their own, after a tap still waiting.
    @Test func notes() {
        var feed = Feed()
        _ = feed.take(tap(1))
        #expect(feed.take(.command(.text("hello wörld"))) == ["tap", "typed 11 characters"])
        #expect(feed.take(.command(.text("é"))) == ["typed 1 character"])
        #expect(feed.take(.command(.key(.character("c"), modifiers: [.control]))) == ["Control+C"])
        #expect(feed.take(.command(.key(.named(.enter), modifiers: []))) == ["Enter"])
        #expect(feed.take(.command(.key(.character("a"), modifiers: []))) == ["a"])
        #expect(feed.take(.command(.button(.right, .click))) == ["right click"])
        #expect(feed.take(.command(.button(.left, .down))) == ["left button down"])
        let released = feed.take(
            .releasedAfterSilence(silence: 10_004, released: [.button(.left, .up), .key(.named(.control), .up), .wheelStop]))
        #expect(
            released == ["released the left button, Control: no message from the phone for 10.0 s (control.releaseAfterSilence)"])
        #expect(feed.lines.last?.kind == .release)
        let lifted = feed.take(
            .releasedAfterSilence(
                silence: 10_000,
                released: [0, 1].map { .contact(TouchContact(owner: 1, id: $0, phase: .cancel, x: 0, y: 0, t: 0)) }))
        #expect(
            lifted == ["released 2 fingers on the touchpad: no message from the phone for 10.0 s (control.releaseAfterSilence)"])
    }

    /// Sessions are apart; a closed session's waiting tap still comes out, with its own time.
    @Test func sessionsAndClose() {
        var feed = Feed()
        _ = feed.take(tap(1), session: "1")
        _ = feed.take(tap(1, pointers: 3), session: "2")
        let tapTime = feed.clock  // the tap is the last event but one
        _ = feed.take(tap(2), session: "1")
        var lines: [ActivityLine] = []
        feed.summary.close("2", into: &lines)
        #expect(lines.map(\.text) == ["tap, 3 fingers"])
        #expect(lines.first?.time == WallTime(epochMilliseconds: tapTime - 10) && lines.first?.session == "2")
        feed.summary.close("2", into: &lines)
        #expect(lines.count == 1)
        #expect(feed.lines.map(\.text) == ["tap ×2"])
    }
}
