import Foundation
import GestureEngine
import GesturePadSettings
import Testing

@testable import GesturePadSinks

@Suite struct GestureJSONTests {
    /// A drag event encodes as the protocol's gesture message with every common and own field.
    @Test func dragMessageHasEveryField() throws {
        let line = GestureJSON.string(Sample.drag(.changed, t: 123.5), session: "s1")
        let object = try #require(jsonObject(line))
        #expect(object["type"] as? String == "gesture")
        #expect(object["session"] as? String == "s1")
        #expect(object["gesture"] as? String == "drag")
        #expect(object["phase"] as? String == "changed")
        #expect(object["t"] as? Double == 123.5)
        #expect(object["pointers"] as? Int == 1)
        #expect(object["ddx"] as? Double == 1.5)
        #expect(object["vy"] as? Double == -120.25)
        #expect(object["predictedDy"] as? Double == -40)
        #expect(object["time"] == nil)
        #expect(object.count == 7 + 1 + 12)
    }

    /// Every gesture kind encodes to valid JSON whose own fields match the catalog.
    @Test func everyKindIsValidJSON() throws {
        for event in Sample.everyKind {
            let object = try #require(jsonObject(GestureJSON.string(event, session: "s")), "\(event.gesture)")
            for field in GestureCatalog.ownFields(of: event.gesture) {
                #expect(object[field] != nil, "\(event.gesture.name).\(field)")
            }
        }
    }

    /// Quotes, backslashes, newlines and control characters in the session id stay inside the string.
    @Test func sessionTextIsEscaped() throws {
        let nasty = "a\"b\\c\nd\u{01}e'$(rm -rf /)`x`;|&\u{7F}é😀"
        let line = GestureJSON.string(Sample.tap(), session: nasty)
        #expect(!line.contains("\n"))
        let object = try #require(jsonObject(line))
        #expect(object["session"] as? String == nasty)
        #expect(object["gesture"] as? String == "tap")
    }

    /// The wall-clock time is ISO-8601 UTC with milliseconds.
    @Test func timeIsISO8601() throws {
        let time = WallTime(epochMilliseconds: 1_795_326_524_123)  // 2026-11-22T05:48:44.123Z
        #expect(time.iso8601 == "2026-11-22T05:48:44.123Z")
        #expect(WallTime(epochMilliseconds: 0).iso8601 == "1970-01-01T00:00:00.000Z")
        #expect(WallTime(epochMilliseconds: 951_782_400_000).iso8601 == "2000-02-29T00:00:00.000Z")
        let object = try #require(jsonObject(GestureJSON.string(Sample.tap(), session: "s", time: time)))
        #expect(object["time"] as? String == "2026-11-22T05:48:44.123Z")
    }

    /// The ISO-8601 text agrees with Foundation's formatter for arbitrary instants.
    @Test func timeMatchesFoundation() {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        for ms: Int64 in [1, 86_399_999, 1_234_567_890_123, 4_102_444_800_000, 1_709_251_199_999] {
            let date = Date(timeIntervalSince1970: Double(ms) / 1000)
            #expect(WallTime(epochMilliseconds: ms).iso8601 == formatter.string(from: date))
        }
    }

    /// Numbers read as on the wire: integral without a fraction, others to at most 6 decimals.
    @Test func numbers() {
        #expect(GestureJSON.numberText(12) == "12")
        #expect(GestureJSON.numberText(-0.5) == "-0.5")
        #expect(GestureJSON.numberText(0.1 + 0.2) == "0.3")
        #expect(GestureJSON.numberText(-7.6) == "-7.6")
        #expect(GestureJSON.numberText(.infinity) == "null")
    }
}
