/// The mouse and pen pointers on the page, in a fixed set of slots (allocated once): their
/// motion, whether they are down, and which computer buttons each holds.
///
/// A slot is taken by a pointer's first message and kept while it hovers or is down; `leave`
/// frees a slot that is not down. When every slot is taken, a new pointer takes a slot that
/// is not down; when all are down, it is ignored (eight mice on one phone page do not exist).
struct DevicePointers: Sendable {
    /// One mouse or pen pointer.
    struct Pointer: Sendable {
        var id = 0
        var inUse = false
        /// Between its `down` and its `up`.
        var isDown = false
        /// Its contact was cancelled: its buttons are not followed until its `up`.
        var buttonsIgnored = false
        /// The computer buttons this pointer pressed (`ButtonMask`).
        var held = ButtonMask()
        var motion = MotionAccumulator()
    }

    private(set) var slots: [Pointer]

    init() {
        slots = Array(repeating: Pointer(), count: HeldInputs.Owners.deviceSlots)
    }

    /// Whether a mouse / pen pointer of a live contact is down (not one of a cancelled
    /// contact, waiting for its `up`).
    var anyContactDown: Bool {
        slots.contains { $0.inUse && $0.isDown && !$0.buttonsIgnored }
    }

    /// The slot of a known pointer.
    func slot(of id: Int) -> Int? {
        slots.firstIndex { $0.inUse && $0.id == id }
    }

    /// The slot of `id`, taking one if it is new; `nil` when every slot is down.
    mutating func slot(for id: Int) -> Int? {
        if let s = slot(of: id) { return s }
        guard let s = slots.firstIndex(where: { !$0.inUse }) ?? slots.firstIndex(where: { !$0.isDown }) else {
            return nil
        }
        slots[s] = Pointer()
        slots[s].id = id
        slots[s].inUse = true
        return s
    }

    subscript(slot: Int) -> Pointer {
        get { slots[slot] }
        set { slots[slot] = newValue }
    }

    /// Frees a slot.
    mutating func free(_ slot: Int) {
        slots[slot] = Pointer()
    }
}
