import GestureControl
import GestureEngine
import Testing

@testable import GestureProtocol

/// `replay --actions`: the mapping's actions, each with the page time it was taken at.
struct ReplayControlTests {
    static var flat: ControlSettings {
        var s = ControlSettings()
        s.acceleration = .flat
        return s
    }

    /// A one-finger tap presses at once and releases at its deadline (up + multiTapInterval), not at the end of the file.
    @Test func tapReleaseCarriesItsDeadline() {
        var host = ReplayHost(control: Self.flat)
        let (out, err) = replay([TestSupport.hello, TestSupport.down(1, t: 1000), TestSupport.up(1, t: 1060)], host: &host)
        #expect(err.isEmpty)
        #expect(
            out == [
                #"{"action":"button","t":1060,"button":"left","state":"down"}"#,
                #"{"action":"button","t":1360,"button":"left","state":"up"}"#,
            ])
    }

    /// Motion, keyboard commands and text come out in order; the gesture lines do not.
    @Test func motionAndCommands() {
        var host = ReplayHost(control: Self.flat)
        let (out, _) = replay(
            [
                TestSupport.hello, TestSupport.down(1, t: 1000), TestSupport.move(1, t: 1010, x: 103.5),
                TestSupport.move(1, t: 1020, x: 106), TestSupport.up(1, t: 1400, x: 106),
                #"{"type":"key","key":"c","modifiers":["Control"]}"#, #"{"type":"text","text":"hé"}"#,
            ], host: &host)
        #expect(out.first == #"{"action":"motion","t":1010,"dx":3,"dy":0}"#)
        #expect(out.contains(#"{"action":"motion","t":1020,"dx":3,"dy":0}"#))
        #expect(
            out.suffix(5) == [
                #"{"action":"key","t":1400,"key":"Control","state":"down"}"#,
                #"{"action":"key","t":1400,"key":"c","state":"down"}"#,
                #"{"action":"key","t":1400,"key":"c","state":"up"}"#,
                #"{"action":"key","t":1400,"key":"Control","state":"up"}"#,
                #"{"action":"text","t":1400,"text":"hé"}"#,
            ])
        #expect(!out.contains { $0.contains("gesture") })
    }

    /// Without --control, control messages are refused on stderr and gestures print as before.
    @Test func withoutControl() {
        var host = ReplayHost()
        let (out, err) = replay([TestSupport.hello, #"{"type":"text","text":"x"}"#, TestSupport.down(1, t: 5)], host: &host)
        #expect(err.count == 1 && err[0].contains("control_off"))
        #expect(out.first?.contains(#""gesture":"press""#) == true)
    }
}
