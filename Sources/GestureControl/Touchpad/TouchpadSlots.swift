/// The slots of a virtual multitouch touchpad (the `touchpad` backend's device; the kernel's
/// multi-touch protocol, type B): which contact holds which slot, under which tracking id.
/// Pure: contacts in, slot changes out, frame by frame; the backend turns the changes into
/// `ABS_MT_*` events and `replay --actions` prints them.
///
/// Rules:
/// - A `down` takes the lowest free slot and a new tracking id (0, 1, …, wrapping at 65,536).
///   A slot freed in a frame is not given to another contact in the same frame: the desktop
///   would see one contact jump instead of one lifting and another landing.
/// - The touchpad follows one connection at a time: the first to touch an idle touchpad owns
///   it until its last finger lifts. Touches of other connections meanwhile, and fingers
///   beyond the `count` slots, get no slot: they are ignored until they lift (a contact
///   without a slot never gets one later).
/// - `up` and `cancel` free the slot (tracking id −1). `liftAll` frees every slot at once.
public struct TouchpadSlots: Sendable {
    /// How many fingers the device tracks (`BTN_TOOL_QUINTTAP`: five).
    public static let count = 5
    /// Tracking ids wrap here (the range the device declares for `ABS_MT_TRACKING_ID`).
    public static let trackingIDLimit = 65_536

    /// A contact holding a slot.
    public struct Slot: Sendable, Hashable {
        public var owner: Int
        public var pointerID: Int
        public var trackingID: Int
        /// Landing order (the oldest contact has the smallest).
        var landed: Int
        /// Position on the owner's surface, CSS px.
        public var x: Double
        public var y: Double
    }

    /// What one contact changed in a slot: it landed or moved (`trackingID` ≥ 0, at `x`, `y`)
    /// or lifted (`trackingID` −1).
    public struct Change: Sendable, Hashable {
        public var slot: Int
        public var trackingID: Int
        public var x: Double
        public var y: Double

        public init(slot: Int, trackingID: Int, x: Double, y: Double) {
            self.slot = slot
            self.trackingID = trackingID
            self.x = x
            self.y = y
        }
    }

    /// The touchpad after a frame: the fingers on it and the one that landed first (the single
    /// touch a device reports on `ABS_X` / `ABS_Y`, as the kernel's pointer emulation does).
    public struct Summary: Sendable, Hashable {
        public var fingers: Int
        public var primary: Slot?

        public init(fingers: Int, primary: Slot?) {
            self.fingers = fingers
            self.primary = primary
        }
    }

    /// What `apply` did with a contact.
    public enum Outcome: Sendable, Hashable {
        /// Its change was appended.
        case applied
        /// Not the touchpad's (another connection's, a finger beyond the slots, or unknown):
        /// nothing changed.
        case ignored
        /// It cannot join the current frame (its slot would be reused within it): end the
        /// frame, `beginFrame()`, and apply it again.
        case needsNewFrame
    }

    /// The slots, index = slot number; nil when free.
    public private(set) var slots: [Slot?]
    /// The connection whose fingers the touchpad follows, while any is down.
    public var owner: Int? { slots.lazy.compactMap { $0?.owner }.first }
    private var nextTrackingID = 0
    private var landings = 0
    /// Slots freed in the current frame (bit per slot).
    private var freedThisFrame: UInt8 = 0

    public init() {
        slots = Array(repeating: nil, count: Self.count)
    }

    /// The fingers on the touchpad and the one that landed first.
    public var summary: Summary {
        var fingers = 0
        var primary: Slot? = nil
        for slot in slots {
            guard let slot else { continue }
            fingers += 1
            if let current = primary, current.landed <= slot.landed { continue }
            primary = slot
        }
        return Summary(fingers: fingers, primary: primary)
    }

    /// Starts a new frame: slots freed before it may be taken again.
    public mutating func beginFrame() {
        freedThisFrame = 0
    }

