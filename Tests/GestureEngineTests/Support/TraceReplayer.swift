import Foundation
import GestureEngine

/// Test support: turns trace lines (Foundation JSON, tests only) into engine inputs and
/// replays them as PROTOCOL.md "Replay" says, with a virtual clock.
enum TraceReplayer {
    struct Trace {
        var width = 390.0
        var height = 844.0
        var inputs: [PointerInput] = []
    }

    static func load(_ text: String) throws -> Trace {
        var trace = Trace()
        for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            let json = try JSONSerialization.jsonObject(with: Data(line.utf8))
            let messages = (json as? [[String: Any]]) ?? [(json as? [String: Any]) ?? [:]]
            for m in messages {
                if m["type"] as? String == "hello" {
                    trace.width = m["width"] as? Double ?? trace.width
                    trace.height = m["height"] as? Double ?? trace.height
                } else if let input = input(m) {
                    trace.inputs.append(input)
                }
            }
        }
        return trace
    }

    static func input(_ m: [String: Any]) -> PointerInput? {
        func d(_ k: String) -> Double { (m[k] as? NSNumber)?.doubleValue ?? 0 }
        let t = d("t")
        func sample() -> PointerSample {
            PointerSample(
                id: (m["id"] as? NSNumber)?.intValue ?? 0, x: d("x"), y: d("y"), t: t,
                pointerType: PointerType(name: m["pointerType"] as? String ?? "touch") ?? .touch)
        }
        switch m["type"] as? String {
        case "down": return .down(sample())
        case "move": return .move(sample())
        case "up": return .up(sample())
        case "cancel": return .cancel(id: (m["id"] as? NSNumber)?.intValue, t: t)
        case "leave": return .leave(id: (m["id"] as? NSNumber)?.intValue ?? 0, t: t)
        case "resize": return .resize(width: d("width"), height: d("height"))
        case "ping": return .clock(t: t)
        default: return nil
        }
    }

    /// Replays inputs; at the end the clock advances to the last `t` + 1000 ms.
    static func replay(_ trace: Trace, config: GestureConfig = GestureConfig()) -> [GestureEvent] {
        var engine = GestureEngine(config: config, width: trace.width, height: trace.height)
        var events: [GestureEvent] = []
        var lastT: Double?
        for input in trace.inputs {
            if engine.process(input, into: &events) == .accepted, let t = input.time { lastT = max(lastT ?? t, t) }
        }
        engine.flush(into: &events)
        if let lastT { engine.advance(to: lastT + 1000, into: &events) }
        return events
    }
}
