import GestureEngine
import GesturePadTestSupport
import Testing

@testable import GestureProtocol

@Suite("FrameDecoder: messages")
struct FrameDecoderMessageTests {
    /// A down with every field decodes into a typed sample.
    @Test func downWithAllFields() {
        let m = TestSupport.message(
            #"{"type":"down","id":7,"x":12.5,"y":-3,"t":1000.25,"pointerType":"pen","pressure":0.5,"buttons":1}"#)
        #expect(
            m == .input(.down(PointerSample(id: 7, x: 12.5, y: -3, t: 1000.25, pointerType: .pen, buttons: 1, pressure: 0.5))))
    }

    /// move, up, leave, resize and ping decode with their fields; fields may come in any order.
    @Test func everyType() {
        #expect(
            TestSupport.message(#"{"x":1,"y":2,"t":3,"id":4,"pointerType":"mouse","type":"move"}"#)
                == .input(.move(PointerSample(id: 4, x: 1, y: 2, t: 3, pointerType: .mouse))))
        #expect(
            TestSupport.message(#"{"type":"up","id":1,"x":5,"y":6,"t":7,"pointerType":"touch","buttons":"ignored"}"#)
                == .input(.up(PointerSample(id: 1, x: 5, y: 6, t: 7))))
        #expect(TestSupport.message(#"{"type":"leave","id":2,"t":9}"#) == .input(.leave(id: 2, t: 9)))
        #expect(TestSupport.message(#"{"type":"resize","width":844,"height":390}"#) == .input(.resize(width: 844, height: 390)))
        #expect(TestSupport.message(#"{"type":"ping","t":12.5}"#) == .ping(t: 12.5, echo: 19..<23))  // the bytes of "12.5"
    }

