import GestureControl

/// What `replay --actions --control touchpad` prints for touches passed through: the frames
/// the `touchpad` backend would write, built by the same rules (`TouchpadSlots`: a frame is one
/// connection's fingers at one `t`; slots and tracking ids as the device gets them). Pure.
struct ReplayContacts: Sendable {
    private var slots = TouchpadSlots()
    /// The frame being built (its contacts share owner and `t`).
    private var frame: [TouchContact] = []
    private var changes: [TouchpadSlots.Change] = []

    /// Adds one contact; a contact that starts a new frame prints the one before it. A
    /// `cancel` (a lift without a frame of its own on the page) is printed at once.
    mutating func add(_ contact: TouchContact, to out: inout [UInt8]) {
        if TouchpadSlots.startsNewFrame(contact, after: frame[...]) { flush(to: &out) }
        frame.append(contact)
        if contact.phase == .cancel { flush(to: &out) }
    }

    /// Prints the frame being built, if any.
    mutating func flush(to out: inout [UInt8]) {
        guard let t = frame.first?.t else { return }
        slots.applyFrame(frame[...], changes: &changes) { written, after in
            for change in written {
                MessageEncoder.appendContact(change, fingers: after.fingers, t: t, to: &out)
                out.append(0x0A)
            }
        }
        frame.removeAll(keepingCapacity: true)
    }
}
