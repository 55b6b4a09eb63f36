import Testing

@testable import GesturePadHost

/// What `wpctl get-volume` prints, read (`ComputerSound.parse`); the real `wpctl` against a
/// real PipeWire is tests/media/test_media_computer.py's.
struct ComputerSoundTests {
    @Test func wpctlLines() {
        #expect(ComputerSound.parse("Volume: 0.40\n") == .init(volume: 0.4, muted: false))
        #expect(ComputerSound.parse("Volume: 0.40 [MUTED]\n") == .init(volume: 0.4, muted: true))
        #expect(ComputerSound.parse("Volume: 1.50") == .init(volume: 1, muted: false))  // above 100 %: shown full
        #expect(ComputerSound.parse("") == nil)
        #expect(ComputerSound.parse("Error: no default sink") == nil)
        #expect(ComputerSound.parse("Volume: -1") == nil && ComputerSound.parse("Volume: nan") == nil)
    }
}
