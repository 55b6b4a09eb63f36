import Foundation
import GestureControl
import GestureEngine
import GesturePadTestSupport
import Testing

@testable import GestureProtocol

@Suite("JSONWriter")
struct JSONWriterTests {
    static func number(_ value: Double) -> String {
        var out: [UInt8] = []
        JSONWriter.appendNumber(value, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Integers print as integers, other values as up to 6 trimmed decimals, huge ones compactly.
    @Test(arguments: [
        (0.0, "0"), (-0.0, "0"), (1.0, "1"), (-42.0, "-42"), (1000.0, "1000"), (0.998, "0.998"), (-12.5, "-12.5"),
        (0.1, "0.1"), (1016.842, "1016.842"), (1.0000004, "1"), (2.9999999, "3"), (0.000001, "0.000001"),
        (-0.0000004, "0"), (0.0000006, "0.000001"), (123.456789123, "123.456789"), (1e14, "100000000000000"),
        (123456789012.5, "123456789012.5"), (1e20, "1e+20"), (-3.5e15, "-3500000000000000"), (1.5e12 + 0.25, "1500000000000.25"),
        (.infinity, "null"), (.nan, "null"),
    ])
    func numbers(_ value: Double, _ expected: String) {
        #expect(Self.number(value) == expected)
    }

    /// Every formatted number parses back (JSON) within the 6-decimal rounding.
    @Test func numbersRoundTrip() throws {
        var generator = SeededGenerator.forTests()
        for _ in 0..<2_000 {
            let value = Double.random(in: -2e6...2e6, using: &generator) / Double([1, 10, 1000, 1e6].randomElement() ?? 1)
            let text = Self.number(value)
            let parsed = try #require(
                try JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed) as? NSNumber)
            #expect(abs(parsed.doubleValue - value) <= 5e-7 + abs(value) * 1e-12, "\(value) → \(text)")
        }
    }

    /// Integers of any size print exactly.
    @Test(arguments: [0, 7, -7, 10, 99, 100, 12345, Int.max, Int.min])
    func integers(_ value: Int) {
        var out: [UInt8] = []
        JSONWriter.appendInteger(value, to: &out)
        #expect(String(decoding: out, as: UTF8.self) == String(value))
    }

    /// Strings are escaped so any text survives a JSON round trip.
    @Test(arguments: ["plain", "quote \" backslash \\ slash /", "lines\n\r\t\u{08}\u{0C}", "ctrl \u{00}\u{01}\u{1F}", "é ✓ 😀"])
    func strings(_ text: String) throws {
        var out: [UInt8] = []
        JSONWriter.appendString(text, to: &out)
        let parsed = try JSONSerialization.jsonObject(with: Data(out), options: .fragmentsAllowed) as? String
        #expect(parsed == text)
        #expect(!out.contains { $0 < 0x20 })
    }
}

@Suite("MessageEncoder")
struct MessageEncoderTests {
    static let literal = MessageEncoder.sessionLiteral("s\"1")

    static func gesture(_ event: GestureEvent) -> [String: Any] {
        var out: [UInt8] = []
        MessageEncoder.appendGesture(event, sessionLiteral: literal, to: &out)
        return TestSupport.object(out) ?? [:]
    }

