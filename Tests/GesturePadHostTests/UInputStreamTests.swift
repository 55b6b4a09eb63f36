import CUInput
import Foundation
import GestureControl
import Logging
import Testing

@testable import GesturePadHost

/// The uinput backend's byte stream, written to a pipe and decoded back.
@Suite struct UInputStreamTests {
    private let logger = Logger(label: "test.uinput")

    /// Each event is 24 bytes: 16 zero bytes of time, then type, code, value in native order.
    @Test func bytesOfOneMotion() {
        let pipe = TestPipe()
        let executor = UInputExecutor(writingTo: pipe.writeEnd, logger: logger)
        executor.execute(.motion(dx: 3, dy: -2))
        executor.flush()
        let bytes = pipe.readAll()
        #expect(bytes.count == 3 * 24)
        #expect(gp_input_event_size == 24)
        #expect(bytes[0..<16].allSatisfy { $0 == 0 })
        #expect(Array(bytes[16..<24]) == [0x02, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00])
        #expect(Array(bytes[40..<48]) == [0x02, 0x00, 0x01, 0x00, 0xFE, 0xFF, 0xFF, 0xFF])
        #expect(Array(bytes[64..<72]) == [0, 0, 0, 0, 0, 0, 0, 0])
        #expect(InputEvent.decode(bytes) == [rel(REL_X, 3), rel(REL_Y, -2), syn])
    }

    /// Several batches: each flush writes what was executed since the last one, in order.
    @Test func batchesInOrder() {
        let pipe = TestPipe()
        let executor = UInputExecutor(writingTo: pipe.writeEnd, logger: logger)
        executor.execute(.wheel(dx: 0, dy: 0.5))
        executor.flush()
        executor.execute(.wheel(dx: 0, dy: 0.5))
        executor.execute(.button(.right, .down))
        executor.flush()
        executor.flush()
        executor.execute(.button(.right, .up))
        executor.flush()
        #expect(
            InputEvent.decode(pipe.readAll()) == [
                rel(REL_WHEEL_HI_RES, -60), syn, rel(REL_WHEEL_HI_RES, -60), rel(REL_WHEEL, -1), syn,
                key(BTN_RIGHT, 1), syn, key(BTN_RIGHT, 0), syn,
            ])
    }

    /// close releases what is held and leaves a borrowed descriptor open.
    @Test func closeReleasesHeldKeysAndButtons() {
        let pipe = TestPipe()
        let executor = UInputExecutor(writingTo: pipe.writeEnd, logger: logger)
        executor.execute(.key(.named(.alt), .down))
        executor.execute(.button(.middle, .down))
        executor.close()
        #expect(fcntl(pipe.writeEnd, F_GETFD) >= 0)
        #expect(
            InputEvent.decode(pipe.readAll()) == [
                key(KEY_LEFTALT, 1), syn, key(BTN_MIDDLE, 1), syn, key(BTN_MIDDLE, 0), syn, key(KEY_LEFTALT, 0), syn,
            ])
    }

    /// The worker and the executor together, as the backend runs them: stop drains the queue
    /// and releases what is held.
    @Test func throughTheWorker() throws {
        let pipe = TestPipe()
        let fd = pipe.writeEnd
        let worker = try ActionWorker(name: "test-uinput", logger: logger) {
            UInputExecutor(writingTo: fd, logger: Logger(label: "test.uinput"))
        }
        worker.perform([.motion(dx: 1, dy: 0), .key(.character("a"), .down)][...])
        worker.perform([.text("b")][...])
        worker.stop()
        #expect(
            InputEvent.decode(pipe.readAll()) == [
                rel(REL_X, 1), syn, key(KEY_A, 1), syn, key(KEY_B, 1), syn, key(KEY_B, 0), syn, key(KEY_A, 0), syn,
            ])
    }
}

/// Opening the device: the errors a user sees, and the real thing where it can run.
@Suite struct UInputDeviceTests {
    /// A missing device says so and how to get it.
    @Test func missingDevice() {
        #expect(
            throws: ControlBackendError.uinput(
                "/nonexistent/uinput does not exist: load the uinput module (modprobe uinput): gesturepad help control")
        ) {
            _ = try UInputBackend.open(path: "/nonexistent/uinput")
        }
    }

    /// A file that is not the uinput device fails at the first ioctl, in one line.
    @Test func notADevice() throws {
        let path = NSTemporaryDirectory() + "gesturepad-not-uinput-\(getpid())"
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(UInputAccess.isWritable(path: path))
        #expect(!UInputAccess.isWritable(path: path + "-missing"))
        do {
            _ = try UInputBackend.open(path: path)
            Issue.record("a plain file made a uinput device")
        } catch let error as ControlBackendError {
            #expect(error.message.hasPrefix("cannot create the uinput device (UI_SET_EVBIT): "))
            #expect(!error.message.contains("\n"))
        }
    }

    /// The real device, where /dev/uinput is writable (never on the CI machines, which have no
    /// /dev/uinput at all: this test is then skipped; the pipe tests above cover the stream and
    /// tests/kernel runs the real server against a real kernel, udev and libinput).
    @Test(.enabled(if: UInputAccess.isWritable(), "skipped: /dev/uinput is missing or not writable here"))
    func realDevice() throws {
        let backend = try UInputBackend.open()
        #expect(backend.name == "uinput")
        backend.perform([.motion(dx: 1, dy: 1), .motion(dx: -1, dy: -1), .key(.named(.shift), .down)][...])
        backend.releaseAll()
        #expect(backend.worker.waitUntilDone())
        backend.stop()
    }
}
