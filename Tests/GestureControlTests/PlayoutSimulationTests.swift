import GestureControl
import Testing

/// The playout on the links of issue 41, on a virtual clock: what a 60 Hz display shows of a
/// stroke (tests/wifi checks the same at the real X server). Five seeded links per profile;
/// the targets are the issue's, judged on the mean over the seeds, with no seed far off.
struct PlayoutSimulationTests {
    static let seeds: [UInt64] = [1, 2, 3, 4, 5]

    @Test(arguments: LinkProfile.allCases)
    func strokeEndsExactlyAndGlides(_ profile: LinkProfile) {
        let results = Self.seeds.map { StrokeThroughLink.run(profile, seed: $0) }
        let frozen = results.map(\.frozenShare).reduce(0, +) / Double(results.count)
        let p50 = results.map(\.latencyP50).reduce(0, +) / Double(results.count)
        let jump = results.map(\.largestJump).max() ?? 0
        let worstFrozen = results.map(\.frozenShare).max() ?? 0
        let summary = "\(profile): p50 \(p50) ms, frozen \(frozen) (worst \(worstFrozen)), jump \(jump)×"
        for r in results { #expect(r.finalX == r.strokeX, "\(summary)") }
        switch profile {
        case .loopback, .home:
            #expect(worstFrozen == 0, "\(summary)")
            #expect(p50 < 6, "\(summary)")
            #expect(jump <= 1.5, "\(summary)")
        case .busy, .loss:
            #expect(frozen <= 0.02, "\(summary)")
            #expect(worstFrozen <= 0.03, "\(summary)")
            #expect(jump <= 2, "\(summary)")
        case .powersave:
            #expect(frozen <= 0.10, "\(summary)")
            #expect(p50 <= 60, "\(summary)")
            #expect(jump <= 2, "\(summary)")
        }
    }

    /// The touchpad backend's stroke: one finger's contact, paced and — on a link that showed
    /// late frames — carried on along its velocity, placed back on the finger by the real
    /// frames; the same targets, the lift exactly where the finger lifted, and `t` never going
    /// back (the backend paces the frames it writes by it).
    @Test(arguments: LinkProfile.allCases)
    func aTouchpadContactGlidesToo(_ profile: LinkProfile) {
        let results = Self.seeds.map { StrokeThroughLink.run(profile, seed: $0, contacts: true) }
        let frozen = results.map(\.frozenShare).reduce(0, +) / Double(results.count)
        let p50 = results.map(\.latencyP50).reduce(0, +) / Double(results.count)
        let jump = results.map(\.largestJump).max() ?? 0
        let summary = "\(profile) contacts: p50 \(p50) ms, frozen \(frozen), jump \(jump)×"
        for r in results {
            #expect(r.finalX == r.strokeX, "\(summary)")
            #expect(r.contactTimeReversals == 0, "\(summary)")
        }
        switch profile {
        case .loopback, .home:
            #expect(frozen == 0 && p50 < 6 && jump <= 1.5, "\(summary)")
        case .busy, .loss:
            #expect(frozen <= 0.02 && jump <= 2, "\(summary)")
        case .powersave:
            #expect(frozen <= 0.10 && p50 <= 60 && jump <= 2, "\(summary)")
        }
    }

    /// The same links without the jitter buffer and prediction (frames carried out as they
    /// arrive, as every backend but the touchpad did before): the model shows the failure
    /// the issue measured, so the test above can fail.
    @Test func withoutPlayoutTheBurstsFreezeAndJump() {
        let asArrived = PlayoutConfig(
            catchUp: 0, maxHold: 0, tolerance: .infinity, maxDelay: 0, maxPrediction: 0)
        let results = Self.seeds.map { StrokeThroughLink.run(.powersave, seed: $0, config: asArrived) }
        let frozen = results.map(\.frozenShare).reduce(0, +) / Double(results.count)
        #expect(frozen > 0.5)
        #expect((results.map(\.largestJump).max() ?? 0) > 4)
    }
}
