import Testing

@testable import GesturePadHost

/// When the touchpad's frames are written (`FramePacer`), on a virtual clock.
@Suite struct FramePacerTests {
    private func plan(_ pacer: inout FramePacer, _ ts: [Double], owner: Int = 1, at now: Double) -> [Double] {
        var times = ts
        pacer.plan(&times, owners: Array(repeating: owner, count: ts.count), arrivedAt: now)
        return times
    }

    /// One move per message, as fast as the finger made them: each is written at once.
    @Test func onTimeFramesWaitForNothing() {
        var pacer = FramePacer()
        for k in 0..<10 {
            let arrival = 1_000 + 8 * Double(k)
            #expect(plan(&pacer, [Double(8 * k)], at: arrival) == [arrival])
        }
    }

    /// A burst (frames that arrive together) is played from the first, which waits for
    /// nothing, at ¾ of the finger's spacing (catching up the delay it brought).
    @Test func burstIsSpacedByT() {
        var pacer = FramePacer()
        #expect(plan(&pacer, [0, 8, 16, 24], at: 500) == [500, 506, 512, 518])
        // The next message continues the timeline (frames still wait).
        #expect(plan(&pacer, [32], at: 501) == [524])
    }

    /// Two messages read together after a delay: the second is not written on the heels of
    /// the first.
    @Test func bunchedMessagesAreSpaced() {
        var pacer = FramePacer()
        #expect(plan(&pacer, [0], at: 100) == [100])
        #expect(plan(&pacer, [8], at: 100.2) == [106])
    }

    /// A frame that came a little late (under a quarter of the spacing) holds back nothing:
    /// the next, on time, is written as it arrives — one late frame's delay is not passed on.
    @Test func aLateFrameDoesNotDelayTheNext() {
        var pacer = FramePacer()
        #expect(plan(&pacer, [0], at: 1_000) == [1_000])
        #expect(plan(&pacer, [16], at: 1_019.5) == [1_019.5])  // 3.5 ms late
        #expect(plan(&pacer, [32], at: 1_032) == [1_032])  // on time: 12.5 ms after, ≥ ¾ of 16
        #expect(plan(&pacer, [48], at: 1_048) == [1_048])
    }

    /// A long delay is made up: once frames arrive on time again, the hold shrinks by a
    /// quarter of the spacing each frame (2 ms at 8 ms) and then vanishes.
    @Test func holdIsMadeUp() {
        var pacer = FramePacer()
        _ = plan(&pacer, [0], at: 120)  // late by 20
        var holds: [Double] = []
        for k in 1...12 {
            let arrival = 100 + 8 * Double(k)
            holds.append(plan(&pacer, [Double(8 * k)], at: arrival)[0] - arrival)
        }
        #expect(holds == [18, 16, 14, 12, 10, 8, 6, 4, 2, 0, 0, 0])
    }

    /// No frame is planned more than `maxHold` ahead: a longer burst is squeezed into it,
    /// order and proportions kept.
    @Test func burstIsBounded() {
        var pacer = FramePacer(maxHold: 100)
        let ts = (0..<31).map { Double($0) * 8 }  // 240 ms of t
        let dues = plan(&pacer, ts, at: 0)
        #expect(dues.first == 0 && dues.last == 100)
        #expect(zip(dues, dues.dropFirst()).allSatisfy { $0 < $1 })
        #expect(dues.allSatisfy { $0 <= 100 })
    }

    /// Another connection's frame is not spaced from the last one; a `t` going back keeps the
    /// order; after `reset` the next frame is written at once.
    @Test func ownersOrderAndReset() {
        var pacer = FramePacer()
        #expect(plan(&pacer, [0, 8], at: 0) == [0, 6])
        var times = [5.0]
        pacer.plan(&times, owners: [2], arrivedAt: 1)
        #expect(times == [6])
        #expect(plan(&pacer, [4], owner: 2, at: 2) == [6])
        pacer.reset()
        #expect(plan(&pacer, [100], owner: 2, at: 3) == [3])
    }
}
