import GestureEngine

/// Gestures claimed by hooks (`settings.claims`; docs/control-mapping.md "Claimed gestures"): a
/// claimed tap does not click, and the clicks of the taps a claim may still take wait
/// (`HeldTaps`) until the sequence is decided. It owns that waiting sequence; the clicks it lets
/// go of are pressed and released through the mapper's record of what is held.
struct TapClaimHold: Sendable {
    private let multiTapInterval: Double
    private let multiTapMinInterval: Double
    private var taps: HeldTaps? = nil

    init(gestures: GestureConfig) {
        multiTapInterval = gestures.multiTapInterval
        multiTapMinInterval = gestures.multiTapMinInterval
    }

    /// The end of a sequence whose clicks wait, if one waits for its deadline.
    var deadline: Double? { taps?.pendingDeadline }

    /// Whether clicks wait (the next tap must be weighed against them even with no claims).
    var isHolding: Bool { taps != nil }

    /// The claims' part in a `tap` that would click `button` (nil: it clicks nothing). Held
    /// clicks of an earlier sequence are decided first; a tap that continues the held sequence
    /// keeps them. Returns true when the tap's click is taken (claimed) or held back, false when
    /// it clicks as always.
    mutating func claimTap(
        _ event: GestureEvent, button: HostButton?, claims: GestureClaims, held: inout HeldInputs,
        into actions: inout [HostAction]
    ) -> Bool {
        guard !claims.isEmpty || taps != nil, case .count(let count) = event.detail else { return false }
        let fingers = event.pointers
        if let waiting = taps, count != waiting.count + 1 || fingers != waiting.fingers {
            decide(waiting, claims: claims, held: &held, into: &actions)
        }
        if claims.takesTap(count: count, fingers: fingers) {
            taps = nil
            return true
        }
        guard claims.mayTakeTap(count: count, fingers: fingers) else {
            // The sequence went past every claim: what it held is a plain click again.
            if let waiting = taps { carryOut(waiting, held: &held, into: &actions) }
            return false
        }
        taps = HeldTaps(
            button: button, clicks: (taps?.clicks ?? 0) + (button == nil ? 0 : 1), fingers: fingers, count: count,
            lastUpT: event.t, deadline: event.t + multiTapInterval)
        return true
    }

    /// The first finger of a touch contact went down at `t` (the deadline is still ahead:
    /// `advance` ran first): the held sequence now waits for this contact's end.
    mutating func contactStarted(at t: Double) {
        guard var waiting = taps, waiting.wait == .deadline else { return }
        waiting.wait = t - waiting.lastUpT < multiTapMinInterval ? .bounce : .contact
        taps = waiting
    }

    /// A touch contact ended at `t` (the engine's `end`). The sequence still waiting for it
    /// did not go on with a tap: a bounce goes back to its deadline (if still ahead), any other
    /// contact decides the sequence.
    mutating func contactEnded(
        at t: Double, claims: GestureClaims, held: inout HeldInputs, into actions: inout [HostAction]
    ) {
        guard var waiting = taps, waiting.wait != .deadline else { return }
        if waiting.wait == .bounce, waiting.deadline > t {
            waiting.wait = .deadline
            taps = waiting
        } else {
            decide(waiting, claims: claims, held: &held, into: &actions)
        }
    }

    /// The contact was cancelled: a sequence still waiting for it is decided (its `end`
    /// usually did it).
    mutating func contactCancelled(claims: GestureClaims, held: inout HeldInputs, into actions: inout [HostAction]) {
        guard let waiting = taps, waiting.wait != .deadline else { return }
        decide(waiting, claims: claims, held: &held, into: &actions)
    }

    /// Fires the held sequence's deadline if due at or before `t`.
    mutating func advance(
        to t: Double, claims: GestureClaims, held: inout HeldInputs, into actions: inout [HostAction]
    ) {
        guard let waiting = taps, let deadline = waiting.pendingDeadline, deadline <= t else { return }
        decide(waiting, claims: claims, held: &held, into: &actions)
    }

    /// Drops what waits: nothing clicks after the phone went away (`releaseAll`).
    mutating func drop() {
        taps = nil
    }

    /// The held sequence ended: one tap whose `singleTapConfirmed` is claimed clicks nothing;
    /// otherwise its clicks come now.
    private mutating func decide(
        _ waiting: HeldTaps, claims: GestureClaims, held: inout HeldInputs, into actions: inout [HostAction]
    ) {
        if waiting.count == 1, claims.takesSingleTap(fingers: waiting.fingers) {
            taps = nil
        } else {
            carryOut(waiting, held: &held, into: &actions)
        }
    }

    /// The held clicks, each down and up.
    private mutating func carryOut(_ waiting: HeldTaps, held: inout HeldInputs, into actions: inout [HostAction]) {
        taps = nil
        guard let button = waiting.button else { return }
        for _ in 0..<waiting.clicks {
            held.press(.button(button), by: .touch, into: &actions)
            held.release(.button(button), by: .touch, into: &actions)
        }
    }
}
