import Foundation
import GestureEngine
import Testing

@testable import GestureProtocol

/// Helpers shared by the protocol tests.
enum TestSupport {
    /// Decodes `text` as one frame.
    static func decode(_ text: String) -> (FrameDecoder.Shape, [DecodedMessage]) {
        decode(bytes: Array(text.utf8))
    }

    static func decode(bytes: [UInt8]) -> (FrameDecoder.Shape, [DecodedMessage]) {
        var messages: [DecodedMessage] = []
        let shape = FrameDecoder.decode(bytes.span, into: &messages)
        return (shape, messages)
    }

    /// The single message of a frame, or nil.
    static func message(_ text: String) -> ClientMessage? {
        let (shape, messages) = decode(text)
        guard shape == .single, messages.count == 1, case .success(let m) = messages[0].result else { return nil }
        return m
    }

    /// The error of a single-message frame (or of an invalid frame).
    static func error(_ text: String) -> ProtocolError? {
        let (shape, messages) = decode(text)
        if case .invalid(let e) = shape { return e }
        guard messages.count == 1, case .failure(let e) = messages[0].result else { return nil }
        return e
    }

    /// Parses encoded bytes with Foundation (tests only).
    static func object(_ bytes: some Sequence<UInt8>) -> [String: Any]? {
        try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
    }

    /// Every frame of an output as a JSON object, with its kind.
    static func frames(_ output: SessionOutput) -> [(FrameBuffer.Kind, [String: Any])] {
        output.frames.frames.indices.map { i in
            (output.frames.frames[i].kind, object(output.frames.frameBytes(i)) ?? ["unparsable": true])
        }
    }

    /// The `type` of every frame.
    static func types(_ output: SessionOutput) -> [String] {
        frames(output).map { $0.1["type"] as? String ?? "?" }
    }

    /// The error codes of every error frame.
    static func errorCodes(_ output: SessionOutput) -> [String] {
        frames(output).compactMap { $0.1["type"] as? String == "error" ? $0.1["code"] as? String : nil }
    }

    /// A touchpad hello for a 400 × 800 surface.
    static let hello = #"{"type":"hello","protocol":1,"role":"touchpad","width":400,"height":800}"#

    static func down(_ id: Int, t: Double, x: Double = 100, y: Double = 100) -> String {
        #"{"type":"down","id":\#(id),"t":\#(t),"x":\#(x),"y":\#(y),"pointerType":"touch"}"#
    }

    static func move(_ id: Int, t: Double, x: Double, y: Double = 100) -> String {
        #"{"type":"move","id":\#(id),"t":\#(t),"x":\#(x),"y":\#(y),"pointerType":"touch"}"#
    }

    static func up(_ id: Int, t: Double, x: Double = 100, y: Double = 100) -> String {
        #"{"type":"up","id":\#(id),"t":\#(t),"x":\#(x),"y":\#(y),"pointerType":"touch"}"#
    }
}

/// Whether the real GestureEngine is linked (the stub recognizes nothing). Tests that need
/// recognition (pointer limits, timers, held steps) run only then.
enum EngineProbe {
    static let isImplemented: Bool = {
        var engine = GestureEngine(width: 100, height: 100)
        var events: [GestureEvent] = []
        _ = engine.process(.down(PointerSample(id: 1, x: 10, y: 10, t: 0)), into: &events)
        return !events.isEmpty
    }()
}

extension ProtocolSession {
    /// Feeds a text frame (tests).
    mutating func receive(_ text: String, at arrival: Double, into output: inout SessionOutput) {
        let bytes = Array(text.utf8)
        receive(text: bytes.span, arrival: arrival, into: &output)
    }
}
