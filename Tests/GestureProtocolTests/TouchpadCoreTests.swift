import GestureControl
import GestureEngine
import Testing

@testable import GestureProtocol

/// `TouchpadCore` makes its engine at the first input other than a ping, and the pings before
/// it move the engine's clock exactly as they would have moved an engine made at `hello`.
@Suite("TouchpadCore: engine made on first use")
struct TouchpadCoreTests {
    static func core() -> TouchpadCore {
        TouchpadCore(config: GestureConfig(), width: 400, height: 800, maxPointers: 10, control: nil)
    }

    /// An idle touchpad (pings only) holds no engine.
    @Test func pingsMakeNoEngine() {
        var core = Self.core()
        var events: [GestureEvent] = []
        var actions: [HostAction] = []
        for t in [1000.0, 900, .nan, 2000] {
            #expect(core.process(.clock(t: t), events: &events, actions: &actions) == .accepted)
        }
        #expect(core.engine == nil)
        #expect(core.now == 2000)
        #expect(core.nextDeadline == nil)
        #expect(events.isEmpty)
    }

    /// Pings then pointers give the same events as an engine that saw every input from the start.
    @Test(arguments: [
        [1000.0, 5000], [5000, 1000], [.nan, 3000], [.nan], [-2e12, 10], [2e12], [4000, .nan, 4500],
    ])
    func pingsThenPointersAsEager(_ pings: [Double]) {
        var core = Self.core()
        var reference = GestureEngine(config: GestureConfig(), width: 400, height: 800, maxPointers: 10)
        var events: [GestureEvent] = []
        var expected: [GestureEvent] = []
        var actions: [HostAction] = []
        var inputs = pings.map { PointerInput.clock(t: $0) }
        inputs += [
            .down(PointerSample(id: 1, x: 100, y: 100, t: 4000)), .move(PointerSample(id: 1, x: 160, y: 100, t: 4010)),
            .up(PointerSample(id: 1, x: 220, y: 100, t: 4020)),
        ]
        for input in inputs {
            _ = core.process(input, events: &events, actions: &actions)
            _ = reference.process(input, into: &expected)
        }
        core.flush(events: &events, actions: &actions)
        reference.flush(into: &expected)
        core.advance(to: 1e12, events: &events, actions: &actions)
        reference.advance(to: 1e12, into: &expected)
        #expect(!expected.isEmpty)
        #expect(events == expected)
        #expect(core.now == reference.now)
    }

    /// A session's touchpad keeps no engine until its first pointer message.
    @Test func sessionMakesEngineAtFirstPointer() {
        var session = ProtocolSession(sessionID: "s1", config: GestureConfig(), limits: ProtocolLimits())
        var output = SessionOutput()
        session.receive(TestSupport.hello, at: 0, into: &output)
        session.receive(#"{"type":"ping","t":10}"#, at: 1, into: &output)
        #expect(session.hasEngine == false)
        session.receive(TestSupport.down(1, t: 20), at: 2, into: &output)
        #expect(session.hasEngine == true)
    }
}
