import GestureEngine
import GestureProtocol

/// Writes page → server messages (PROTOCOL.md) as the page would, for the in-memory traces
/// of the replay and session benchmarks. Set-up code, not timed.
enum InputEncoder {
    static let hello = Array(#"{"type":"hello","protocol":1,"role":"touchpad","width":390,"height":844,"dpr":3}"#.utf8)

    /// One frame: a single message object, or a batch array when `asBatch`.
    static func frame(_ inputs: ArraySlice<PointerInput>, asBatch: Bool) -> [UInt8] {
        var out: [UInt8] = []
        if asBatch { out.append(UInt8(ascii: "[")) }
        for (i, input) in inputs.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            append(input, to: &out)
        }
        if asBatch { out.append(UInt8(ascii: "]")) }
        return out
    }

    static func append(_ input: PointerInput, to out: inout [UInt8]) {
        switch input {
        case .down(let s): sample("down", s, &out)
        case .move(let s): sample("move", s, &out)
        case .up(let s): sample("up", s, &out)
        case .cancel(let id, let t):
            JSONWriter.appendASCII(#"{"type":"cancel","id":"#, to: &out)
            if let id { JSONWriter.appendInteger(id, to: &out) } else { JSONWriter.appendASCII(#""all""#, to: &out) }
            JSONWriter.appendASCII(#","t":"#, to: &out)
            JSONWriter.appendNumber(t, to: &out)
            out.append(UInt8(ascii: "}"))
        case .leave(let id, let t):
            JSONWriter.appendASCII(#"{"type":"leave","id":"#, to: &out)
            JSONWriter.appendInteger(id, to: &out)
            JSONWriter.appendASCII(#","t":"#, to: &out)
            JSONWriter.appendNumber(t, to: &out)
            out.append(UInt8(ascii: "}"))
        case .resize(let width, let height):
            JSONWriter.appendASCII(#"{"type":"resize","width":"#, to: &out)
            JSONWriter.appendNumber(width, to: &out)
            JSONWriter.appendASCII(#","height":"#, to: &out)
            JSONWriter.appendNumber(height, to: &out)
            out.append(UInt8(ascii: "}"))
        case .clock(let t):
            JSONWriter.appendASCII(#"{"type":"ping","t":"#, to: &out)
            JSONWriter.appendNumber(t, to: &out)
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func sample(_ type: String, _ s: PointerSample, _ out: inout [UInt8]) {
        JSONWriter.appendASCII(#"{"type":""#, to: &out)
        JSONWriter.appendASCII(type, to: &out)
        JSONWriter.appendASCII(#"","id":"#, to: &out)
        JSONWriter.appendInteger(s.id, to: &out)
        JSONWriter.appendASCII(#","t":"#, to: &out)
        JSONWriter.appendNumber((s.t * 1000).rounded() / 1000, to: &out)
        JSONWriter.appendASCII(#","x":"#, to: &out)
        JSONWriter.appendNumber((s.x * 100).rounded() / 100, to: &out)
        JSONWriter.appendASCII(#","y":"#, to: &out)
        JSONWriter.appendNumber((s.y * 100).rounded() / 100, to: &out)
        JSONWriter.appendASCII(#","pointerType":""#, to: &out)
        JSONWriter.appendASCII(s.pointerType.name, to: &out)
        JSONWriter.appendASCII(#""}"#, to: &out)
    }
}
