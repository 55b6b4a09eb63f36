import GestureControl
import GestureEngine
import Testing

/// Gestures a hook claims (`ControlSettings.claims`) are the hook's alone: the mapping does
/// not act on them, and holds a tap's click back while a claim may still take it
/// (docs/control-mapping.md "Claimed gestures"). Virtual clock: a two-finger tap at `t` lifts
/// its last finger at `t` + 51, so its sequence ends at `t` + 351.
struct ClaimTests {
    static func claiming(_ claims: GestureClaim...) -> MapperDriver {
        MapperDriver { $0.claims = GestureClaims(claims) }
    }

    static let twoFingerDoubleTap = GestureClaim(gestures: [.doubleTap], pointers: 2)

    /// Unclaimed (the default), a two-finger double tap right-clicks twice, the first at once.
    @Test func unclaimedDoubleTapClicksTwice() {
        var d = MapperDriver()
        d.tap(fingers: 2, at: 0)
        #expect(d.take() == [.button(.right, .down), .button(.right, .up)])
        d.tap(fingers: 2, at: 200)
        d.advance(to: 2000)
        #expect(d.take() == [.button(.right, .down), .button(.right, .up)])
        #expect(d.events.contains { $0.gesture == .doubleTap })
    }

    /// A claimed two-finger double tap right-clicks not at all: the first tap's click waits,
    /// then goes with the double tap.
    @Test func claimedDoubleTapClicksNothing() {
        var d = Self.claiming(Self.twoFingerDoubleTap)
        d.tap(fingers: 2, at: 0)
        #expect(d.take().isEmpty)
        #expect(d.mapper.nextDeadline == 351)
        d.tap(fingers: 2, at: 200)
        #expect(d.events.contains { $0.gesture == .doubleTap && $0.pointers == 2 })
        #expect(d.mapper.nextDeadline == nil)
        d.advance(to: 5000)
        #expect(d.actions.isEmpty)
    }

    /// A claimed double tap that turns out to be a single tap right-clicks late, exactly at the
    /// sequence's end (last up + multiTapInterval), not 0.1 ms before.
    @Test func singleTapOfAClaimedDoubleTapClicksAtTheDeadline() {
        var d = Self.claiming(Self.twoFingerDoubleTap)
        d.tap(fingers: 2, at: 0)
        d.advance(to: 350.9)
        #expect(d.take().isEmpty)
        d.advance(to: 351)
        #expect(d.take() == [.button(.right, .down), .button(.right, .up)])
        #expect(d.mapper.nextDeadline == nil && !d.mapper.isHolding)
        d.advance(to: 5000)
        #expect(d.take().isEmpty)
    }

    /// An input at or after the deadline carries the held click out first.
    @Test func laterInputDecidesFirst() {
        var d = Self.claiming(Self.twoFingerDoubleTap)
        d.tap(fingers: 2, at: 0)
        d.down(1, 100, 100, t: 400)
        #expect(d.take() == [.button(.right, .down), .button(.right, .up)])
    }

    /// A contact started in time that is no tap (a two-finger scroll) decides at its end: the
    /// held click comes then, after the scroll's wheel.
    @Test func contactThatIsNoTapDecidesAtItsEnd() {
        var d = Self.claiming(Self.twoFingerDoubleTap)
        d.tap(fingers: 2, at: 0)
        d.down(1, 110, 300, t: 150)
        d.down(2, 160, 300, t: 151)
        for step in 1...20 {
            let s = Double(step)
            d.moveFingers([(1, 110, 300 - 10 * s), (2, 160, 300 - 10 * s)], t: 160 + 20 * s)
        }
        d.advance(to: 1000)  // past the deadline: the contact is still down, nothing decided
        #expect(d.take().presses.isEmpty)
        d.up(1, 110, 100, t: 1100)
        d.up(2, 160, 100, t: 1101)
        #expect(d.take().presses == [.button(.right, .down), .button(.right, .up)])
    }

