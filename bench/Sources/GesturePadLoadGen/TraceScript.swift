import GestureEngine
import GestureProtocol

#if canImport(Glibc)
    import Glibc
#endif

/// The pointer traffic one load-generator connection replays: public trace files turned into
/// page-like frames — the messages whose `t` falls in the same 60 Hz animation frame (16.667 ms
/// of the trace's clock) form one JSON array, as the page sends one batch per animation frame
/// (with `frameMs` 0, each trace line is a frame). Every few frames end with a `ping`, so the
/// server acknowledges them with a `pong` (flow control and round-trip time). The traces are laid end to end (1.5 s apart) and looped; every loop shifts `t` by
/// the script's period, so `t` only grows and each sent `t` is unique per connection.
///
/// A message is stored as its JSON text up to `"t":` and the text after the number, so a
/// frame is written by copying bytes and formatting one number per message.
struct TraceScript {
    /// One pointer message: `prefix` + t + `}`.
    struct Message {
        var prefix: [UInt8]
        /// `t` in µs relative to the script's start (an integer: exact, and formatted fast).
        var t: Int64
    }

    let hello: [UInt8]
    private(set) var messages: [Message] = []
    /// Frames as ranges of `messages`.
    private(set) var frames: [Range<Int>] = []
    /// The length of one loop, µs.
    private(set) var period: Int64 = 0
    /// The page time of the first message of loop 0, µs.
    static let origin: Int64 = 1_000_000_000

    /// Loads `names` (`NAME.jsonl`) from `directory`.
    init(directory: String, names: [String], frameMs: Double = 1000.0 / 60) throws(LoadError) {
        hello = Array(#"{"type":"hello","protocol":1,"role":"touchpad","width":390,"height":844,"dpr":3}"#.utf8)
        var cursor: Int64 = 0
        var decoded: [DecodedMessage] = []
        for name in names {
            let path = "\(directory)/\(name).jsonl"
            guard let text = Self.readFile(path) else { throw LoadError("cannot read trace \(path)") }
            var first: Int64? = nil
            var last: Int64 = 0
            var start = messages.count
            var currentFrame: Int64? = nil
            let frameMicros = Int64(frameMs * 1000)
            for line in text.split(separator: UInt8(ascii: "\n")) {
                let bytes = Array(line)
                _ = FrameDecoder.decode(bytes.span, into: &decoded)
                for message in decoded {
                    guard case .success(.input(let input)) = message.result, let t = input.time else { continue }
                    let micros = Int64((t * 1000).rounded())
                    let base = first ?? micros
                    first = base
                    last = max(last, micros - base)
                    let frame = frameMicros > 0 ? (micros - base) / frameMicros : nil
                    if let frame, let currentFrame, frame != currentFrame, messages.count > start {
                        frames.append(start..<messages.count)
                        start = messages.count
                    }
                    currentFrame = frame
                    messages.append(Message(prefix: Self.prefix(input), t: cursor + micros - base))
                }
                if frameMicros <= 0, messages.count > start {
                    frames.append(start..<messages.count)
                    start = messages.count
                }
            }
            if messages.count > start { frames.append(start..<messages.count) }
            cursor += last + 1_500_000
        }
        period = cursor
        guard !frames.isEmpty else { throw LoadError("the traces hold no pointer messages") }
    }

    /// Appends frame `index` of loop `loop` (a batch array, ending with a ping when `ping`) to `out`, and
    /// each message's absolute `t` (µs) to `times`.
    func appendFrame(_ index: Int, loop: Int64, ping: Bool, to out: inout [UInt8], times: inout [Int64]) {
        out.append(UInt8(ascii: "["))
        var t: Int64 = 0
        for i in frames[index] {
            let message = messages[i]
            t = Self.origin + loop * period + message.t
            out.append(contentsOf: message.prefix)
            Self.appendMillis(t, to: &out)
            out.append(UInt8(ascii: "}"))
            out.append(UInt8(ascii: ","))
            times.append(t)
        }
        if ping {
            out.append(contentsOf: Self.pingPrefix)
            Self.appendMillis(t, to: &out)
            out.append(UInt8(ascii: "}"))
        } else {
            out.removeLast()  // the trailing comma
        }
        out.append(UInt8(ascii: "]"))
    }

    /// Pointer messages in one loop of the script.
    var messagesPerLoop: Int { messages.count }

    private static let pingPrefix = Array(#"{"type":"ping","t":"#.utf8)

    /// `µs` as milliseconds with three decimals, e.g. `1004211` → `1004.211`.
    static func appendMillis(_ micros: Int64, to out: inout [UInt8]) {
        let whole = micros / 1000
        let fraction = micros % 1000
        var power: Int64 = 1
        while power <= whole / 10 { power *= 10 }
        while power > 0 {
            out.append(UInt8(ascii: "0") + UInt8(whole / power % 10))
            power /= 10
        }
        out.append(UInt8(ascii: "."))
        out.append(UInt8(ascii: "0") + UInt8(fraction / 100))
        out.append(UInt8(ascii: "0") + UInt8(fraction / 10 % 10))
        out.append(UInt8(ascii: "0") + UInt8(fraction % 10))
    }

    /// The message's JSON up to and including `"t":`.
    private static func prefix(_ input: PointerInput) -> [UInt8] {
        var out: [UInt8] = []
        func sample(_ type: String, _ s: PointerSample) {
            JSONWriter.appendASCII("{\"type\":\"\(type)\",\"id\":", to: &out)
            JSONWriter.appendInteger(s.id, to: &out)
            JSONWriter.appendASCII(",\"x\":", to: &out)
            JSONWriter.appendNumber(s.x, to: &out)
            JSONWriter.appendASCII(",\"y\":", to: &out)
            JSONWriter.appendNumber(s.y, to: &out)
            JSONWriter.appendASCII(",\"pointerType\":\"\(s.pointerType.name)\"", to: &out)
            if let pressure = s.pressure {
                JSONWriter.appendASCII(",\"pressure\":", to: &out)
                JSONWriter.appendNumber(pressure, to: &out)
            }
            if let buttons = s.buttons {
                JSONWriter.appendASCII(",\"buttons\":", to: &out)
                JSONWriter.appendInteger(buttons, to: &out)
            }
            JSONWriter.appendASCII(",\"t\":", to: &out)
        }
        switch input {
        case .down(let s): sample("down", s)
        case .move(let s): sample("move", s)
        case .up(let s): sample("up", s)
        case .cancel(let id, _):
            JSONWriter.appendASCII(
                id.map { "{\"type\":\"cancel\",\"id\":\($0),\"t\":" } ?? "{\"type\":\"cancel\",\"id\":\"all\",\"t\":", to: &out)
        case .leave(let id, _):
            JSONWriter.appendASCII("{\"type\":\"leave\",\"id\":\(id),\"t\":", to: &out)
        case .resize, .clock:
            JSONWriter.appendASCII("{\"type\":\"ping\",\"t\":", to: &out)
        }
        return out
    }

    private static func readFile(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            if n <= 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
        }
        return bytes
    }
}

/// A load-generator set-up error, printed before exiting with status 2.
struct LoadError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
