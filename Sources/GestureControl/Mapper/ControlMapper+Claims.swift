import GestureEngine

/// Gestures claimed by hooks (`settings.claims`): a claimed tap does not click, and the clicks of
/// the taps a claim may still take wait (`HeldTaps`) until the sequence is decided.
extension ControlMapper {
    /// Whether a long-press drag, scroll, pinch or swipe event is claimed: it is not mapped.
    func isClaimed(_ event: GestureEvent) -> Bool {
        !settings.claims.isEmpty && settings.claims.takes(event)
    }

    /// The claims' part in a `tap` that would click `button` (nil: it clicks nothing). Held
    /// clicks of an earlier sequence are decided first; a tap that continues the held sequence
    /// keeps them. Returns true when the tap's click is taken (claimed) or held back, false when
    /// it clicks as always.
    mutating func claimTap(_ event: GestureEvent, button: HostButton?, into actions: inout [HostAction]) -> Bool {
        guard !settings.claims.isEmpty || heldTaps != nil, case .count(let count) = event.detail else { return false }
        let fingers = event.pointers
        if let taps = heldTaps, count != taps.count + 1 || fingers != taps.fingers {
            decideHeldTaps(taps, into: &actions)
        }
        let claims = settings.claims
        if claims.takesTap(count: count, fingers: fingers) {
            heldTaps = nil
            return true
        }
        guard claims.mayTakeTap(count: count, fingers: fingers) else {
            // The sequence went past every claim: what it held is a plain click again.
            if let taps = heldTaps { carryOut(taps, into: &actions) }
            return false
        }
        heldTaps = HeldTaps(
            button: button, clicks: (heldTaps?.clicks ?? 0) + (button == nil ? 0 : 1), fingers: fingers, count: count,
            lastUpT: event.t, deadline: event.t + gestures.multiTapInterval)
        return true
    }

    /// The first finger of a touch contact went down at `t` (the deadline is still ahead:
    /// `advance` ran first): the held sequence now waits for this contact's end.
    mutating func heldTapsContactStarted(at t: Double) {
        guard var taps = heldTaps, taps.wait == .deadline else { return }
        taps.wait = t - taps.lastUpT < gestures.multiTapMinInterval ? .bounce : .contact
        heldTaps = taps
    }

    /// A touch contact ended at `t` (the engine's `end`). The sequence still waiting for it
    /// did not go on with a tap: a bounce goes back to its deadline (if still ahead), any other
    /// contact decides the sequence.
    mutating func heldTapsContactEnded(at t: Double, into actions: inout [HostAction]) {
        guard var taps = heldTaps, taps.wait != .deadline else { return }
        if taps.wait == .bounce, taps.deadline > t {
            taps.wait = .deadline
            heldTaps = taps
        } else {
            decideHeldTaps(taps, into: &actions)
        }
    }

    /// Fires the held sequence's deadline if due at or before `t`.
    mutating func advanceHeldTaps(to t: Double, into actions: inout [HostAction]) {
        guard let taps = heldTaps, let deadline = taps.pendingDeadline, deadline <= t else { return }
        decideHeldTaps(taps, into: &actions)
    }

    /// The held sequence ended: one tap whose `singleTapConfirmed` is claimed clicks nothing;
    /// otherwise its clicks come now.
    mutating func decideHeldTaps(_ taps: HeldTaps, into actions: inout [HostAction]) {
        if taps.count == 1, settings.claims.takesSingleTap(fingers: taps.fingers) {
            heldTaps = nil
        } else {
            carryOut(taps, into: &actions)
        }
    }

    /// The held clicks, each down and up.
    private mutating func carryOut(_ taps: HeldTaps, into actions: inout [HostAction]) {
        heldTaps = nil
        guard let button = taps.button else { return }
        for _ in 0..<taps.clicks {
            held.press(.button(button), by: .touch, into: &actions)
            held.release(.button(button), by: .touch, into: &actions)
        }
    }
}
