/// What a finished contact was, for the tap sequence and `singleTapConfirmed`.
enum TapOutcome: Sendable {
    case notTap
    case bounce
    case countedOn
    case newSequence
}

/// `tap`, `doubleTap` and `singleTapConfirmed` (GESTURES.md "tap · doubleTap ·
/// singleTapConfirmed"): the sequence of taps, the last tap's up for the bounce rule, and the
/// confirmation of a sequence with exactly one tap (`TapConfirmation`'s states). The engine
/// tells it when a contact begins and ends and fires its deadline; it decides nothing else.
struct TapRecognizer: Sendable {
    private let config: GestureConfig
    private var sequence: TapSequence?
    private var lastTapUpT: Double?
    private var confirmation: TapConfirmation = .idle

    init(config: GestureConfig) {
        self.config = config
    }

    /// When a pending `singleTapConfirmed` is due, if one is.
    var confirmationDeadline: Double? {
        if case .pending(let tap) = confirmation { return tap.deadline }
        return nil
    }

    /// A contact began: a pending confirmation waits for its end.
    mutating func contactBegan() {
        if case .pending(let tap) = confirmation { confirmation = .waiting(tap) }
    }

    /// At the contact's last up: is it a tap, a bounce, and does it count on in the sequence?
    /// Emits `tap` and, for the second tap of a sequence, `doubleTap`.
    mutating func judge(_ c: Contact, upT: Double, into events: inout [GestureEvent]) -> TapOutcome {
        guard c.allWithinSlop, upT - c.startT <= config.tapMaxDuration, c.lastDownT - c.startT <= config.tapMaxDuration else {
            return .notTap
        }
        defer { lastTapUpT = upT }
        if let last = lastTapUpT, c.startT - last < config.multiTapMinInterval { return .bounce }
        let location = c.tapLocation
        if var seq = sequence,
            c.startT - seq.lastUpT <= config.multiTapInterval,
            Angle.length(dx: location.x - seq.firstX, dy: location.y - seq.firstY) <= config.multiTapSlop,
            c.maxFingers == seq.fingers
        {
            seq.count += 1
            seq.lastUpT = upT
            sequence = seq
            events.emit(.tap, .ended, t: upT, x: location.x, y: location.y, pointers: c.maxFingers, .count(seq.count))
            if seq.count == 2 {
                events.emit(.doubleTap, .ended, t: upT, x: seq.firstX, y: seq.firstY, pointers: c.maxFingers, .none)
            }
            return .countedOn
        }
        sequence = TapSequence(count: 1, fingers: c.maxFingers, firstX: location.x, firstY: location.y, lastUpT: upT)
        events.emit(.tap, .ended, t: upT, x: location.x, y: location.y, pointers: c.maxFingers, .count(1))
        return .newSequence
    }

    /// After a contact's `end`: settles a `singleTapConfirmed` that waited for it, and arms the
    /// confirmation of a sequence this contact started.
    mutating func resolve(_ outcome: TapOutcome, at t: Double, into events: inout [GestureEvent]) {
        if case .waiting(let tap) = confirmation {
            confirmation = .idle
            switch outcome {
            case .bounce:
                if tap.deadline > t {
                    confirmation = .pending(tap)
                } else {
                    confirm(tap, at: t, closing: true, into: &events)
                }
            case .countedOn:
                break
            case .notTap:
                confirm(tap, at: t, closing: true, into: &events)
            case .newSequence:
                confirm(tap, at: t, closing: false, into: &events)
            }
        }
        if case .newSequence = outcome, let seq = sequence {
            let tap = TapConfirmation.Tap(
                x: seq.firstX, y: seq.firstY, pointers: seq.fingers, deadline: t + config.multiTapInterval)
            confirmation = .pending(tap)
        }
    }

    /// The confirmation's deadline came (`deadline`): `singleTapConfirmed`, if still pending.
    mutating func fireConfirmation(at deadline: Double, into events: inout [GestureEvent]) {
        guard case .pending(let tap) = confirmation else { return }
        confirmation = .idle
        confirm(tap, at: deadline, closing: true, into: &events)
    }

    /// Emits `singleTapConfirmed`; `closing` closes the current sequence (a later tap starts a
    /// new one) — not when a new sequence already superseded it.
    private mutating func confirm(_ tap: TapConfirmation.Tap, at t: Double, closing: Bool, into events: inout [GestureEvent]) {
        events.emit(.singleTapConfirmed, .ended, t: t, x: tap.x, y: tap.y, pointers: tap.pointers, .none)
        if closing { sequence = nil }
    }
}
