import Testing

@testable import GestureControl

/// One bound per setting (`NumberBound`): what it takes, how it is said, and the mapper holding
/// a speed set outside it to the bound too.
@Suite struct SettingBoundTests {
    /// Inclusive and exclusive ends, no upper end, and non-finite values.
    @Test func contains() {
        let speed = ControlSettings.speedBound
        #expect(speed.contains(0.1) && speed.contains(10) && !speed.contains(0.09) && !speed.contains(10.01))
        #expect(!speed.contains(.nan) && !speed.contains(.infinity))
        #expect(!NumberBound.positive.contains(0) && NumberBound.positive.contains(1e-9) && NumberBound.positive.contains(1e12))
        let day = NumberBound.above(0, atMost: 86_400)
        #expect(day.contains(86_400) && !day.contains(86_400.5) && !day.contains(0))
    }

    /// Messages and the docs say a bound one way.
    @Test func text() {
        #expect(ControlSettings.speedBound.text == "from 0.1 to 10")
        #expect(NumberBound.positive.text == "> 0" && NumberBound.above(1).text == "> 1")
        #expect(NumberBound.above(0, atMost: 86_400).text == "> 0 and ≤ 86400")
    }

    /// A speed the mapper is handed outside the bound moves as the nearer end: 0 as 0.1, 50 as
    /// 10; a non-finite one as 1.
    @Test func mapperHoldsSpeedToItsBound() {
        func dx(speed: Double) -> Int {
            var d = MapperDriver { s in
                s.acceleration = .flat
                s.speed = speed
            }
            d.down(1, 100, 100, t: 0)
            d.stroke(1, from: (100, 100), to: (200, 100), start: 0, duration: 100, steps: 10)
            return d.actions.motion.dx
        }
        #expect(dx(speed: 0) == 10 && dx(speed: 0.1) == 10)
        #expect(dx(speed: 50) == 1_000 && dx(speed: 10) == 1_000)
        #expect(dx(speed: .nan) == 100)
    }
}
