import Foundation
import GesturePadTestSupport
import Testing

@testable import GestureProtocol

@Suite("FrameDecoder: mutated input")
struct FrameDecoderFuzzTests {
    static let seeds = [
        #"{"type":"move","id":1,"t":1016.842,"x":123.16,"y":500.0,"pointerType":"touch","pressure":0.5}"#,
        #"[{"type":"down","id":1,"t":1000,"x":1,"y":2,"pointerType":"pen"},{"type":"cancel","id":"all","t":2}]"#,
        #"{"type":"hello","protocol":1,"role":"touchpad","width":390,"height":844,"client":"a\"b\u00e9","extra":[1,{"x":null}]}"#,
    ]
    static let alphabet = Array(#"{}[]:,"\ 0123456789.eE+-truefalsn/u"#.utf8) + [0x00, 0x0A, 0xC3, 0xA9]

    /// Random edits of valid frames never crash the decoder, and it agrees with Foundation's
    /// JSON parser on which of them are JSON (valid UTF-8 only; its known leniencies aside).
    @Test func mutationsAgreeWithFoundation() {
        var generator = SeededGenerator.forTests()
        var disagreements: [String] = []
        for _ in 0..<20_000 {
            var bytes = Array(Self.seeds.randomElement(using: &generator).map { Array($0.utf8) } ?? [])
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let position = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes.remove(at: position)
                case 1: bytes.insert(Self.alphabet.randomElement(using: &generator) ?? 0x20, at: position)
                default: bytes[position] = Self.alphabet.randomElement(using: &generator) ?? 0x20
                }
                if bytes.isEmpty { bytes = [0x20] }
            }
            let valid = String(validating: bytes, as: UTF8.self) != nil
            guard valid else { continue }
            let (shape, _) = TestSupport.decode(bytes: bytes)
            var ours = true
            if case .invalid(let error) = shape, error.message.hasPrefix("not JSON") { ours = false }
            let theirs = (try? JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed)) != nil
            let text = String(decoding: bytes, as: UTF8.self)
            // Known Foundation deviations from RFC 8259: it accepts trailing commas, and it
            // refuses numbers that overflow a double (we accept the syntax; the field is bad).
            if !ours, theirs, text.contains(",}") || text.contains(",]") { continue }
            if ours, !theirs, text.contains(/[eE][+-]?[0-9]{3}/) { continue }
            if ours != theirs { disagreements.append(text) }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
    }
}
