/// The clicks of a tap sequence held back because a claimed gesture may still take them
/// (`GestureClaims.mayTakeTap`; docs/control-mapping.md "Claimed gestures"). The sequence is
/// followed as the engine follows it (GESTURES.md "tap · doubleTap · singleTapConfirmed"), from
/// the mapper's own inputs and the engine's `tap` and `end` events:
///
/// ```
/// tap, a claim may take it ──▶ pending ──deadline (last up + multiTapInterval)──▶ decided
///            ▲                   │ a touch contact starts
///            │ the next tap      ▼
///            └────────────── waiting ──its end, not a tap that counted on──▶ decided
///                         (a bounce: back to pending while the deadline is ahead)
/// ```
///
/// Decided: a sequence of one tap whose `singleTapConfirmed` is claimed drops its click;
/// otherwise the held clicks are carried out, late. A tap a claim takes drops them all.
struct HeldTaps: Sendable {
    /// What the sequence waits for.
    enum Wait: Sendable, Equatable {
        /// Its deadline: no contact started since its last tap.
        case deadline
        /// The end of a contact that started in time: a tap that counts on, or not.
        case contact
        /// The end of a bounce (a contact started less than `multiTapMinInterval` after the
        /// last tap's up), then its deadline again.
        case bounce
    }

    /// The button each held click clicks (the taps of one sequence have one finger count).
    var button: HostButton?
    /// How many clicks are held.
    var clicks: Int
    /// The fingers of the sequence's taps.
    var fingers: Int
    /// Taps in the sequence so far.
    var count: Int
    /// The last tap's up (page clock).
    var lastUpT: Double
    /// `lastUpT` + `multiTapInterval`: the sequence ends here unless a contact starts before.
    var deadline: Double
    var wait = Wait.deadline

    /// The pending deadline, if any.
    var pendingDeadline: Double? { wait == .deadline ? deadline : nil }
}
