import GestureControl
import Testing

/// The native touchpad's slots and tracking ids (`TouchpadSlots`), frame by frame.
@Suite struct TouchpadSlotsTests {
    private func touch(_ id: Int, _ phase: TouchContact.Phase, x: Double = 10, y: Double = 20, t: Double = 0, owner: Int = 1)
        -> TouchContact
    {
        TouchContact(owner: owner, id: id, phase: phase, x: x, y: y, t: t)
    }

    private typealias Change = TouchpadSlots.Change

    /// Applies one frame and returns its changes (one frame expected).
    private func frame(_ slots: inout TouchpadSlots, _ contacts: [TouchContact]) -> [Change] {
        var scratch: [Change] = []
        var frames: [[Change]] = []
        slots.applyFrame(contacts[...], changes: &scratch) { written, _ in frames.append(Array(written)) }
        #expect(frames.count <= 1, "\(frames)")
        return frames.first ?? []
    }

    /// Each landing takes the lowest free slot and the next tracking id; lifts free them.
    @Test func slotsAndTrackingIDs() {
        var slots = TouchpadSlots()
        #expect(
            frame(&slots, [touch(4, .down, x: 1), touch(9, .down, x: 2)]) == [
                Change(slot: 0, trackingID: 0, x: 1, y: 20), Change(slot: 1, trackingID: 1, x: 2, y: 20),
            ])
        #expect(frame(&slots, [touch(4, .up, x: 3)]) == [Change(slot: 0, trackingID: -1, x: 1, y: 20)])
        #expect(frame(&slots, [touch(5, .down, x: 4)]) == [Change(slot: 0, trackingID: 2, x: 4, y: 20)])
        #expect(frame(&slots, [touch(9, .move, x: 7, y: 8)]) == [Change(slot: 1, trackingID: 1, x: 7, y: 8)])
        #expect(slots.summary.fingers == 2)
    }

    /// A slot freed in a frame is not taken by a landing in the same frame: the frame is
    /// written in two, so the desktop sees a lift and a landing, not one contact jumping.
    @Test func freedSlotWaitsForTheNextFrame() {
        var slots = TouchpadSlots()
        for id in 1...5 { _ = frame(&slots, [touch(id, .down)]) }
        var scratch: [Change] = []
        var frames: [([Change], Int)] = []
        slots.applyFrame([touch(3, .up), touch(6, .down, x: 99)][...], changes: &scratch) { written, summary in
            frames.append((Array(written), summary.fingers))
        }
        #expect(
            frames.map(\.0) == [[Change(slot: 2, trackingID: -1, x: 10, y: 20)], [Change(slot: 2, trackingID: 5, x: 99, y: 20)]])
        #expect(frames.map(\.1) == [4, 5])
    }

    /// Five slots: a sixth finger gets none and stays without one (its moves and lift change
    /// nothing), even once a slot is free.
    @Test func sixthFingerIsIgnored() {
        var slots = TouchpadSlots()
        for id in 1...5 { _ = frame(&slots, [touch(id, .down)]) }
        #expect(frame(&slots, [touch(6, .down)]).isEmpty)
        _ = frame(&slots, [touch(1, .up)])
        #expect(frame(&slots, [touch(6, .move, x: 50)]).isEmpty)
        #expect(frame(&slots, [touch(6, .up)]).isEmpty)
        #expect(slots.summary.fingers == 4)
    }

    /// One connection at a time: another's touches while the first has a finger down get no
    /// slot; once the touchpad is idle, the other connection has it.
    @Test func oneConnectionAtATime() {
        var slots = TouchpadSlots()
        _ = frame(&slots, [touch(1, .down, owner: 1)])
        #expect(frame(&slots, [touch(1, .down, owner: 2)]).isEmpty)
        #expect(slots.owner == 1)
        _ = frame(&slots, [touch(1, .up, owner: 1)])
        #expect(frame(&slots, [touch(1, .move, owner: 2)]).isEmpty)  // it never landed
        #expect(slots.owner == nil)
        #expect(frame(&slots, [touch(2, .down, owner: 2)]).count == 1)
        #expect(slots.owner == 2)
    }

    /// `lift(owner:)` lifts that connection's fingers only; `liftAll` every finger.
    @Test func lifts() {
        var slots = TouchpadSlots()
        _ = frame(&slots, [touch(1, .down), touch(2, .down)])
        var changes: [Change] = []
        slots.lift(owner: 5, into: &changes)
        #expect(changes.isEmpty)
        slots.lift(owner: 1, into: &changes)
        #expect(changes.map(\.trackingID) == [-1, -1] && changes.map(\.slot) == [0, 1])
        _ = frame(&slots, [touch(3, .down)])
        changes.removeAll()
        slots.liftAll(into: &changes)
        #expect(changes == [Change(slot: 0, trackingID: -1, x: 10, y: 20)])
        #expect(slots.summary == TouchpadSlots.Summary(fingers: 0, primary: nil))
    }

    /// The primary contact (the single touch on ABS_X/ABS_Y) is the one that landed first,
    /// whatever its slot, until it lifts.
    @Test func primaryIsTheFirstLanded() {
        var slots = TouchpadSlots()
        _ = frame(&slots, [touch(1, .down, x: 1)])
        _ = frame(&slots, [touch(2, .down, x: 2)])
        _ = frame(&slots, [touch(1, .up)])
        _ = frame(&slots, [touch(3, .down, x: 3)])  // takes slot 0, landed last
        #expect(slots.summary.primary?.pointerID == 2)
        #expect(slots.summary.fingers == 2)
    }

    /// Tracking ids wrap at 65,536 (the range the device declares).
    @Test func trackingIDsWrap() {
        var slots = TouchpadSlots()
        for _ in 0..<TouchpadSlots.trackingIDLimit {
            _ = frame(&slots, [touch(1, .down)])
            _ = frame(&slots, [touch(1, .up)])
        }
        #expect(frame(&slots, [touch(1, .down)]).map(\.trackingID) == [0])
    }

    /// A frame is one connection's fingers at one `t`, each finger once.
    @Test func frameBoundaries() {
        let frame = [touch(1, .move, t: 5), touch(2, .move, t: 5)][...]
        #expect(!TouchpadSlots.startsNewFrame(touch(3, .down, t: 5), after: frame))
        #expect(TouchpadSlots.startsNewFrame(touch(3, .down, t: 6), after: frame))
        #expect(TouchpadSlots.startsNewFrame(touch(1, .up, t: 5), after: frame))
        #expect(TouchpadSlots.startsNewFrame(touch(3, .down, t: 5, owner: 2), after: frame))
        #expect(!TouchpadSlots.startsNewFrame(touch(1, .move), after: []))
    }
}
