import GestureControl
import Testing

/// Key names and key combinations as the `key` message and the configuration spell them.
struct KeyCombinationTests {
    /// W3C names map to named keys; one printable character is a character key; anything else is refused.
    @Test func w3cNames() {
        #expect(HostKey(w3cName: "Enter") == .named(.enter))
        #expect(HostKey(w3cName: "AudioVolumeUp") == .named(.audioVolumeUp))
        #expect(HostKey(w3cName: "é") == .character("é"))
        #expect(HostKey(w3cName: " ") == .character(" "))
        #expect(HostKey(w3cName: "enter") == nil)
        #expect(HostKey(w3cName: "ab") == nil)
        #expect(HostKey(w3cName: "\u{7}") == nil)
        #expect(HostKey(w3cName: "") == nil)
    }

    /// Modifiers come first, aliases are accepted, the pressed key is last.
    @Test func parsesCombinations() {
        let c = KeyCombination(parsing: "Ctrl+Alt+Right")
        #expect(c == KeyCombination(modifiers: [.control, .alt], key: .named(.arrowRight)))
        #expect(KeyCombination(parsing: "Super")?.key == .named(.meta))
        #expect(KeyCombination(parsing: "Meta+d") == KeyCombination(modifiers: [.meta], key: .character("d")))
        #expect(KeyCombination(parsing: "Control++")?.key == .character("+"))
        #expect(KeyCombination(parsing: "a+Control") == nil)
        #expect(KeyCombination(parsing: "Control+") == nil)
        #expect(KeyCombination(parsing: "Hyper+x") == nil)
    }

    /// A combination presses its modifiers, taps the key, and releases the modifiers in reverse.
    @Test func actionsReleaseInReverse() {
        let c = KeyCombination(modifiers: [.control, .shift], key: .character("t"))
        #expect(
            c.actions == [
                .key(.named(.control), .down), .key(.named(.shift), .down), .key(.character("t"), .down),
                .key(.character("t"), .up), .key(.named(.shift), .up), .key(.named(.control), .up),
            ])
        #expect(c.description == "Control+Shift+t")
    }

    /// The adaptive curve never decreases and has no jumps.
    @Test func adaptiveCurveIsMonotonicAndContinuous() {
        let curve = AccelerationCurve()
        var last = curve.gain(atSpeed: 0)
        var v = 0.0
        while v < 5 {
            v += 0.001
            let g = curve.gain(atSpeed: v)
            #expect(g >= last)
            #expect(g - last < 0.01)
            last = g
        }
        #expect(curve.gain(atSpeed: -1) == curve.minimumGain)
        #expect(curve.gain(atSpeed: .nan) == curve.minimumGain)
        #expect(curve.gain(atSpeed: 100) == curve.maximumGain)
    }
}
