import Testing

@testable import GesturePadHost

@Suite struct WheelAccumulatorTests {
    /// Half detents add up: 60 units each, the detent on the second.
    @Test func halfDetentsMakeOneDetentOnTheSecond() {
        var wheel = WheelAccumulator()
        #expect(wheel.add(0.5) == .init(highResolution: 60, detents: 0))
        #expect(wheel.add(0.5) == .init(highResolution: 60, detents: 1))
    }

    /// Ten tenths make exactly one detent, despite 0.1 not being exact in binary.
    @Test func tenthsAddUpExactly() {
        var wheel = WheelAccumulator()
        var units = 0
        var detents = 0
        for _ in 0..<10 {
            let steps = wheel.add(0.1)
            units += steps.highResolution
            detents += steps.detents
        }
        #expect(units == 120)
        #expect(detents == 1)
    }

    /// Negative amounts give negative steps; a reversal cancels what was carried.
    @Test func signsAndReversal() {
        var wheel = WheelAccumulator()
        #expect(wheel.add(-2.5) == .init(highResolution: -300, detents: -2))
        #expect(wheel.add(0.25) == .init(highResolution: 30, detents: 0))
        #expect(wheel.add(-0.25) == .init(highResolution: -30, detents: 0))
        #expect(wheel.add(-0.5) == .init(highResolution: -60, detents: -1))
    }

    /// Fractions below one unit are carried, not lost.
    @Test func subUnitFractionsAreCarried() {
        var wheel = WheelAccumulator()
        var units = 0
        for _ in 0..<1_200 { units += wheel.add(0.001).highResolution }
        #expect(units == 144)
    }

    /// Non-finite amounts do nothing; huge ones are clamped.
    @Test func bogusAmounts() {
        var wheel = WheelAccumulator()
        #expect(wheel.add(.nan) == .init(highResolution: 0, detents: 0))
        #expect(wheel.add(.infinity) == .init(highResolution: 0, detents: 0))
        #expect(wheel.add(1e12).detents == Int(WheelAccumulator.maximumDetentsPerAction))
    }
}
