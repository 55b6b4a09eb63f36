import GestureControl

/// The touchpad's frames that wait to be written (pure): contacts grouped into frames as they
/// come (`TouchpadSlots.startsNewFrame`), each frame given a due time by the `FramePacer` when
/// its batch ends, taken out in order once due.
///
/// The plan is kept relative to what really happened: a worker that woke late (a loaded
/// machine, a coarse timer) writes the late frame, and the next one no sooner after it than
/// `FramePacer.catchUp` of their planned distance — never right on its heels, which libinput
/// would take for a jump; the frames that follow catch up at that pace. Storage is reused: no
/// allocation once warm.
struct TouchpadFrameQueue: Sendable {
    private struct Frame: Sendable {
        var start: Int
        var end: Int
        /// NaN until planned.
        var due: Double
    }

    private(set) var contacts: [TouchContact] = []
    private var frames: [Frame] = []
    /// Frames before this one are written.
    private var next = 0
    /// Frames from this one on are not planned yet (the batch being built).
    private var unplanned = 0
    /// The last frame written: its connection, planned due time, and when it was written.
    private var lastWritten: (owner: Int, due: Double, at: Double)? = nil
    /// Scratch space for planning a batch: its frames' `t`, then due times; their owners.
    private var times: [Double] = []
    private var owners: [Int] = []

    init() {
        contacts.reserveCapacity(256)
        frames.reserveCapacity(256)
        times.reserveCapacity(256)
        owners.reserveCapacity(256)
    }

    /// Nothing waits (planned or not).
    var isEmpty: Bool { next == frames.count }

    /// When the next planned frame is due, if one waits.
    var nextDue: Double? {
        next < unplanned ? effectiveDue(frames[next]) : nil
    }

    /// The last frame planned and not written yet: its connection, `t` and due time.
    var lastPlanned: (owner: Int, t: Double, due: Double)? {
        guard unplanned > next else { return nil }
        let first = contacts[frames[unplanned - 1].start]
        return (first.owner, first.t, frames[unplanned - 1].due)
    }

    /// Adds a contact to the frame being built, or starts a new frame with it.
    mutating func add(_ contact: TouchContact) {
        if let last = frames.indices.last, last >= unplanned,
            !TouchpadSlots.startsNewFrame(contact, after: contacts[frames[last].start..<frames[last].end])
        {
            contacts.append(contact)
            frames[last].end += 1
            return
        }
        frames.append(Frame(start: contacts.count, end: contacts.count + 1, due: .nan))
        contacts.append(contact)
    }

    /// Plans the frames added since the last call (one batch, arrived at `now`).
    mutating func plan(with pacer: inout FramePacer, now: Double) {
        guard unplanned < frames.count else { return }
        times.removeAll(keepingCapacity: true)
        owners.removeAll(keepingCapacity: true)
        for frame in frames[unplanned...] {
            times.append(contacts[frame.start].t)
            owners.append(contacts[frame.start].owner)
        }
        pacer.plan(&times, owners: owners, arrivedAt: now)
        for (offset, due) in times.enumerated() { frames[unplanned + offset].due = due }
        unplanned = frames.count
    }

    /// The contacts of the next frame, if it is due at `now`; `markWritten(at:)` then moves on.
    func dueFrame(at now: Double) -> Range<Int>? {
        guard next < unplanned, effectiveDue(frames[next]) <= now else { return nil }
        return frames[next].start..<frames[next].end
    }

    /// The frame `dueFrame` gave is written, at `now`; storage is reset once nothing waits.
    mutating func markWritten(at now: Double) {
        lastWritten = (contacts[frames[next].start].owner, frames[next].due, now)
        next += 1
        if next >= frames.count { removeAll() }
    }

    /// Forgets the last frame written (the fingers were lifted: what comes is a new touch).
    mutating func forgetWritten() {
        lastWritten = nil
    }

    /// A frame's planned due time, or later: `catchUp` of its planned distance from the frame
    /// last written (of the same connection) after that frame was really written.
    private func effectiveDue(_ frame: Frame) -> Double {
        guard let last = lastWritten, last.owner == contacts[frame.start].owner, frame.due > last.due else {
            return frame.due
        }
        return max(frame.due, last.at + (frame.due - last.due) * FramePacer.catchUp)
    }

    /// Drops every waiting frame of connection `owner` (its fingers were lifted at once; a
    /// frame holds one connection's contacts). Another connection's frames that stay keep
    /// their place and the times they were planned for (rare: two phones touching at once);
    /// they are not planned again against the pacer's later state. In place: no allocation.
    mutating func drop(owner: Int) {
        guard contacts[firstWaitingContact...].contains(where: { $0.owner == owner }) else { return }
        var contactCount = 0
        var frameCount = 0
        var plannedCount = 0
        for index in next..<frames.count {
            let frame = frames[index]
            guard contacts[frame.start].owner != owner else { continue }
            // Moved towards the front: never past what is still to be read.
            let start = contactCount
            for source in frame.start..<frame.end {
                contacts[contactCount] = contacts[source]
                contactCount += 1
            }
            frames[frameCount] = Frame(start: start, end: contactCount, due: frame.due)
            frameCount += 1
            if index < unplanned { plannedCount = frameCount }
        }
        contacts.removeSubrange(contactCount...)
        frames.removeSubrange(frameCount...)
        next = 0
        unplanned = plannedCount
    }

    /// Drops everything.
    mutating func removeAll() {
        contacts.removeAll(keepingCapacity: true)
        frames.removeAll(keepingCapacity: true)
        next = 0
        unplanned = 0
    }

    private var firstWaitingContact: Int {
        next < frames.count ? frames[next].start : contacts.count
    }
}