    /// A one-finger tap after a claimed two-finger tap starts a new sequence: the held right
    /// click comes first, then the left one.
    @Test func otherFingersStartANewSequence() {
        var d = MapperDriver {
            $0.claims = GestureClaims([Self.twoFingerDoubleTap])
            $0.tapAndDrag = false
        }
        d.tap(fingers: 2, at: 0)
        d.tap(1, 115, 300, at: 150)
        #expect(d.take() == [.button(.right, .down), .button(.right, .up), .button(.left, .down), .button(.left, .up)])
    }

    /// A bounce (a contact less than multiTapMinInterval after the tap's up) leaves the
    /// sequence waiting for its deadline: the real second tap after it is still the double tap.
    @Test func bounceKeepsWaiting() {
        var d = Self.claiming(Self.twoFingerDoubleTap)
        d.tap(fingers: 2, at: 0)
        d.tap(fingers: 2, at: 60)  // starts 9 ms after the up at 51
        #expect(d.mapper.nextDeadline == 351)
        d.tap(fingers: 2, at: 250)
        d.advance(to: 5000)
        #expect(d.actions.isEmpty)
    }

    /// A triple tap whose double tap is claimed: the third tap is a tap again and clicks.
    @Test func thirdTapClicks() {
        var d = Self.claiming(Self.twoFingerDoubleTap)
        d.tap(fingers: 2, at: 0)
        d.tap(fingers: 2, at: 200)
        d.tap(fingers: 2, at: 400)
        #expect(d.take() == [.button(.right, .down), .button(.right, .up)])
    }

    /// The claim is of two fingers: a one-finger double tap clicks as always.
    @Test func otherFingerCountsAreNotClaimed() {
        var d = Self.claiming(Self.twoFingerDoubleTap)
        d.tap(1, 100, 100, at: 0)
        #expect(d.take() == [.button(.left, .down)])
    }

    /// `tap` with `count: 3` claims a triple tap: the first two taps wait, all three click
    /// nothing; two taps only click twice, late.
    @Test func tripleTapClaim() {
        let claim = GestureClaim(gestures: [.tap], pointers: 2, count: 3)
        var d = Self.claiming(claim)
        d.tap(fingers: 2, at: 0)
        d.tap(fingers: 2, at: 200)
        d.tap(fingers: 2, at: 400)
        d.advance(to: 5000)
        #expect(d.actions.isEmpty)
        var two = Self.claiming(claim)
        two.tap(fingers: 2, at: 0)
        two.tap(fingers: 2, at: 200)
        #expect(two.take().isEmpty)
        two.advance(to: 551)
        let click: [HostAction] = [.button(.right, .down), .button(.right, .up)]
        #expect(two.take() == click + click)
    }

    /// `tap` without a count claims every tap of its fingers, at once: nothing waits.
    @Test func everyTapClaim() {
        var d = Self.claiming(GestureClaim(gestures: [.tap], pointers: 3))
        d.tap(fingers: 3, at: 0)
        #expect(d.mapper.nextDeadline == nil)
        d.tap(fingers: 3, at: 200)
        d.tap(fingers: 2, at: 1000)
        #expect(d.take() == [.button(.right, .down), .button(.right, .up)])
    }

    /// A claimed `singleTapConfirmed`: a single tap clicks nothing; a double tap clicks twice,
    /// the first late (at the second tap).
    @Test func singleTapConfirmedClaim() {
        var d = Self.claiming(GestureClaim(gestures: [.singleTapConfirmed], pointers: 2))
        d.tap(fingers: 2, at: 0)
        d.advance(to: 5000)
        #expect(d.events.contains { $0.gesture == .singleTapConfirmed })
        #expect(d.take().isEmpty)
        d.tap(fingers: 2, at: 6000)
        #expect(d.take().isEmpty)
        d.tap(fingers: 2, at: 6200)
        let click: [HostAction] = [.button(.right, .down), .button(.right, .up)]
        #expect(d.take() == click + click)
    }