    /// A gesture message has the common fields first, then the gesture's own fields.
    @Test func swipe() {
        let event = GestureEvent(
            gesture: .swipe, phase: .ended, t: 1090.5, x: 300, y: 500.25, pointers: 1,
            detail: .swipe(SwipeFields(direction: .right, distance: 200, velocity: 1800.123456, duration: 90)))
        var out: [UInt8] = []
        MessageEncoder.appendGesture(event, sessionLiteral: Self.literal, to: &out)
        #expect(
            String(decoding: out, as: UTF8.self)
                == #"{"type":"gesture","session":"s\"1","gesture":"swipe","phase":"ended","t":1090.5,"x":300,"y":500.25,"pointers":1,"direction":"right","distance":200,"velocity":1800.123456,"duration":90,"ends":"drag"}"#
        )
    }

    /// Every detail shape encodes every field forEachField names, with JSON types to match.
    @Test func everyDetail() {
        let motion = MotionFields(
            startX: 1, startY: 2, dx: 3, dy: 4, ddx: 5, ddy: 6, vx: 7, vy: 8, predictedX: 9, predictedY: 10,
            predictedDx: 11, predictedDy: 12)
        let details: [(GestureKind, GestureDetail)] = [
            (.press, .pointer(id: 3, pointerType: .pen)), (.release, .release(id: 3, inside: false, duration: 12.5)),
            (.end, .end(reason: .cancel, duration: 40)), (.tap, .count(2)), (.doubleTap, .none), (.longPress, .duration(500)),
            (.drag, .motion(motion)), (.scroll, .scroll(ScrollFields(dx: 1, dy: 2, ddx: 3, ddy: 4, vx: 5, vy: 6))),
            (.pinch, .pinch(scale: 1.5, velocity: -0.25)), (.rotate, .rotate(angle: -60, velocity: 12)),
        ]
        for (kind, detail) in details {
            let event = GestureEvent(gesture: kind, phase: .began, t: 1, x: 2, y: 3, pointers: 2, detail: detail)
            let object = Self.gesture(event)
            #expect(object["type"] as? String == "gesture")
            #expect(object["session"] as? String == "s\"1")
            #expect(object["gesture"] as? String == kind.name)
            #expect(object["phase"] as? String == "began")
            #expect(object["pointers"] as? Int == 2)
            var names: [String] = []
            event.forEachField { name, value in
                names.append(name.description)
                switch value {
                case .number(let n): #expect((object[name.description] as? NSNumber)?.doubleValue == n)
                case .integer(let i): #expect(object[name.description] as? Int == i)
                case .bool(let b): #expect(object[name.description] as? Bool == b)
                case .name(let s): #expect(object[name.description] as? String == s)
                }
            }
            #expect(Set(object.keys) == Set(["type", "session", "gesture", "phase", "t", "x", "y", "pointers"] + names))
        }
    }

    /// welcome carries protocol 1, the session and every GestureConfig key with its value.
    @Test func welcome() {
        var config = GestureConfig()
        config.slop = 12.5
        var out: [UInt8] = []
        MessageEncoder.appendWelcome(session: "abc", config: config, control: .active(backend: "x11"), to: &out)
        let object = TestSupport.object(out) ?? [:]
        let control = object["control"] as? [String: Any] ?? [:]
        #expect(control["active"] as? Bool == true && control["backend"] as? String == "x11")
        var off: [UInt8] = []
        MessageEncoder.appendWelcome(session: "a", config: config, control: .inactive(reason: "no \"X\""), to: &off)
        let offControl = TestSupport.object(off)?["control"] as? [String: Any] ?? [:]
        #expect(offControl["active"] as? Bool == false && offControl["reason"] as? String == "no \"X\"")
        #expect(object["type"] as? String == "welcome")
        #expect(object["protocol"] as? Int == 1)
        #expect(object["session"] as? String == "abc")
        let sent = object["config"] as? [String: Any] ?? [:]
        #expect(Set(sent.keys) == Set(GestureConfig.keys))
        for key in GestureConfig.keys {
            #expect((sent[key] as? NSNumber)?.doubleValue == config.value(forKey: key), "\(key)")
        }
    }

    /// pong echoes the ping's number text verbatim; error and session notices have their fields.
    @Test func replies() {
        let frame = Array(#"{"type":"ping","t":123.4567890123}"#.utf8)
        var out: [UInt8] = []
        MessageEncoder.appendPong(frame: frame.span, echo: 19..<33, serverTime: 5000.5, to: &out)
        #expect(String(decoding: out, as: UTF8.self) == #"{"type":"pong","t":123.4567890123,"serverTime":5000.5}"#)

        out.removeAll()
        MessageEncoder.appendError(ProtocolError(.badField, "move: field \"x\" must be a finite number"), index: 2, to: &out)
        let error = TestSupport.object(out) ?? [:]
        #expect(error["code"] as? String == "bad_field")
        #expect(error["message"] as? String == "move: field \"x\" must be a finite number")
        #expect(error["index"] as? Int == 2)

        out.removeAll()
        MessageEncoder.appendSessionNotice(session: "s1", open: false, to: &out)
        #expect(String(decoding: out, as: UTF8.self) == #"{"type":"session","session":"s1","state":"closed"}"#)
    }

    /// held lists buttons left, right, middle whatever the press order, keys by W3C name in press order (escaped), and `until` only when set.
    @Test func held() {
        var out: [UInt8] = []
        let snapshot = HeldSnapshot(
            buttons: [.middle, .left], keys: [.named(.control), .character("\""), .character("中")], until: 1_234.5)
        MessageEncoder.appendHeld(snapshot, to: &out)
        #expect(
            String(decoding: out, as: UTF8.self)
                == #"{"type":"held","buttons":["left","middle"],"keys":["Control","\"","中"],"until":1234.5}"#)
        out.removeAll()
        MessageEncoder.appendHeld(HeldSnapshot(), to: &out)
        #expect(String(decoding: out, as: UTF8.self) == #"{"type":"held","buttons":[],"keys":[]}"#)
    }

    /// Every error code has its documented wire name.
    @Test func errorCodes() {
        #expect(
            ProtocolError.Code.allCases.map(\.name) == [
                "bad_json", "unknown_type", "bad_field", "hello_required", "too_many_pointers", "duplicate_hello",
                "observer_read_only", "control_off", "seal_required", "media_unavailable",
            ])
    }
}
