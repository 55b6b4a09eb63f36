import GestureControl
import GesturePadSystem
import Logging

/// Carries out the `touchpad` backend's actions on its one thread: touches (`.contact`) become
/// the frames of a virtual multitouch touchpad, paced like the page's `t` (`FramePacer`); the
/// rest (a mouse or pen on the page, keys, the button bar) goes to the uinput pointer-and-
/// keyboard (`UInputExecutor`). The touchpad device is made once, at the first `.touchSurface`,
/// at one size (`TouchpadGeometry.fixed`); each connection's surface is placed on it
/// (`TouchpadGeometry.position`), so a rotation or a second phone changes nothing the desktop
/// sees and no touch waits for a new device.
///
/// Time is an input: the worker calls `advance(to:)` with its monotonic clock before each batch
/// and at `nextDeadline`, and `clock` is read again right after each frame is written (the
/// machine may have stalled before the write: the next frame is spaced from when this one
/// really went out); tests give a virtual clock.
final class TouchpadExecutor: ActionExecutor {
    /// The device's name (`libinput list-devices`, the desktop's settings, the udev rule).
    static let deviceName = "GesturePad touchpad"
    /// Surfaces remembered (a connection's contacts are placed by its surface): more than any
    /// server admits connections at once, so a connected phone's is never forgotten — with 8,
    /// a ninth phone's `hello` made the first one's finger jump by the surface's offset. Past
    /// it, the oldest connections' go first (ids grow: the oldest are the likeliest gone), never
    /// the owner's.
    static let surfacesKept = 4_096

    private struct Surface {
        var width: Double
        var height: Double
    }

    private let pointer: UInputExecutor
    private let makeDevice: (UInputDeviceSpec) throws -> any InputDeviceOutput
    private let clock: any WorkerClock
    private let logger: Logger
    private var output: (any InputDeviceOutput)?
    /// The device's size (`TouchpadGeometry.fixed`; tests: another).
    let geometry: TouchpadGeometry
    private var surfaces: [Int: Surface] = [:]
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
    ///   - clock: the server's monotonic clock, ms (its worker's `WorkerClock`; tests: a virtual one).
    ///   - makeDevice: makes the touchpad for a declaration (uinput; tests: a pipe).
    ///   - geometry: the device's size.
    init(
        pointer: UInputExecutor, maxHold: Double = FramePacer.defaultMaxHold, logger: Logger,
        clock: any WorkerClock, geometry: TouchpadGeometry = .fixed,
        makeDevice: @escaping (UInputDeviceSpec) throws -> any InputDeviceOutput
    ) {
        self.pointer = pointer
        self.geometry = geometry
        self.clock = clock
        self.makeDevice = makeDevice
        self.logger = logger
        pacer = FramePacer(maxHold: maxHold)
        surfaces.reserveCapacity(64)
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
            guard slots.admits(contact.owner) else { return }
            queue.add(placed(contact))
        case .touchSurface(let owner, let width, let height):
            noteSurface(owner: owner, width: width, height: height)
        case .motion, .button, .wheel, .wheelStop, .key, .text, .spotlight:
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
        writeFrame(changes[...])
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
        pacer.rewind(to: queue.lastPlanned)
        slots.beginFrame()
        changes.removeAll(keepingCapacity: true)
        slots.lift(owner: owner, into: &changes)
        writeFrame(changes[...])
    }

    private func writeDueFrames() {
        while let range = queue.dueFrame(at: now) {
            slots.applyFrame(queue.contacts[range], changes: &changes) { written, summary in
                encode(written, after: summary)
            }
            send()
            now = max(now, clock.now)
            queue.markWritten(at: now)
        }
    }

    /// Writes one frame of changes made outside `applyFrame` (lifts), if any.
    private func writeFrame(_ written: ArraySlice<TouchpadSlots.Change>) {
        guard !written.isEmpty else { return }
        encode(written, after: slots.summary)
        send()
    }

    /// Encodes changes whose positions are already on the device (`placed`).
    private func encode(_ written: ArraySlice<TouchpadSlots.Change>, after summary: TouchpadSlots.Summary) {
        guard output != nil else { return }
        encoder.encode(
            written, after: summary, geometry: geometry, surface: (geometry.width, geometry.height), into: &events)
    }

    /// `contact` with its position moved onto the device (CSS px of the device), by the surface
    /// its connection had when it came: a frame still waiting when the phone turns keeps its
    /// place (a `resize` reaches the executor before the paced frames sent before it).
    private func placed(_ contact: TouchContact) -> TouchContact {
        guard let surface = surfaces[contact.owner] else { return contact }
        var placed = contact
        (placed.x, placed.y) = geometry.devicePoint(
            x: contact.x, y: contact.y, surfaceWidth: surface.width, surfaceHeight: surface.height)
        return placed
    }

    private func send() {
        guard !events.isEmpty else { return }
        for event in events { event.append(to: &bytes) }
        events.removeAll(keepingCapacity: true)
        if let output, let code = output.write(&bytes) {
            failedWrites += 1
            if failedWrites % 1_000 == 1 {
                logger.error("control: writing to the touchpad failed: \(errorText(code)) (\(failedWrites) failures)")
            }
        }
        bytes.removeAll(keepingCapacity: true)
    }

    // MARK: - The device

    /// A connection's surface (its `hello`, a `resize`): remembered for placing its contacts
    /// on the device, which is made now if it is not yet (tried again at the next surface if
    /// that fails).
    private func noteSurface(owner: Int, width: Double, height: Double) {
        if surfaces[owner] == nil, surfaces.count >= Self.surfacesKept {
            let kept = slots.owner
            for old in surfaces.keys.sorted().prefix(Self.surfacesKept / 4) where old != kept {
                surfaces.removeValue(forKey: old)
            }
        }
        surfaces[owner] = Surface(width: width, height: height)
        guard output == nil else { return }
        encoder.reset()
        do {
            output = try makeDevice(geometry.deviceSpec(name: Self.deviceName))
        } catch {
            let message = "\(error)"
            logger.error("control: cannot make the touchpad device: \(message)")
        }
    }
}
