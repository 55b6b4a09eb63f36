import GestureControl
import GestureEngine
import Testing

/// Whatever arrives, nothing is pressed twice, nothing released that is not held, and
/// `releaseAll` leaves nothing held (CONTROL.md "Nothing stays pressed on the computer").
struct RobustnessTests {
    /// A small deterministic generator (64-bit LCG), for reproducible input soups.
    struct Generator {
        var state: UInt64

        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }

        mutating func coordinate() -> Double {
            switch next(20) {
            case 0: return next(2) == 0 ? 1e6 : -1e6
            case 1: return Double(next(2_000_001)) - 1e6
            default: return Double(next(4000)) / 10
            }
        }
    }

    /// Random soups of touch, mouse and pen input, cancels, commands, settings changes and clock jumps up to 1e12 ms.
    @Test(arguments: 0..<40)
    func inputSoupStaysBalanced(seed: Int) {
        var g = Generator(state: UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 &+ 1)
        var d = MapperDriver { s in
            s.dragLock = seed % 2 == 0
            s.leftHanded = seed % 3 == 0
            s.zoomStep = seed % 5 == 0 ? 1.01 : 1.25
        }
        var t = 0.0
        var ledger = PressLedger()
        for _ in 0..<400 {
            let before = d.actions.count
            switch g.next(25) {
            case 0, 1, 2: t += 0
            case 3: t += Double(g.next(1_000_000_000_000))
            default: t += Double(g.next(400))
            }
            let ids = [1, 2, 3, 4, 10, 11]
            let id = ids[g.next(ids.count)]
            let type: PointerType = id == 10 ? .mouse : id == 11 ? .pen : .touch
            let buttons: Int? = type == .touch || g.next(3) == 0 ? nil : g.next(8)
            let sample = PointerSample(id: id, x: g.coordinate(), y: g.coordinate(), t: t, pointerType: type, buttons: buttons)
            switch g.next(16) {
            case 0, 1, 2: d.send(.down(sample))
            case 3, 4, 5, 6: d.send(.move(sample))
            case 7: d.frame([.move(sample), .move(PointerSample(id: 1, x: g.coordinate(), y: g.coordinate(), t: t))])
            case 8, 9: d.send(.up(sample))
            case 10: d.send(.cancel(id: g.next(3) == 0 ? nil : id, t: t))
            case 11: d.send(.leave(id: id, t: t))
            case 12: d.advance(to: t)
            case 13:
                let commands: [ControlCommand] = [
                    .button(.left, .down), .button(.right, .up), .button(.middle, .click), .button(.left, .up),
                    .key(.character("x"), modifiers: [.control, .shift]), .text("x"),
                ]
                d.command(commands[g.next(commands.count)])
            case 14:
                d.mapper.settings.leftHanded.toggle()
                d.mapper.settings.pinchZoom = g.next(2) == 0
                d.mapper.settings.dragLock.toggle()
            default:
                d.send(.clock(t: t))
            }
            ledger.absorb(d.actions[before...])
            #expect(ledger.problems.isEmpty)
            #expect(ledger.down.isEmpty == !d.mapper.isHolding)
        }
        let before = d.actions.count
        d.releaseAll()
        ledger.absorb(d.actions[before...])
        #expect(ledger.problems.isEmpty)
        #expect(ledger.down.isEmpty && !d.mapper.isHolding && d.mapper.nextDeadline == nil)
    }

    /// Coordinates of ±1e6, zero-dt moves and a 1e12 ms clock jump move the pointer without trapping.
    @Test func absurdCoordinatesAndTimes() {
        var d = MapperDriver { $0.speed = 1e9 }
        d.down(1, -1e6, -1e6, t: 0)
        d.move(1, 1e6, 1e6, t: 0)
        d.move(1, -1e6, 1e6, t: 0)
        d.move(1, 1e6, -1e6, t: 1e12)
        d.advance(to: 2e12)
        d.up(1, 1e6, -1e6, t: 2e12)
        for case .motion(let dx, let dy) in d.actions {
            #expect(abs(dx) <= 1_000_000 && abs(dy) <= 1_000_000)
        }
        d.down(2, 0, 0, t: 3e12)
        d.down(3, 1e-300, 0, t: 3e12)
        d.moveFingers([(2, -1e6, 0), (3, 1e6, 0)], t: 3e12 + 1)
        d.moveFingers([(2, 0, 1e6), (3, 0, -1e6)], t: 3e12 + 2)
        for case .wheel(let dx, let dy) in d.actions {
            #expect(dx.isFinite && dy.isFinite && abs(dx) <= 1000 && abs(dy) <= 1000)
        }
        d.releaseAll()
        #expect(d.actions.stillDown.isEmpty && !d.mapper.isHolding)
        #expect(d.actions.pressViolations.isEmpty)
    }

    /// releaseAll releases buttons and keys of gestures and commands, last pressed first, and ignores the fingers still down.
    @Test func releaseAllReleasesEverything() {
        var d = MapperDriver { $0.acceleration = .flat }
        d.command(.button(.middle, .down))
        d.down(1, 100, 300, t: 0)
        d.down(2, 200, 300, t: 10)
        d.moveFingers([(1, 50, 300), (2, 250, 300)], t: 30)  // pinch: Control held
        #expect(d.mapper.isHolding)
        _ = d.take()
        d.releaseAll()
        #expect(d.take() == [.key(.named(.control), .up), .button(.middle, .up)])
        d.moveFingers([(1, 20, 300), (2, 280, 300)], t: 50)
        d.up(1, 20, 300, t: 60)
        d.move(2, 300, 300, t: 70)
        d.up(2, 300, 300, t: 80)
        #expect(d.take().isEmpty)
        d.tap(1, 100, 100, at: 200)
        #expect(d.take().presses == [.button(.left, .down)])
    }

    /// releaseAll releases a mouse's buttons; its bitmask is ignored until its up.
    @Test func releaseAllReleasesMouseButtons() {
        var d = MapperDriver()
        d.down(5, 0, 0, t: 0, .mouse, buttons: 2)
        d.move(5, 0, 0, t: 10, .mouse, buttons: 6)
        d.releaseAll()
        #expect(d.actions == [.button(.right, .down), .button(.middle, .down), .button(.middle, .up), .button(.right, .up)])
        d.move(5, 10, 10, t: 20, .mouse, buttons: 2)
        d.up(5, 10, 10, t: 30, .mouse, buttons: 0)
        d.down(5, 10, 10, t: 40, .mouse, buttons: 1)
        #expect(d.actions.presses.suffix(1) == [.button(.left, .down)])
        #expect(d.actions.pressViolations.isEmpty)
    }

    /// A cancel releases what touch and device gestures hold, keeps what commands hold, and ignores the contact's fingers until their up.
    @Test func cancelReleasesGesturesOnly() {
        var d = MapperDriver { $0.acceleration = .flat }
        d.command(.button(.middle, .down))
        d.down(1, 100, 300, t: 0)
        d.down(2, 200, 300, t: 10)
        d.moveFingers([(1, 50, 300), (2, 250, 300)], t: 30)
        _ = d.take()
        d.cancel(2, t: 40)
        #expect(d.take() == [.key(.named(.control), .up)])
        #expect(d.mapper.isHolding)
        d.moveFingers([(1, 0, 300), (2, 300, 300)], t: 50)
        d.up(2, 300, 300, t: 60)
        d.move(1, 10, 300, t: 70)
        #expect(d.take().isEmpty)
        d.up(1, 10, 300, t: 80)
        d.down(3, 0, 0, t: 100)
        d.move(3, 5, 0, t: 110)
        #expect(d.take() == [.motion(dx: 5, dy: 0)])
    }

    /// Resize, clock and a touch leave only fire timers.
    @Test func otherInputsOnlyFireTimers() {
        var d = MapperDriver()
        d.tap(1, 100, 100, at: 0)
        _ = d.take()
        d.send(.resize(width: 100, height: 100))
        d.send(.leave(id: 1, t: 100))
        d.send(.clock(t: 349))
        #expect(d.take().isEmpty)
        d.send(.clock(t: 350))
        #expect(d.take() == [.button(.left, .up)])
    }
}