    /// `releaseAll` (the phone went away) drops a held click: nothing clicks afterwards.
    @Test func releaseAllDropsHeldClicks() {
        var d = Self.claiming(Self.twoFingerDoubleTap)
        d.tap(fingers: 2, at: 0)
        d.releaseAll()
        d.advance(to: 5000)
        #expect(d.actions.isEmpty)
        #expect(d.mapper.nextDeadline == nil)
    }

    /// A contact started in time and cancelled is no tap: the held click comes at the cancel.
    @Test func cancelledContactDecides() {
        var d = Self.claiming(Self.twoFingerDoubleTap)
        d.tap(fingers: 2, at: 0)
        d.down(1, 110, 300, t: 150)
        d.cancel(nil, t: 160)
        #expect(d.take().presses == [.button(.right, .down), .button(.right, .up)])
        #expect(d.mapper.nextDeadline == nil && !d.mapper.isHolding)
    }

    /// A claimed two-finger scroll wheels nothing; a claimed pinch zooms nothing.
    @Test func claimedScrollAndPinch() {
        var scroll = Self.claiming(GestureClaim(gestures: [.scroll]))
        ScrollZoomTests.twoFingers(&scroll)
        ScrollZoomTests.scroll(&scroll, dx: 0, dy: -12, steps: 10)
        scroll.up(1, 100, 180, t: 200)
        scroll.up(2, 200, 180, t: 201)
        #expect(scroll.events.contains { $0.gesture == .scroll })
        #expect(scroll.actions.wheel == (0, 0))
        #expect(!scroll.actions.contains(.wheelStop))
        var pinch = Self.claiming(GestureClaim(gestures: [.pinch]))
        pinch.down(1, 150, 400, t: 0)
        pinch.down(2, 250, 400, t: 1)
        for step in 1...10 {
            let s = Double(step)
            pinch.moveFingers([(1, 150 - 10 * s, 400), (2, 250 + 10 * s, 400)], t: 10 + 16 * s)
        }
        pinch.up(1, 50, 400, t: 300)
        pinch.up(2, 350, 400, t: 301)
        #expect(pinch.events.contains { $0.gesture == .pinch })
        #expect(pinch.actions.presses.isEmpty)
        #expect(pinch.actions.wheel == (0, 0))
    }

    /// A claimed three-finger swipe left presses no keys; a swipe right still does.
    @Test func claimedSwipeByDirection() {
        var d = Self.claiming(GestureClaim(gestures: [.swipe], pointers: 3, direction: .left))
        SwipeKeyTests.swipe(&d, dx: -20, dy: 0)
        #expect(d.take().presses.isEmpty)
        SwipeKeyTests.swipe(&d, dx: 20, dy: 0, at: 2000)
        #expect(!d.take().presses.isEmpty)
    }

    /// A claimed long press drags nothing: no button goes down.
    @Test func claimedLongPressDrag() {
        var d = Self.claiming(GestureClaim(gestures: [.longPressDrag]))
        d.down(1, 100, 100, t: 0)
        d.advance(to: 600)
        d.stroke(from: (100, 100), to: (200, 100), start: 600, duration: 200, steps: 10)
        d.up(1, 200, 100, t: 900)
        #expect(d.events.contains { $0.gesture == .longPressDrag })
        #expect(d.actions.presses.isEmpty)
    }

    /// A claim with a session applies to that session's connection only.
    @Test func sessionClaims() {
        let claims = GestureClaims([
            GestureClaim(gestures: [.doubleTap], session: "a"), GestureClaim(gestures: [.pinch]),
        ])
        #expect(claims.only(session: "a") == claims)
        #expect(claims.only(session: "b") == GestureClaims([GestureClaim(gestures: [.pinch])]))
        #expect(ControlSettings().claims.isEmpty)
    }
}
