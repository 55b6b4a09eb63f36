import Foundation
import GestureEngine
import Testing

@testable import GestureProtocol

/// The session's wiring to the engine, checked against a second engine fed the same inputs
/// directly. These need the real engine (the stub recognizes nothing).
@Suite("ProtocolSession: engine wiring", .enabled(if: EngineProbe.isImplemented, "needs the real GestureEngine"))
struct ProtocolSessionEngineTests {
    static func opened(_ limits: ProtocolLimits = ProtocolLimits()) -> ProtocolSession {
        var session = ProtocolSession(sessionID: "s1", config: GestureConfig(), limits: limits)
        var output = SessionOutput()
        session.receive(TestSupport.hello, at: 0, into: &output)
        return session
    }

    static func engine(maxPointers: Int = 10) -> GestureEngine {
        GestureEngine(config: GestureConfig(), width: 400, height: 800, maxPointers: maxPointers)
    }

    static func sample(_ id: Int, _ t: Double, _ x: Double = 100, _ y: Double = 100) -> PointerSample {
        PointerSample(id: id, x: x, y: y, t: t)
    }

    /// Every event is also a .gesture frame with the session id, in order.
    static func expectFramesMatchEvents(_ output: SessionOutput) {
        let gestures = TestSupport.frames(output).filter { $0.0 == .gesture }.map(\.1)
        #expect(gestures.count == output.events.count)
        for (frame, event) in zip(gestures, output.events) {
            #expect(frame["session"] as? String == "s1")
            #expect(frame["gesture"] as? String == event.gesture.name)
            #expect(frame["phase"] as? String == event.phase.name)
        }
    }

    /// A down beyond maxPointers is refused with too_many_pointers; the others are recognized.
    @Test func tooManyPointers() {
        var session = Self.opened(ProtocolLimits(maxPointers: 2))
        var output = SessionOutput()
        session.receive(TestSupport.down(1, t: 1000), at: 10, into: &output)
        session.receive(TestSupport.down(2, t: 1001, x: 150), at: 11, into: &output)
        #expect(TestSupport.errorCodes(output).isEmpty)
        #expect(output.events.filter { $0.gesture == .press }.count == 2)
        session.receive(TestSupport.down(3, t: 1002, x: 200), at: 12, into: &output)
        #expect(TestSupport.errorCodes(output) == ["too_many_pointers"])
        #expect(output.events.filter { $0.gesture == .press }.count == 2)
        Self.expectFramesMatchEvents(output)
    }

    /// Timers: nextWakeup is the engine deadline + offset; fire before it does nothing, fire at
    /// it emits the engine's timer events with t = deadline.
    @Test func timersMapThroughOffset() {
        var session = Self.opened()
        var reference = Self.engine()
        var expected: [GestureEvent] = []
        var output = SessionOutput()
        session.receive(TestSupport.down(1, t: 1000), at: 5_000, into: &output)
        _ = reference.process(.down(Self.sample(1, 1000)), into: &expected)
        #expect(output.events == expected)
        let deadline = reference.nextDeadline
        #expect(deadline != nil)
        guard let deadline else { return }
        #expect(session.nextWakeup == deadline + 4_000)
        output.removeAll()
        session.fire(now: deadline + 4_000 - 0.5, into: &output)
        #expect(output.events.isEmpty)
        session.fire(now: deadline + 4_000, into: &output)
        expected.removeAll()
        reference.advance(to: deadline, into: &expected)
        #expect(!expected.isEmpty)
        #expect(output.events == expected)
        #expect(output.events.allSatisfy { $0.t == deadline })
        Self.expectFramesMatchEvents(output)
    }

    /// Same-t moves of two fingers sent as separate single-message frames are held for
    /// stepHoldMs and judged together, as one step.
    @Test func stepHold() {
        var session = Self.opened()
        var reference = Self.engine()
        var expected: [GestureEvent] = []
        var output = SessionOutput()
        session.receive(TestSupport.down(1, t: 1000, x: 100), at: 10, into: &output)
        session.receive(TestSupport.down(2, t: 1000, x: 200), at: 10.1, into: &output)
        _ = reference.process(.down(Self.sample(1, 1000, 100)), into: &expected)
        _ = reference.process(.down(Self.sample(2, 1000, 200)), into: &expected)
        reference.flush(into: &expected)
        output.removeAll()
        expected.removeAll()

        session.receive(TestSupport.move(1, t: 1016, x: 60), at: 26, into: &output)
        _ = reference.process(.move(Self.sample(1, 1016, 60)), into: &expected)
        #expect(reference.hasPendingStep)
        #expect(output.events == expected)  // nothing judged yet
        #expect(session.nextWakeup == 28)
        session.receive(TestSupport.move(2, t: 1016, x: 240), at: 26.5, into: &output)
        _ = reference.process(.move(Self.sample(2, 1016, 240)), into: &expected)
        #expect(session.nextWakeup == 28.5)
        session.fire(now: 28.4, into: &output)
        #expect(output.events == expected)
        session.fire(now: 28.5, into: &output)
        reference.flush(into: &expected)
        #expect(output.events == expected)
        #expect(output.events.contains { $0.gesture == .pinch && $0.phase == .began })
        #expect(session.nextWakeup != 28.5)
        Self.expectFramesMatchEvents(output)
    }

    /// A batch frame and a one-finger move are judged at once (no hold).
    @Test func noHoldForBatchesOrOneFinger() {
        var session = Self.opened()
        var reference = Self.engine()
        var expected: [GestureEvent] = []
        var output = SessionOutput()
        session.receive(TestSupport.down(1, t: 1000), at: 10, into: &output)
        _ = reference.process(.down(Self.sample(1, 1000)), into: &expected)
        session.receive(TestSupport.move(1, t: 1016, x: 140), at: 26, into: &output)
        _ = reference.process(.move(Self.sample(1, 1016, 140)), into: &expected)
        reference.flush(into: &expected)
        #expect(output.events == expected)
        #expect(output.events.contains { $0.gesture == .drag && $0.phase == .began })

        session.receive(TestSupport.down(2, t: 1020, x: 300), at: 30, into: &output)
        _ = reference.process(.down(Self.sample(2, 1020, 300)), into: &expected)
        session.receive(
            "[\(TestSupport.move(1, t: 1036, x: 100)),\(TestSupport.move(2, t: 1036, x: 340))]", at: 46, into: &output)
        _ = reference.process(.move(Self.sample(1, 1036, 100)), into: &expected)
        _ = reference.process(.move(Self.sample(2, 1036, 340)), into: &expected)
        reference.flush(into: &expected)
        #expect(output.events == expected)
        if let wakeup = session.nextWakeup { #expect(wakeup > 48) }
    }

    /// close(now:) cancels the open contact at now − offset; the events are encoded too.
    @Test func closeCancelsContact() {
        var session = Self.opened()
        var reference = Self.engine()
        var expected: [GestureEvent] = []
        var output = SessionOutput()
        session.receive(TestSupport.down(1, t: 1000), at: 3_000, into: &output)
        _ = reference.process(.down(Self.sample(1, 1000)), into: &expected)
        session.close(now: 3_050, into: &output)
        reference.close(at: 1050, into: &expected)
        #expect(output.events == expected)
        #expect(output.events.last?.gesture == .end)
        #expect(session.nextWakeup == nil)
        Self.expectFramesMatchEvents(output)
    }
}
