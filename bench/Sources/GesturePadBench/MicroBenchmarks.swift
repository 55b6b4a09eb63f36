import GestureControl
import GestureEngine
import GestureProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// The engine, replay and session micro-benchmarks. Each runs whole passes over the same
/// pre-built input (a fresh engine / host / session per pass, so page time starts over) until
/// `minSeconds` have passed, or exactly `passes` passes when given (for valgrind runs).
struct MicroBenchmarks {
    /// One benchmark's outcome.
    struct Result {
        var name: String
        /// Units processed (inputs for the engine, messages for replay / session).
        var units: Int
        var seconds: Double
        /// Gesture events produced (a checksum: the optimizer cannot drop the work).
        var events: Int
        var perSecond: Double { seconds > 0 ? Double(units) / seconds : 0 }

        var json: String {
            "{\"bench\":\"\(name)\",\"units\":\(units),\"seconds\":\(seconds),\"perSecond\":\(perSecond),\"events\":\(events)}"
        }
    }

    let script: StrokeScript
    let minSeconds: Double
    let passes: Int?

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Runs `pass` (which returns units and events) repeatedly and times the whole.
    private func measure(_ name: String, _ pass: () -> (units: Int, events: Int)) -> Result {
        var result = Result(name: name, units: 0, seconds: 0, events: 0)
        let start = Self.now()
        var done = 0
        while true {
            let (units, events) = pass()
            result.units += units
            result.events += events
            done += 1
            if let passes {
                if done >= passes { break }
            } else if Self.now() - start >= minSeconds {
                break
            }
        }
        result.seconds = Self.now() - start
        return result
    }

    /// The engine alone on pre-built `PointerInput`s (events/s = inputs/s).
    func engine() -> Result {
        let inputs = script.inputs
        var events: [GestureEvent] = []
        events.reserveCapacity(64)
        return measure("engine") {
            var engine = GestureEngine(width: 390, height: 844)
            var produced = 0
            for input in inputs {
                events.removeAll(keepingCapacity: true)
                _ = engine.process(input, into: &events)
                produced += events.count
            }
            events.removeAll(keepingCapacity: true)
            engine.flush(into: &events)
            if let now = engine.now { engine.advance(to: now + 1000, into: &events) }
            return (inputs.count, produced + events.count)
        }
    }

    /// Trace lines, one batch per frame after a hello line.
    func traceLines(asBatch: Bool) -> [[UInt8]] {
        var lines = [InputEncoder.hello]
        let inputs = script.inputs
        for range in script.frames {
            if asBatch {
                lines.append(InputEncoder.frame(inputs[range], asBatch: true))
            } else {
                for i in range { lines.append(InputEncoder.frame(inputs[i..<i + 1], asBatch: false)) }
            }
        }
        return lines
    }

    /// `ReplayHost` on in-memory trace lines: UTF-8 check, parsing, engine and encoding of
    /// the gesture lines (messages/s).
    func replay(asBatch: Bool) -> Result {
        let lines = traceLines(asBatch: asBatch)
        let messages = script.inputs.count
        var stdout: [UInt8] = []
        var stderr: [UInt8] = []
        stdout.reserveCapacity(1 << 16)
        return measure(asBatch ? "replay" : "replay-single") {
            var host = ReplayHost()
            var produced = 0
            for (i, line) in lines.enumerated() {
                host.feed(line: line.span, number: i + 1, stdout: &stdout, stderr: &stderr)
                produced += stdout.count
                stdout.removeAll(keepingCapacity: true)
            }
            host.finish(stdout: &stdout)
            produced += stdout.count + stderr.count
            stdout.removeAll(keepingCapacity: true)
            stderr.removeAll(keepingCapacity: true)
            return (messages, produced)
        }
    }

    /// `FrameDecoder.decode` alone (JSON scan and validation; the UTF-8 check is internal to
    /// the module and not included) on the batch lines: the parsing share of `replay` (messages/s).
    func decode() -> Result {
        let lines = traceLines(asBatch: true)
        let messages = script.inputs.count
        var decoded: [DecodedMessage] = []
        decoded.reserveCapacity(16)
        return measure("decode") {
            var valid = 0
            for line in lines {
                _ = FrameDecoder.decode(line.span, into: &decoded)
                valid += decoded.count
            }
            return (messages, valid)
        }
    }

    /// `ProtocolSession.receive` on batch frames, as the server calls it (rate limit off):
    /// parsing, engine, and the encoded gesture frames (messages/s). With `control`, the
    /// control mapping runs too and its host actions are produced (what the server hands the
    /// backend): the difference is what driving the computer adds per message.
    func session(control: Bool = false) -> Result {
        let lines = traceLines(asBatch: true)
        let messages = script.inputs.count
        var arrivals: [Double] = [0]
        for range in script.frames { arrivals.append((script.inputs[range.upperBound - 1].time ?? 0) + 5) }
        var output = SessionOutput()
        let limits = ProtocolLimits(maxMessagesPerSecond: 0)
        let context: ControlContext =
            control
            ? ControlContext(status: .active(backend: "bench"), capabilities: ControlCapabilities(characters: .anyUnicode))
            : .off(reason: "bench")
        return measure(control ? "session-control" : "session") {
            var session = ProtocolSession(sessionID: "bench", config: GestureConfig(), limits: limits, control: context)
            var produced = 0
            for (i, line) in lines.enumerated() {
                let arrival = arrivals[i]
                if let wakeup = session.nextWakeup, wakeup <= arrival { session.fire(now: arrival, into: &output) }
                session.receive(text: line.span, arrival: arrival, into: &output)
                produced += output.frames.bytes.count + output.actions.count
                output.removeAll()
            }
            session.close(now: (arrivals.last ?? 0) + 1000, into: &output)
            produced += output.frames.bytes.count
            output.removeAll()
            return (messages, produced)
        }
    }
}
