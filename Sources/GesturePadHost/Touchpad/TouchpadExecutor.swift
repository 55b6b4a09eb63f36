import GestureControl
import Logging

/// Carries out the `touchpad` backend's actions on its one thread: touches (`.contact`) become
/// the frames of a virtual multitouch touchpad, paced like the page's `t` (`FramePacer`); the
/// rest (a mouse or pen on the page, keys, the button bar) goes to the uinput pointer-and-
/// keyboard (`UInputExecutor`). The touchpad device is made at the first `.touchSurface`, for
/// that surface, and made again for another size once no finger is on it.
///
/// Time is an input: the worker calls `advance(to:)` with its monotonic clock before each batch
/// and at `nextDeadline`, and `clock` is read again right after each frame is written (the
/// machine may have stalled before the write: the next frame is spaced from when this one
/// really went out); tests give a virtual clock.
final class TouchpadExecutor: ActionExecutor {
    /// The device's name (`libinput list-devices`, the desktop's settings, the udev rule).
    static let deviceName = "GesturePad touchpad"
    /// Surfaces remembered, newest last: a connection's contacts are scaled from its surface.
    private static let surfacesKept = 8

    private struct Surface {
        var owner: Int
        var width: Double
        var height: Double
    }

    private let pointer: UInputExecutor
    private let makeDevice: (UInputDeviceSpec) throws -> any InputDeviceOutput
    private let clock: () -> Double
    private let logger: Logger
    private var output: (any InputDeviceOutput)?
    private(set) var geometry: TouchpadGeometry?
    /// A size to make the device again with, once no finger is on it.
    private var wanted: TouchpadGeometry?
    private var surfaces: [Surface] = []
    private var slots = TouchpadSlots()
    private var encoder = TouchpadEventEncoder()
    private var pacer: FramePacer
    private var queue = TouchpadFrameQueue()
    private var now = 0.0
    private var changes: [TouchpadSlots.Change] = []
    private var events: [InputEvent] = []
    private var bytes: [UInt8] = []
    private var failedWrites = 0

    /// - Parameters:
    ///   - pointer: carries out everything but touches.
    ///   - clock: the worker's monotonic clock, ms (`ActionWorker.now`; tests: a virtual one).
    ///   - makeDevice: makes the touchpad for a declaration (uinput; tests: a pipe).
    init(
        pointer: UInputExecutor, maxHold: Double = FramePacer.defaultMaxHold, logger: Logger,
        clock: @escaping () -> Double, makeDevice: @escaping (UInputDeviceSpec) throws -> any InputDeviceOutput
    ) {
        self.pointer = pointer
        self.clock = clock
        self.makeDevice = makeDevice
        self.logger = logger
        pacer = FramePacer(maxHold: maxHold)
        surfaces.reserveCapacity(Self.surfacesKept)
        changes.reserveCapacity(TouchpadSlots.count)
        events.reserveCapacity(64)
        bytes.reserveCapacity(64 * InputEvent.byteCount)
    }

    /// The fingers on the touchpad now.
    var fingers: Int { slots.summary.fingers }

    func execute(_ action: HostAction) {
        switch action {
        case .contact(let contact) where contact.phase == .cancel:
            lift(owner: contact.owner)
        case .contact(let contact):
            // The touchpad follows another connection's fingers now: these get no slot (the
            // rule of `TouchpadSlots`), and must not wait in line before the owner's frames.
            if let owner = slots.owner, owner != contact.owner { return }
            queue.add(contact)
        case .touchSurface(let owner, let width, let height):
            noteSurface(owner: owner, width: width, height: height)
        case .motion, .button, .wheel, .wheelStop, .key, .text:
            pointer.execute(action)
        }
    }

    var nextDeadline: Double? { queue.nextDue }

    func advance(to now: Double) {
        self.now = max(self.now, now)
        writeDueFrames()
    }

