import CUInput
import GestureControl
import GesturePadSystem
import Glibc
import Logging
import Testing

@testable import GesturePadHost

/// The `touchpad` backend's executor on a virtual clock, writing into pipes: the touchpad made
/// for the surface, frames written when due (`FramePacer`, kept relative to real writes), the
/// release rule, the device made once (a rotation or a second phone changes nothing), the rest
/// to the pointer device.
@Suite struct TouchpadExecutorTests {
    /// A pipe standing in for a uinput device; reads what was written so far.
    final class PipeOutput: InputDeviceOutput {
        let pipe = TestPipe()
        let spec: UInputDeviceSpec
        private(set) var destroyed = false
        var fileDescriptor: Int32 { pipe.writeEnd }

        init(spec: UInputDeviceSpec) {
            self.spec = spec
            _ = fcntl(pipe.readEnd, F_SETFL, fcntl(pipe.readEnd, F_GETFL) | O_NONBLOCK)
        }

        func destroy() { destroyed = true }

        /// The events written since the last call, split into frames at SYN_REPORT.
        func frames() -> [[InputEvent]] {
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(pipe.readEnd, &buffer, buffer.count)
                guard count > 0 else { break }
                bytes += buffer[0..<count]
            }
            var frames: [[InputEvent]] = []
            var current: [InputEvent] = []
            for event in InputEvent.decode(bytes) {
                if event == .report {
                    frames.append(current)
                    current = []
                } else {
                    current.append(event)
                }
            }
            return frames
        }
    }

    /// The harness's virtual clock: the time of the batch being handed over.
    final class VirtualClock: WorkerClock, @unchecked Sendable {
        var now = 0.0
    }

    final class Harness {
        let clock = VirtualClock()
        var now: Double {
            get { clock.now }
            set { clock.now = newValue }
        }
        var outputs: [PipeOutput] = []
        let pointerPipe = TestPipe()
        var executor: TouchpadExecutor!

        /// `geometry`: the device's size (400 × 800 here, so that a 400 × 800 surface lies on
        /// it px for px and the positions are easy to read).
        init(geometry: TouchpadGeometry = TouchpadGeometry(width: 400, height: 800)) {
            let logger = Logger(label: "test.touchpad")
            executor = TouchpadExecutor(
                pointer: UInputExecutor(writingTo: pointerPipe.writeEnd, logger: logger), logger: logger,
                clock: clock, geometry: geometry
            ) { [unowned self] spec in
                let output = PipeOutput(spec: spec)
                outputs.append(output)
                return output
            }
        }

        var device: PipeOutput { outputs[outputs.count - 1] }

        /// One batch, as the worker hands it over at `now`.
        func batch(_ actions: [HostAction], at time: Double) {
            now = time
            executor.advance(to: time)
            for action in actions { executor.execute(action) }
            executor.flush()
        }

        func advance(to time: Double) {
            now = time
            executor.advance(to: time)
        }
    }

    private func touch(_ id: Int, _ phase: TouchContact.Phase, x: Double = 100, y: Double = 100, t: Double, owner: Int = 1)
        -> HostAction
    {
        .contact(TouchContact(owner: owner, id: id, phase: phase, x: x, y: y, t: t))
    }

    private func xPositions(_ frames: [[InputEvent]]) -> [Int32] {
        frames.compactMap { frame in
            frame.first { $0.type == InputEvent.absoluteType && $0.code == UInt16(ABS_MT_POSITION_X) }?.value
        }
    }

    private func yPositions(_ frames: [[InputEvent]]) -> [Int32] {
        frames.compactMap { frame in
            frame.first { $0.type == InputEvent.absoluteType && $0.code == UInt16(ABS_MT_POSITION_Y) }?.value
        }
    }

    /// The first surface makes the touchpad, named, at the one fixed size, before any touch.
    @Test func surfaceMakesTheDevice() {
        let h = Harness(geometry: .fixed)
        h.batch([.touchSurface(owner: 1, width: 390, height: 844)], at: 0)
        #expect(h.outputs.count == 1)
        #expect(h.device.spec == TouchpadGeometry.fixed.deviceSpec(name: "GesturePad touchpad"))
        #expect(h.device.frames().isEmpty)
    }

    /// Other connections saying hello meanwhile (a room full of phones, the load generator's
    /// 200) leave the owner's surface alone: its finger stays where its surface puts it.
    @Test func manySurfacesKeepTheOwnersPlace() {
        let h = Harness(geometry: .fixed)
        h.batch([.touchSurface(owner: 1, width: 390, height: 844)], at: 0)
        h.batch([touch(1, .down, x: 100, t: 0)], at: 1_000)
        let first = xPositions(h.device.frames())
        h.batch((2...201).map { .touchSurface(owner: $0, width: 1_000, height: 500) }, at: 1_001)
        h.batch([touch(1, .move, x: 110, t: 100)], at: 1_100)
        let moved = xPositions(h.device.frames())
        #expect(first.count == 1 && moved.count == 1)
        // 10 CSS px further on the same surface: 63.5 units, not the surface's offset of 305 px.
        #expect(abs((moved.first ?? 0) - (first.first ?? 0) - 64) <= 1, "\(first) → \(moved)")
    }

    /// A burst: the first frame at once, the others when due — never before.
    @Test func framesAreWrittenWhenDue() {
        let h = Harness()
        h.batch([.touchSurface(owner: 1, width: 400, height: 800)], at: 0)
        h.batch([touch(1, .down, t: 0), touch(1, .move, y: 110, t: 8), touch(1, .move, y: 120, t: 16)], at: 1_000)
        #expect(h.device.frames().count == 1)
        #expect(h.executor.nextDeadline == 1_006)
        h.advance(to: 1_005.9)
        #expect(h.device.frames().isEmpty)
        h.advance(to: 1_006)
        #expect(yPositions(h.device.frames()) == [699])
        #expect(h.executor.nextDeadline == 1_012)
        h.advance(to: 1_012)
        #expect(yPositions(h.device.frames()) == [762])
        #expect(h.executor.nextDeadline == nil)
    }

    /// A worker that wakes late writes the late frame, and the next one no sooner than ¾ of
    /// their planned distance after it — not on its heels.
    @Test func lateWakeKeepsTheSpacing() {
        let h = Harness()
        h.batch([.touchSurface(owner: 1, width: 400, height: 800)], at: 0)
        h.batch([touch(1, .down, t: 0), touch(1, .move, y: 110, t: 8), touch(1, .move, y: 120, t: 16)], at: 1_000)
        _ = h.device.frames()
        h.advance(to: 1_030)  // both moves are overdue
        #expect(yPositions(h.device.frames()) == [699])
        #expect(h.executor.nextDeadline == 1_030 + 6 * 0.75)
        h.advance(to: 1_034.5)
        #expect(yPositions(h.device.frames()) == [762])
    }

    /// A cancelled touch (the connection closed): its waiting frames are dropped and every
    /// finger of the connection lifts at once, in one frame.
    @Test func cancelLiftsAtOnce() {
        let h = Harness()
        h.batch([.touchSurface(owner: 1, width: 400, height: 800)], at: 0)
        h.batch([touch(1, .down, t: 0), touch(2, .down, x: 200, t: 0)], at: 1_000)
        h.batch([touch(1, .move, y: 150, t: 8), touch(1, .move, y: 160, t: 16)], at: 1_001)
        _ = h.device.frames()
        h.batch([touch(1, .cancel, t: 16), touch(2, .cancel, t: 16)], at: 1_002)
        let frames = h.device.frames()
        #expect(frames.count == 1)
        #expect(frames[0].filter { $0.code == UInt16(ABS_MT_TRACKING_ID) }.map(\.value) == [-1, -1])
        #expect(frames[0].contains(.key(EvdevCode(BTN_TOUCH), down: false)))
        #expect(h.executor.nextDeadline == nil && h.executor.fingers == 0)
        h.advance(to: 2_000)
        #expect(h.device.frames().isEmpty)
    }

    /// `releaseAll` (the server stopping, control off): every finger up, waiting frames
    /// dropped, the pointer's buttons released.
    @Test func releaseAllLiftsAndReleases() {
        let h = Harness()
        h.batch([.touchSurface(owner: 1, width: 400, height: 800)], at: 0)
        h.batch([touch(1, .down, t: 0), touch(1, .move, y: 130, t: 50), .button(.left, .down)], at: 1_000)
        _ = h.device.frames()
        h.executor.releaseAll()
        let frames = h.device.frames()
        #expect(frames.count == 1 && frames[0].first == .absolute(ABS_MT_TRACKING_ID, -1))
        #expect(h.executor.nextDeadline == nil)
        #expect(
            InputEvent.decode(h.pointerPipe.readAll()) == [
                .key(EvdevCode(BTN_LEFT), down: true), .report, .key(EvdevCode(BTN_LEFT), down: false), .report,
            ])
    }

    /// A rotation mid-touch (the page's `resize`: 390 × 844 → 844 × 390) and a second phone's
    /// surface make no new device: the finger down goes on, its move and the next phone's
    /// touch are written to the same device, each placed by its surface (centred).
    @Test func rotationAndSecondPhoneKeepTheDevice() {
        let h = Harness(geometry: .fixed)
        h.batch([.touchSurface(owner: 1, width: 390, height: 844)], at: 0)
        h.batch([touch(1, .down, x: 195, y: 422, t: 0)], at: 100)
        h.batch([.touchSurface(owner: 1, width: 844, height: 390)], at: 101)
        h.batch([.touchSurface(owner: 2, width: 1_024, height: 1_366)], at: 102)
        h.batch([touch(1, .move, x: 422, y: 200, t: 30), touch(1, .up, x: 422, y: 200, t: 40)], at: 140)
        h.advance(to: 200)
        h.batch([touch(1, .down, x: 512, y: 683, t: 50, owner: 2)], at: 250)
        #expect(h.outputs.count == 1 && !h.device.destroyed)
        let frames = h.device.frames()
        #expect(frames.count == 4)
        // The centre of the fixed device (500 CSS px: 3175 units) is the centre of every surface.
        let centre = TouchpadGeometry.fixed.position(x: 500, y: 500, surfaceWidth: 1_000, surfaceHeight: 1_000)
        #expect(centre == (3175, 3175))
        #expect(yPositions([frames[0]]) == [centre.y])
        // Landscape: 5 px below its centre is 5 px below the device's (31.75 units).
        #expect(yPositions([frames[1]]) == [centre.y + 32])
        #expect(frames[2].contains(.absolute(ABS_MT_TRACKING_ID, -1)))
        #expect(yPositions([frames[3]]) == [centre.y])
    }

    /// Frames still waiting when the phone turns keep the place they were sent for: the
    /// `resize` comes before them to the executor, but does not move them.
    @Test func waitingFramesKeepTheirSurface() {
        let h = Harness(geometry: .fixed)
        h.batch([.touchSurface(owner: 1, width: 390, height: 844)], at: 0)
        h.batch(
            [touch(1, .down, x: 195, y: 422, t: 0), touch(1, .move, x: 195, y: 430, t: 8)]
                + [.touchSurface(owner: 1, width: 844, height: 390)], at: 1_000)
        h.advance(to: 1_008)
        let frames = h.device.frames()
        #expect(yPositions(frames) == [3175, 3226])
    }

    /// A mouse on the page, keys and the button bar go to the pointer-and-keyboard device.
    @Test func restGoesToThePointerDevice() {
        let h = Harness()
        h.batch([.motion(dx: 2, dy: 0), .key(.named(.enter), .down), .key(.named(.enter), .up)], at: 0)
        #expect(h.outputs.isEmpty)
        #expect(
            InputEvent.decode(h.pointerPipe.readAll()) == [
                .relative(REL_X, 2), .report, .key(EvdevCode(KEY_ENTER), down: true), .report,
                .key(EvdevCode(KEY_ENTER), down: false), .report,
            ])
    }
}

extension TouchpadExecutorTests {
    /// While one connection's finger is on the touchpad, another's touches are dropped as they
    /// come: they never hold up the owner's frames.
    @Test func otherConnectionsDoNotHoldUpTheOwner() {
        let h = Harness()
        h.batch([.touchSurface(owner: 1, width: 400, height: 800)], at: 0)
        h.batch([touch(1, .down, t: 0)], at: 1_000)
        _ = h.device.frames()
        h.batch([touch(5, .down, t: 0, owner: 2), touch(5, .move, y: 300, t: 40, owner: 2)], at: 1_001)
        #expect(h.executor.nextDeadline == nil)
        h.batch([touch(1, .move, y: 110, t: 8)], at: 1_008)
        #expect(yPositions(h.device.frames()) == [699])
    }
}
