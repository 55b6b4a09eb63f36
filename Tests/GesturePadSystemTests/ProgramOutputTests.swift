import Glibc
import Testing

@testable import GesturePadSystem

/// `ProgramOutput`: a short program's output, or nil when it fails, floods or overstays — with
/// one deadline for the output and the exit, so a program that closes its output and lingers
/// cannot hold the caller (the media thread, the touchpad settings' worker).
@Suite struct ProgramOutputTests {
    /// What a program prints, when it exits with status 0.
    @Test func readsWhatItPrints() {
        #expect(ProgramOutput.read("sh", arguments: ["-c", "printf 'volume: 0.45'"]) == Array("volume: 0.45".utf8))
        #expect(ProgramOutput.read("sh", arguments: ["-c", "echo partial; exit 3"]) == nil)
        #expect(ProgramOutput.read("/nonexistent/tool", arguments: []) == nil)
    }

    /// Output cut short by the limit, or a program that closes its output and stays: nil, within
    /// the deadline (a 5 s sleep stands for a program that hangs; it is killed).
    @Test func floodsAndStragglersAreCutOff() {
        #expect(ProgramOutput.read("sh", arguments: ["-c", "yes"], limit: 64 * 1_024) == nil)
        let began = MonotonicClock.nowMilliseconds()
        #expect(ProgramOutput.read("sh", arguments: ["-c", "echo early; exec >&-; exec sleep 5"], timeoutMilliseconds: 200) == nil)
        #expect(MonotonicClock.nowMilliseconds() - began < 4_000)
    }
}
