import Foundation
import GestureEngine
import GesturePadTestSupport
import Testing

@testable import GestureProtocol

/// The fast gesture encoder (pre-encoded keys, numbers written in place) against plain
/// references: the number format as it was written before (through `String`), and the field
/// list of `GestureEvent.forEachField`.
@Suite("Gesture encoding")
struct GestureEncodingTests {
    /// The number format before the fast writer, through `String`: integral values below 9e18
    /// as integers, others below 1e12 rounded to 6 decimals without trailing zeros, larger ones
    /// in Swift's shortest form, non-finite ones as `null`.
    static func referenceNumber(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        let magnitude = abs(value)
        if magnitude < 9e18, value.rounded(.towardZero) == value { return String(Int(value)) }
        guard magnitude < 1e12 else { return value.description }
        let scaled = Int((magnitude * 1_000_000).rounded())
        guard scaled != 0 else { return "0" }
        var text = (value < 0 ? "-" : "") + String(scaled / 1_000_000)
        var fraction = String(scaled % 1_000_000)
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        if !fraction.isEmpty { text += "." + fraction }
        return text
    }

    static func number(_ value: Double) -> String {
        var out: [UInt8] = []
        JSONWriter.appendNumber(value, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Numbers read exactly as before, across magnitudes, fractions, halves and edges.
    @Test func numbersAsBefore() {
        var generator = SeededGenerator.forTests()
        var values: [Double] = [
            0, -0.0, 0.5, -0.5, 1.5, 2.5, 0.0000005, 0.0000015, 99_999_999, 100_000_000, 100_000_000.25,
            99_999_999.9999996, 123_456_789_012.345678, 999_999_999_999.9999, 1e12, 1e12 + 0.5, 1e16, 1e18, 9e18,
            -9e18, 1e19, 1e300, 5e-324, .greatestFiniteMagnitude, .infinity, -.infinity, .nan,
            4_503_599_627_370_495.5, 4_503_599_627_370_496, Double(Int.max), -Double(Int.max),
        ]
        for _ in 0..<20_000 {
            let scale = [1, 10, 1000, 1e6, 1e9, 1e12, 1e15][Int.random(in: 0..<7, using: &generator)]
            values.append(Double.random(in: -1...1, using: &generator) * scale)
            values.append((Double.random(in: -1e6...1e6, using: &generator) * 1000).rounded() / 1000)
            values.append(Double(Int.random(in: -1_000_000_000...1_000_000_000, using: &generator)) + 0.5)
        }
        for value in values {
            #expect(Self.number(value) == Self.referenceNumber(value), "\(value)")
        }
    }

    /// Integers of every length read as `String(_:)` writes them.
    @Test func integersOfEveryLength() {
        var value = 1
        for _ in 0..<19 {
            for candidate in [value, value - 1, value + 1, -value, 7 * value / 3] {
                var out: [UInt8] = []
                JSONWriter.appendInteger(candidate, to: &out)
                #expect(String(decoding: out, as: UTF8.self) == String(candidate))
            }
            if value <= Int.max / 10 { value *= 10 }
        }
    }

    /// The reference message: the common fields, then every own field as `forEachField` lists it.
    static func referenceMessage(_ event: GestureEvent, session: String) -> String {
        var text = #"{"type":"gesture","session":"#
        var literal: [UInt8] = []
        JSONWriter.appendString(session, to: &literal)
        text += String(decoding: literal, as: UTF8.self)
        text += #","gesture":"\#(event.gesture.name)","phase":"\#(event.phase.name)","t":\#(referenceNumber(event.t))"#
        text += #","x":\#(referenceNumber(event.x)),"y":\#(referenceNumber(event.y)),"pointers":\#(event.pointers)"#
        event.forEachField { name, value in
            text += #","\#(name)":"#
            switch value {
            case .number(let n): text += referenceNumber(n)
            case .integer(let i): text += String(i)
            case .bool(let b): text += b ? "true" : "false"
            case .name(let s): text += #""\#(s)""#
            }
        }
        return text + "}"
    }

    static func randomDetail(_ shape: GestureDetail, _ generator: inout some RandomNumberGenerator) -> GestureDetail {
        func n() -> Double { Double.random(in: -5000...5000, using: &generator) }
        switch shape {
        case .pointer:
            return .pointer(
                id: Int.random(in: 0...99, using: &generator), pointerType: .allCases.randomElement(using: &generator) ?? .touch)
        case .release: return .release(id: 3, inside: Bool.random(using: &generator), duration: n())
        case .end: return .end(reason: .allCases.randomElement(using: &generator) ?? .release, duration: n())
        case .count: return .count(Int.random(in: 1...9, using: &generator))
        case .none: return .none
        case .duration: return .duration(n())
        case .motion:
            return .motion(
                MotionFields(
                    startX: n(), startY: n(), dx: n(), dy: n(), ddx: n(), ddy: n(), vx: n(), vy: n(), predictedX: n(),
                    predictedY: n(), predictedDx: n(), predictedDy: n()))
        case .scroll: return .scroll(ScrollFields(dx: n(), dy: n(), ddx: n(), ddy: n(), vx: n(), vy: n()))
        case .swipe:
            return .swipe(
                SwipeFields(
                    direction: .allCases.randomElement(using: &generator) ?? .up, distance: n(), velocity: n(), duration: n()))
        case .pinch: return .pinch(scale: n(), velocity: n())
        case .rotate: return .rotate(angle: n(), velocity: n())
        }
    }

    /// Every gesture, phase and detail shape encodes exactly as the reference, for the page
    /// and as a log line with `time`.
    @Test func messagesAsReference() throws {
        var generator = SeededGenerator.forTests()
        let session = "s\"1\n"
        let literal = MessageEncoder.sessionLiteral(session)
        for shape in GestureDetail.samples {
            for kind in GestureKind.allCases {
                for phase in GesturePhase.allCases {
                    let event = GestureEvent(
                        gesture: kind, phase: phase, t: Double.random(in: 0...1e7, using: &generator),
                        x: Double.random(in: -10...900, using: &generator), y: 844, pointers: 2,
                        detail: Self.randomDetail(shape, &generator))
                    let expected = Self.referenceMessage(event, session: session)
                    var page: [UInt8] = [0x41]
                    MessageEncoder.appendGesture(event, sessionLiteral: literal, to: &page)
                    #expect(String(decoding: page.dropFirst(), as: UTF8.self) == expected)
                    var log: [UInt8] = []
                    MessageEncoder.appendGesture(event, session: session, time: FixedTime(), to: &log)
                    #expect(String(decoding: log, as: UTF8.self) == expected.dropLast() + #","time":"T"}"#)
                    var untimed: [UInt8] = []
                    MessageEncoder.appendGesture(event, session: session, time: FixedTime?.none, to: &untimed)
                    #expect(String(decoding: untimed, as: UTF8.self) == expected)
                }
            }
        }
    }

    /// The general path (a name too long for the fast path's room) writes the same fields.
    @Test func slowPathAsReference() {
        var generator = SeededGenerator.forTests()
        for shape in GestureDetail.samples {
            let event = GestureEvent(
                gesture: .drag, phase: .changed, t: 1, x: 2, y: 3, pointers: 1, detail: Self.randomDetail(shape, &generator))
            var fast: [UInt8] = []
            MessageEncoder.appendGesture(event, sessionLiteral: MessageEncoder.sessionLiteral("s"), to: &fast)
            var slow: [UInt8] = []
            MessageEncoder.appendOwnFieldsSlowly(event, keys: GestureFragments.shared.keys[event.detail.shape], to: &slow)
            let text = String(decoding: fast, as: UTF8.self)
            #expect(text.hasSuffix(String(decoding: slow, as: UTF8.self) + "}"))
        }
    }

    struct FixedTime: GestureLogTime {
        func appendISO8601(into out: inout [UInt8]) { out.append(UInt8(ascii: "T")) }
    }
}
