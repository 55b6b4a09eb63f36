import GestureEngine

/// A gesture a hook claims (`claim: true` in `hooks:`, docs/outputs.md): the mapping does not
/// do what CONTROL.md maps it to. It matches as its hook rule does, except that `phase` is left
/// out (a claim takes the whole gesture) and `session` is applied once per connection
/// (`GestureClaims.only(session:)`).
public struct GestureClaim: Sendable, Hashable {
    /// The gestures claimed (each one of `GestureClaims.claimable`).
    public var gestures: [GestureKind]
    /// The event's `pointers` must equal it.
    public var pointers: Int?
    /// `tap`: the count of the tap claimed (nil: every tap).
    public var count: Int?
    /// `swipe`: its direction.
    public var direction: SwipeDirection?
    /// `swipe`: the ends it takes; empty takes those that end a drag only, as a hook rule.
    public var ends: [SwipeEnd] = []
    /// Only this session's gestures (nil: every session's).
    public var session: String?

    public init(
        gestures: [GestureKind], pointers: Int? = nil, count: Int? = nil, direction: SwipeDirection? = nil,
        ends: [SwipeEnd] = [], session: String? = nil
    ) {
        self.gestures = gestures
        self.pointers = pointers
        self.count = count
        self.direction = direction
        self.ends = ends
        self.session = session
    }

    /// Whether it claims gestures of `kind` made with `fingers` fingers.
    func covers(_ kind: GestureKind, fingers: Int) -> Bool {
        gestures.contains(kind) && (pointers == nil || pointers == fingers)
    }
}

/// The gestures hooks claim, as the mapping asks about them (docs/control-mapping.md
/// "Claimed gestures"). A claimed tap, long-press drag, scroll, pinch or swipe is not mapped. A
/// claim that a tap sequence can only meet later — `doubleTap`, `tap` with `count` ≥ 2,
/// `singleTapConfirmed` — makes the mapper hold back the clicks of the taps before it
/// (`HeldTaps`) until the sequence is decided. None by default: CONTROL.md's mapping is whole.
public struct GestureClaims: Sendable, Hashable {
    /// The gestures the mapping acts on, the only ones a hook can claim.
    public static let claimable: [GestureKind] = [
        .tap, .doubleTap, .singleTapConfirmed, .longPressDrag, .scroll, .pinch, .swipe,
    ]

    public var claims: [GestureClaim]

    public init(_ claims: [GestureClaim] = []) {
        self.claims = claims
    }

    public var isEmpty: Bool { claims.isEmpty }

    /// The claims that apply to the connection of `session`.
    public func only(session: String) -> GestureClaims {
        GestureClaims(claims.filter { $0.session == nil || $0.session == session })
    }

    /// Whether the tap of `count` in its sequence, made with `fingers`, is claimed itself: a
    /// `tap` claim of its count (or of every count), or a `doubleTap` claim for the second tap
    /// (the engine's `doubleTap` comes with it).
    func takesTap(count: Int, fingers: Int) -> Bool {
        claims.contains { claim in
            (claim.covers(.tap, fingers: fingers) && (claim.count == nil || claim.count == count))
                || (claim.covers(.doubleTap, fingers: fingers) && count == 2)
        }
    }

    /// Whether a later decision of the sequence may still claim the tap of `count`: a `tap`
    /// claim of a higher count, a `doubleTap` or a `singleTapConfirmed` claim after the first.
    func mayTakeTap(count: Int, fingers: Int) -> Bool {
        claims.contains { claim in
            (claim.covers(.tap, fingers: fingers) && (claim.count ?? 0) > count)
                || (count == 1 && claim.covers(.doubleTap, fingers: fingers))
                || (count == 1 && claim.covers(.singleTapConfirmed, fingers: fingers))
        }
    }

    /// Whether a sequence that ended with exactly one tap of `fingers` is claimed.
    func takesSingleTap(fingers: Int) -> Bool {
        claims.contains { $0.covers(.singleTapConfirmed, fingers: fingers) }
    }

    /// Whether a continuous or swipe event (`longPressDrag`, `scroll`, `pinch`, `swipe`) is
    /// claimed, whatever its phase.
    func takes(_ event: GestureEvent) -> Bool {
        claims.contains { claim in
            guard claim.covers(event.gesture, fingers: event.pointers) else { return false }
            guard case .swipe(let swipe) = event.detail else { return true }
            if let direction = claim.direction, direction != swipe.direction { return false }
            return claim.ends.isEmpty ? swipe.ends == .drag : claim.ends.contains(swipe.ends)
        }
    }
}
