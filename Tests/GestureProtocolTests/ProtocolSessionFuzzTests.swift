import Foundation
import GestureEngine
import GesturePadTestSupport
import Testing

@testable import GestureProtocol

@Suite("ProtocolSession: random traffic")
struct ProtocolSessionFuzzTests {
    /// A random pointer message (sometimes malformed, sometimes with t going backwards).
    static func randomMessage(t: Double, using g: inout SeededGenerator) -> String {
        let id = Int.random(in: 1...12, using: &g)
        let x = Double.random(in: -50...450, using: &g)
        let y = Double.random(in: -50...850, using: &g)
        let type =
            ["down", "move", "move", "move", "up", "cancel", "leave", "ping", "resize", "bogus"].randomElement(using: &g)
            ?? "move"
        let pointerType = ["touch", "touch", "mouse", "pen"].randomElement(using: &g) ?? "touch"
        switch type {
        case "cancel":
            return Bool.random(using: &g)
                ? #"{"type":"cancel","id":"all","t":\#(t)}"# : #"{"type":"cancel","id":\#(id),"t":\#(t)}"#
        case "leave": return #"{"type":"leave","id":\#(id),"t":\#(t)}"#
        case "ping": return #"{"type":"ping","t":\#(t)}"#
        case "resize": return #"{"type":"resize","width":\#(x + 100),"height":\#(y + 100)}"#
        case "bogus": return #"{"type":"move","id":"x"}"#
        default:
            return
                #"{"type":"\#(type)","id":\#(id),"t":\#(t),"x":\#(x),"y":\#(y),"pointerType":"\#(pointerType)","buttons":\#(Int.random(in: 0...1, using: &g))}"#
        }
    }

    /// Random traffic and timer wake-ups never crash the session; every frame it writes is a
    /// JSON object, and every event has its gesture frame.
    @Test func randomTraffic() {
        var g = SeededGenerator.forTests()
        for _ in 0..<40 {
            var session = ProtocolSession(sessionID: "f", config: GestureConfig(), limits: ProtocolLimits(maxPointers: 4))
            var output = SessionOutput()
            session.receive(TestSupport.hello, at: 0, into: &output)
            var t = 1000.0
            var now = 5000.0
            for _ in 0..<300 {
                output.removeAll()
                t += Double.random(in: -5...40, using: &g)
                now += Double.random(in: 0...40, using: &g)
                if let wakeup = session.nextWakeup, wakeup <= now {
                    session.fire(now: wakeup, into: &output)
                }
                let count = Int.random(in: 1...3, using: &g)
                let messages = (0..<count).map { _ in Self.randomMessage(t: (t * 1000).rounded() / 1000, using: &g) }
                let text = count == 1 ? messages[0] : "[" + messages.joined(separator: ",") + "]"
                session.receive(text, at: now, into: &output)
                let frames = TestSupport.frames(output)
                #expect(frames.allSatisfy { $0.1["unparsable"] == nil })
                #expect(frames.filter { $0.0 == .gesture }.count == output.events.count)
                if output.close != nil { break }
            }
            output.removeAll()
            session.close(now: now + 10, into: &output)
            #expect(TestSupport.frames(output).count == output.events.count)
        }
    }
}