    /// cancel takes an integer id or "all" (nil); any other string is a bad field.
    @Test func cancelIds() {
        #expect(TestSupport.message(#"{"type":"cancel","id":3,"t":1}"#) == .input(.cancel(id: 3, t: 1)))
        #expect(TestSupport.message(#"{"type":"cancel","id":"all","t":1}"#) == .input(.cancel(id: nil, t: 1)))
        let e = TestSupport.error(#"{"type":"cancel","id":"some","t":1}"#)
        #expect(e == ProtocolError(.badField, #"cancel: field "id" must be an integer or "all""#))
    }

    /// hello decodes role and size; an observer may leave the size out; protocol must be 1.
    @Test func hello() {
        #expect(
            TestSupport.message(#"{"type":"hello","protocol":1,"role":"touchpad","width":390,"height":844,"dpr":3,"client":"x"}"#)
                == .hello(HelloMessage(role: .touchpad, width: 390, height: 844, dpr: 3)))
        #expect(
            TestSupport.message(#"{"type":"hello","protocol":1,"role":"observer"}"#)
                == .hello(HelloMessage(role: .observer, width: 0, height: 0)))
        #expect(TestSupport.error(#"{"type":"hello","protocol":2,"role":"touchpad","width":1,"height":1}"#)?.code == .badField)
        #expect(TestSupport.error(#"{"type":"hello","protocol":"1","role":"touchpad","width":1,"height":1}"#)?.code == .badField)
        #expect(
            TestSupport.error(#"{"type":"hello","protocol":1,"role":"viewer","width":1,"height":1}"#)
                == ProtocolError(.badField, #"hello: field "role" must be "touchpad" or "observer""#))
        #expect(
            TestSupport.error(#"{"type":"hello","protocol":1,"role":"touchpad","height":1}"#)
                == ProtocolError(.badField, #"hello: field "width" is missing"#))
    }

    /// Unknown fields, nested or not, are ignored; a repeated key keeps its last value.
    @Test func unknownFieldsIgnored() {
        let m = TestSupport.message(
            #"{"type":"leave","extra":{"a":[1,{"b":null}],"c":"d"},"id":1,"flag":true,"t":2,"id":5,"n":null}"#)
        #expect(m == .input(.leave(id: 5, t: 2)))
    }

    /// Optional fields may be null; integral ids written as 2.0 count as integers.
    @Test func optionalNullAndIntegralId() {
        #expect(
            TestSupport.message(
                #"{"type":"move","id":2.0,"x":1,"y":1,"t":1,"pointerType":"touch","pressure":null,"buttons":null}"#)
                == .input(.move(PointerSample(id: 2, x: 1, y: 1, t: 1))))
    }
}

@Suite("FrameDecoder: bad input")
struct FrameDecoderBadInputTests {
    /// Text that is not JSON is one bad_json error, whatever went wrong.
    @Test(arguments: [
        "", "   ", "nope", "{", "}", "{\"type\":\"ping\",\"t\":1,}", "{'type':'ping'}", "[1,]", "[{\"type\":\"ping\",\"t\":1}",
        "{\"t\":NaN}", "{\"t\":01}", "{\"t\":1.}", "{\"t\":-}", "{\"t\":.5}", "{\"t\":1e}", "{\"type\":\"ping\",\"t\":1} x",
        "{\"a\":\"tab\there\"}", "{\"a\":\"\\x\"}", "{\"a\":\"\\u12g4\"}", "{\"a\":\"open}", "{\"a\" 1}", "{1:2}", "{\"a\":tru}",
        "[{\"type\":\"ping\",\"t\":1} {\"type\":\"ping\",\"t\":2}]",
    ])
    func notJSON(_ text: String) {
        let (shape, messages) = TestSupport.decode(text)
        guard case .invalid(let error) = shape else {
            Issue.record("expected bad_json for \(text)")
            return
        }
        #expect(error.code == .badJSON)
        #expect(error.message.hasPrefix("not JSON: "))
        #expect(messages.isEmpty)
    }

    /// JSON that is not a message object or an array of them is bad_json too.
    @Test(arguments: ["42", "\"ping\"", "null", "true"])
    func notAMessage(_ text: String) {
        #expect(TestSupport.error(text)?.code == .badJSON)
    }

    /// A missing, non-string or unknown type is refused with a clear message.
    @Test func types() {
        #expect(TestSupport.error(#"{"t":1}"#) == ProtocolError(.badField, #"message: field "type" is missing"#))
        #expect(TestSupport.error(#"{"type":3}"#) == ProtocolError(.badField, #"message: field "type" must be a string"#))
        #expect(TestSupport.error(#"{"type":"tap","t":1}"#) == ProtocolError(.unknownType, #"unknown message type "tap""#))
        #expect(TestSupport.decode(#"{"type":"tap"}"#).1.first?.type == nil)
    }

    /// Every missing required field of every type is a bad_field naming the message and field.
    @Test(arguments: [
        ("down", ["id", "x", "y", "t", "pointerType"]), ("move", ["id", "x", "y", "t", "pointerType"]),
        ("up", ["id", "x", "y", "t", "pointerType"]), ("cancel", ["id", "t"]), ("leave", ["id", "t"]),
        ("resize", ["width", "height"]), ("ping", ["t"]),
    ])
    func missingFields(_ type: String, _ required: [String]) {
        let values: [String: String] = [
            "id": "1", "x": "2", "y": "3", "t": "4", "pointerType": "\"touch\"", "width": "5", "height": "6",
        ]
        for missing in required {
            let body = required.filter { $0 != missing }.map { "\"\($0)\":\(values[$0] ?? "0")" }
            let text = "{\"type\":\"\(type)\"" + body.map { "," + $0 }.joined() + "}"
            let error = TestSupport.error(text)
            #expect(error == ProtocolError(.badField, "\(type): field \"\(missing)\" is missing"), "\(text)")
        }
    }

    /// Wrong-typed, non-finite, out-of-range and non-integer values are bad_field.
    @Test(arguments: [
        (#""x":"1""#, #"down: field "x" must be a finite number"#),
        (#""x":1e999"#, #"down: field "x" must be a finite number"#),
        (#""t":-1e999"#, #"down: field "t" must be a finite number"#),
        (#""x":1000000.5"#, #"down: field "x" must be within ±1000000"#),
        (#""y":-2e6"#, #"down: field "y" must be within ±1000000"#),
        (#""id":1.5"#, #"down: field "id" must be an integer"#),
        (#""id":"1""#, #"down: field "id" must be an integer"#),
        (#""id":1e300"#, #"down: field "id" must be an integer"#),
        (#""pointerType":"finger""#, #"down: field "pointerType" must be "touch", "mouse" or "pen""#),
        (#""pointerType":null"#, #"down: field "pointerType" must be "touch", "mouse" or "pen""#),
        (#""pressure":"hard""#, #"down: field "pressure" must be a finite number"#),
        (#""buttons":1.5"#, #"down: field "buttons" must be an integer"#),
        (#""buttons":-1"#, #"down: field "buttons" must be an integer ≥ 0"#),
        (#""t":[1]"#, #"down: field "t" must be a finite number"#),
    ])
    func badFields(_ override: String, _ message: String) {
        let text = #"{"type":"down","id":1,"x":2,"y":3,"t":4,"pointerType":"touch",\#(override)}"#
        #expect(TestSupport.error(text) == ProtocolError(.badField, message))
    }

    /// Coordinates of exactly ±1e6 are accepted.
    @Test func coordinateLimitInclusive() {
        #expect(TestSupport.message(#"{"type":"down","id":1,"x":1e6,"y":-1000000,"t":4,"pointerType":"touch"}"#) != nil)
    }

    /// Deep nesting is refused as bad_json instead of recursing without bound.
    @Test func deepNesting() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(TestSupport.error(deep)?.code == .badJSON)
        let nestedField =
            #"{"type":"ping","t":1,"x":"# + String(repeating: "[", count: 70) + String(repeating: "]", count: 70) + "}"
        #expect(TestSupport.error(nestedField)?.message.contains("nesting too deep") == true)
    }
}

@Suite("FrameDecoder: batches")
struct FrameDecoderBatchTests {
    /// A batch decodes in order; each bad element gets its own error; the rest pass.
    @Test func mixedBatch() {
        let (shape, messages) = TestSupport.decode(
            #"[{"type":"ping","t":1},{"type":"nope"},7,{"type":"leave","id":1},{"type":"leave","id":1,"t":2}]"#)
        #expect(shape == .batch)
        #expect(messages.count == 5)
        #expect(messages[0].result == .success(.ping(t: 1, echo: 20..<21)))
        #expect(messages[1].result == .failure(ProtocolError(.unknownType, #"unknown message type "nope""#)))
        #expect(messages[2].result == .failure(ProtocolError(.badJSON, "batch element 2 is not a message object")))
        #expect(messages[3].result == .failure(ProtocolError(.badField, #"leave: field "t" is missing"#)))
        #expect(messages[3].type == .leave)
        #expect(messages[4].result == .success(.input(.leave(id: 1, t: 2))))
    }

    /// An empty batch is valid and holds nothing.
    @Test func emptyBatch() {
        let (shape, messages) = TestSupport.decode(" [ ] ")
        #expect(shape == .batch)
        #expect(messages.isEmpty)
    }

    /// A syntax error anywhere in a batch refuses the whole frame (nothing is half-processed).
    @Test func brokenBatch() {
        let (shape, messages) = TestSupport.decode(#"[{"type":"ping","t":1},{"type":"ping","t":2]"#)
        #expect(shape == .invalid(ProtocolError(.badJSON, "not JSON: expected ',' or '}' at byte 43")))
        #expect(messages.isEmpty)
    }
}

@Suite("FrameDecoder: strings and numbers")
struct FrameDecoderTokenTests {
    /// Escaped keys and values match the same as plain ones.
    @Test func escapes() {
        let m = TestSupport.message(
            #"{"\u0074ype":"mo\u0076e","id":1,"x":1,"y":1,"t":1,"pointer\u0054ype":"to\u0075ch","client":"a\"b\\c\/\n\u00e9\ud83d\ude00"}"#
        )
        #expect(m == .input(.move(PointerSample(id: 1, x: 1, y: 1, t: 1))))
    }

    /// String tokens decode every escape, surrogate pairs included; lone surrogates become U+FFFD.
    @Test func stringDecoding() {
        let text = #""a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\ude00\ud800x""#
        let bytes = Array(text.utf8)
        var scanner = JSONScanner()
        let token = try? scanner.scanString(bytes.span)
        let decoded = token.map { JSONStringDecoder.string($0, in: bytes.span) }
        #expect(decoded == "a\"b\\c/d\u{08}\u{0C}\n\r\t\u{E9}\u{1F600}\u{FFFD}x")
        #expect(token?.hasEscapes == true)
    }

    /// Numbers convert exactly as the standard library does, on the fast and the slow path.
    @Test(arguments: [
        "0", "-0", "1", "-1", "0.1", "0.5", "1000.25", "1.5E-3", "1e2", "1E+2", "123456789.123456789", "0.000001",
        "12345678901234567890", "9007199254740993", "1.7976931348623157e308", "5e-324", "1e-400", "2.2250738585072014e-308",
        "1016.842", "-844.0000001", "3.141592653589793238462643383279",
    ])
    func numbers(_ text: String) {
        let bytes = Array(text.utf8)
        var scanner = JSONScanner()
        let scanned = try? scanner.scanNumber(bytes.span)
        #expect(scanned?.0 == Double(text))
        #expect(scanned?.0.sign == Double(text)?.sign)
        #expect(scanned?.1 == 0..<bytes.count)
    }

    /// Random decimals convert bit-exactly (fast path checked against the standard library).
    @Test func randomNumbers() {
        var generator = SeededGenerator.forTests()
        for _ in 0..<2_000 {
            let value = Double.random(in: -1e6...1e6, using: &generator)
            for text in [String(value), String(format: "%.3f", value), String(format: "%.9e", value)] {
                let bytes = Array(text.utf8)
                var scanner = JSONScanner()
                let scanned = try? scanner.scanNumber(bytes.span)
                #expect(scanned?.0 == Double(text), "\(text)")
            }
        }
    }
}

@Suite("UTF8Validator")
struct UTF8ValidatorTests {
    /// Well-formed UTF-8 passes, including 2-, 3- and 4-byte sequences.
    @Test func valid() {
        let multibyte = Self.check(Array("plain é ✓ 😀 \u{10FFFF}".utf8))
        let empty = Self.check([])
        #expect(multibyte)
        #expect(empty)
    }

    /// Stray bytes, overlong forms, surrogates, truncation and values past U+10FFFF fail.
    @Test(
        arguments: [
            [0xFF], [0x80], [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xE2, 0x82],
            [0xF0, 0x8F, 0xBF, 0xBF], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0x41, 0xC3],
        ] as [[UInt8]])
    func invalid(_ bytes: [UInt8]) {
        let valid = Self.check(bytes)
        #expect(!valid)
    }

    static func check(_ bytes: [UInt8]) -> Bool { UTF8Validator.isValid(bytes.span) }
}