    func flush() {
        queue.plan(with: &pacer, now: now)
        writeDueFrames()
        pointer.flush()
    }

    /// Lifts every finger at once (what waits is dropped) and releases the pointer's buttons
    /// and keys.
    func releaseAll() {
        queue.removeAll()
        queue.forgetWritten()
        pacer.reset()
        slots.beginFrame()
        changes.removeAll(keepingCapacity: true)
        slots.liftAll(into: &changes)
        writeFrame(changes[...], owner: nil)
        remakeIfWanted()
        pointer.releaseAll()
    }

    func close() {
        releaseAll()
        output?.destroy()
        output = nil
        pointer.close()
    }

    // MARK: - Frames

    /// A connection's touch was cancelled (the page's `cancel`, the connection closed or fell
    /// silent): its waiting frames are dropped and all its fingers lift now.
    private func lift(owner: Int) {
        queue.drop(owner: owner)
        if queue.isEmpty { pacer.reset() }
        slots.beginFrame()
        changes.removeAll(keepingCapacity: true)
        slots.lift(owner: owner, into: &changes)
        writeFrame(changes[...], owner: owner)
        remakeIfWanted()
    }

    private func writeDueFrames() {
        while let range = queue.dueFrame(at: now) {
            let owner = queue.contacts[range.lowerBound].owner
            slots.applyFrame(queue.contacts[range], changes: &changes) { written, summary in
                encode(written, after: summary, owner: owner)
            }
            send()
            now = max(now, clock())
            queue.markWritten(at: now)
            remakeIfWanted()
        }
    }

    /// Writes one frame of changes made outside `applyFrame` (lifts), if any.
    private func writeFrame(_ written: ArraySlice<TouchpadSlots.Change>, owner: Int?) {
        guard !written.isEmpty else { return }
        encode(written, after: slots.summary, owner: owner)
        send()
    }

    private func encode(_ written: ArraySlice<TouchpadSlots.Change>, after summary: TouchpadSlots.Summary, owner: Int?) {
        guard let geometry else { return }
        let surface = surfaces.last { $0.owner == owner }.map { (width: $0.width, height: $0.height) }
        encoder.encode(
            written, after: summary, geometry: geometry, surface: surface ?? (geometry.width, geometry.height),
            into: &events)
    }

    private func send() {
        guard !events.isEmpty else { return }
        for event in events { event.append(to: &bytes) }
        events.removeAll(keepingCapacity: true)
        if let output, let code = FileDescriptorSink(fileDescriptor: output.fileDescriptor).write(bytes) {
            failedWrites += 1
            if failedWrites % 1_000 == 1 {
                logger.error("control: writing to the touchpad failed: \(errorText(code)) (\(failedWrites) failures)")
            }
        }
        bytes.removeAll(keepingCapacity: true)
    }

    // MARK: - The device

    /// A connection's surface (its `hello`, a `resize`): remembered for scaling its contacts;
    /// the device follows the newest one — made now if there is none or no finger is down,
    /// else once the fingers have lifted.
    private func noteSurface(owner: Int, width: Double, height: Double) {
        surfaces.removeAll { $0.owner == owner }
        if surfaces.count == Self.surfacesKept { surfaces.removeFirst() }
        surfaces.append(Surface(owner: owner, width: width, height: height))
        let size = TouchpadGeometry(width: width, height: height)
        wanted = size == geometry ? nil : size
        remakeIfWanted()
    }

    private func remakeIfWanted() {
        guard let size = wanted, slots.summary.fingers == 0, queue.isEmpty else { return }
        wanted = nil
        output?.destroy()
        output = nil
        encoder.reset()
        do {
            output = try makeDevice(size.deviceSpec(name: Self.deviceName))
            geometry = size
        } catch {
            geometry = nil
            let message = (error as? ControlBackendError)?.message ?? "\(error)"
            logger.error("control: cannot make the touchpad device: \(message)")
        }
    }
}
