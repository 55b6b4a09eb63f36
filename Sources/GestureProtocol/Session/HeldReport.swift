import GestureControl

/// The `held` notice of one touchpad connection (docs/protocol.md, additive): after an input,
/// a command, a timer or a control change, when what the mapper holds (or its `until`)
/// differs from what the page was last told, one frame with all of it. Nothing while nothing
/// changed, nothing for an observer (no mapper), and once `{"buttons":[],"keys":[]}` when
/// control turns off with something held.
///
/// Cheap on the hot path: one comparison of the mapper's `heldVersion`; a snapshot is written
/// (into storage kept here) only when it moved.
struct HeldReport: Sendable {
    /// The version last looked at; nil: no mapper.
    private var seen: UInt64? = nil
    /// What the page was last told (nothing, at first).
    private var told = HeldSnapshot()
    /// Where the next snapshot is written.
    private var scratch = HeldSnapshot()

    /// Whether the version last looked at was a mapper's.
    var hasMapper: Bool { seen != nil }

    /// Whether `version` (the mapper's `heldVersion`, nil without one) differs from the one
    /// last looked at; it is remembered. The hot path: when false, nothing else is needed.
    mutating func moved(to version: UInt64?) -> Bool {
        guard version != seen else { return false }
        seen = version
        return true
    }

    /// Appends a `held` reply to `frames` when what `core` holds differs from what the page
    /// was last told (after `moved(to:)` said the version moved).
    mutating func update(_ core: TouchpadCore?, into frames: inout FrameBuffer) {
        if let core { core.writeHeld(into: &scratch) } else { scratch.removeAll() }
        guard scratch != told else { return }
        swap(&scratch, &told)
        let snapshot = told
        frames.append(.reply) { MessageEncoder.appendHeld(snapshot, to: &$0) }
    }
}