    /// Whether connection `owner`'s fingers may land: the touchpad follows one connection's
    /// fingers at a time, the one whose fingers are on it (any, when none is). The one place
    /// this rule is written: the executor asks it too, so another's touches never wait in
    /// line before the owner's frames.
    public func admits(_ owner: Int) -> Bool {
        self.owner.map { $0 == owner } ?? true
    }

    /// Applies one contact within the current frame.
    public mutating func apply(_ contact: TouchContact, into changes: inout [Change]) -> Outcome {
        let index = slotIndex(owner: contact.owner, id: contact.id)
        switch contact.phase {
        case .down:
            if index != nil { return .ignored }  // already down
            guard admits(contact.owner) else { return .ignored }
            guard let free = slots.indices.first(where: { slots[$0] == nil && freedThisFrame & (1 << $0) == 0 }) else {
                // Every free slot was freed in this frame: the next frame can take one.
                return slots.contains(where: { $0 == nil }) ? .needsNewFrame : .ignored
            }
            let trackingID = nextTrackingID
            nextTrackingID = (nextTrackingID + 1) % Self.trackingIDLimit
            landings += 1
            slots[free] = Slot(
                owner: contact.owner, pointerID: contact.id, trackingID: trackingID, landed: landings, x: contact.x,
                y: contact.y)
            changes.append(Change(slot: free, trackingID: trackingID, x: contact.x, y: contact.y))
            return .applied
        case .move:
            guard let index, var slot = slots[index] else { return .ignored }
            slot.x = contact.x
            slot.y = contact.y
            slots[index] = slot
            changes.append(Change(slot: index, trackingID: slot.trackingID, x: contact.x, y: contact.y))
            return .applied
        case .up, .cancel:
            guard let index, let slot = slots[index] else { return .ignored }
            free(index, slot, into: &changes)
            return .applied
        }
    }

    /// Whether `contact` starts a new frame after the contacts of the frame being built: a
    /// frame is what one connection's fingers did at one `t`, each finger once.
    public static func startsNewFrame(_ contact: TouchContact, after frame: ArraySlice<TouchContact>) -> Bool {
        guard let first = frame.first else { return false }
        return first.owner != contact.owner || first.t != contact.t || frame.contains { $0.id == contact.id }
    }

    /// Applies one frame's contacts, in order: `frame` is called with the changes of each
    /// frame to write and the touchpad after it — one frame, or two when a contact had to wait
    /// for a slot freed in the first. `changes` is scratch space (kept to avoid allocating).
    public mutating func applyFrame(
        _ contacts: ArraySlice<TouchContact>, changes: inout [Change], frame: (ArraySlice<Change>, Summary) -> Void
    ) {
        beginFrame()
        changes.removeAll(keepingCapacity: true)
        var index = contacts.startIndex
        while index < contacts.endIndex {
            switch apply(contacts[index], into: &changes) {
            case .applied, .ignored:
                index += 1
            case .needsNewFrame:
                frame(changes[...], summary)
                changes.removeAll(keepingCapacity: true)
                beginFrame()
            }
        }
        if !changes.isEmpty { frame(changes[...], summary) }
    }

    /// Lifts every contact at once (the release rule: the server stopping, the device going).
    /// Contacts lifted here are forgotten: their later moves are ignored.
    public mutating func liftAll(into changes: inout [Change]) {
        for index in slots.indices {
            if let slot = slots[index] { free(index, slot, into: &changes) }
        }
    }

    /// Lifts every contact of connection `owner`.
    public mutating func lift(owner: Int, into changes: inout [Change]) {
        for index in slots.indices {
            if let slot = slots[index], slot.owner == owner { free(index, slot, into: &changes) }
        }
    }

    private mutating func free(_ index: Int, _ slot: Slot, into changes: inout [Change]) {
        slots[index] = nil
        freedThisFrame |= 1 << index
        changes.append(Change(slot: index, trackingID: -1, x: slot.x, y: slot.y))
    }

    private func slotIndex(owner: Int, id: Int) -> Int? {
        slots.firstIndex { $0?.owner == owner && $0?.pointerID == id }
    }
}
