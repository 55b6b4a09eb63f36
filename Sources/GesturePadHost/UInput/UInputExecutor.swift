import CUInput
import GestureControl
import Logging

/// Carries `HostAction`s out as `input_event`s written to a file descriptor: a uinput device
/// in the backend, any descriptor (a pipe) in tests. Encodes with `InputEventEncoder`; writes
/// each batch at once on `flush`. Confined to one thread.
final class UInputExecutor: ActionExecutor {
    /// The relative axes the encoder uses: what the device must declare.
    static let relativeAxes: [EvdevCode] = [REL_X, REL_Y, REL_WHEEL, REL_HWHEEL, REL_WHEEL_HI_RES, REL_HWHEEL_HI_RES]
        .map { EvdevCode($0) }

    private var encoder: InputEventEncoder
    private var events: [InputEvent] = []
    private var bytes: [UInt8] = []
    private let sink: FileDescriptorSink
    /// The device this executor owns and destroys at `close` (nil: a borrowed descriptor).
    private let device: (any InputDeviceOutput)?
    private let logger: Logger
    private var failedWrites = 0

    /// Writes to `device` and destroys it at `close`; types characters as `layout` has them.
    init(device: UInputDevice, layout: EvdevLayout = .us, logger: Logger) {
        encoder = InputEventEncoder(layout: layout)
        self.device = device
        sink = FileDescriptorSink(fileDescriptor: device.fileDescriptor)
        self.logger = logger
        reserve()
    }

    /// Writes to `fileDescriptor`, which stays the caller's (tests: the write end of a pipe),
    /// or is `kept`'s, which the executor keeps alive and destroys at `close`.
    init(
        writingTo fileDescriptor: Int32, layout: EvdevLayout = .us, logger: Logger,
        keeping kept: (any InputDeviceOutput)? = nil
    ) {
        encoder = InputEventEncoder(layout: layout)
        device = kept
        sink = FileDescriptorSink(fileDescriptor: fileDescriptor)
        self.logger = logger
        reserve()
    }

    /// The pointer-and-keyboard device: every key and button the encoder sends with the US
    /// layout, relative motion and both wheels (high resolution too).
    static let deviceSpec = deviceSpec(for: .us)

    /// The pointer-and-keyboard device for `layout`: the keys its characters are on too.
    static func deviceSpec(for layout: EvdevLayout) -> UInputDeviceSpec {
        UInputDeviceSpec(
            name: "GesturePad pointer and keyboard", keys: EvdevKeys.allCodes(for: layout), relativeAxes: relativeAxes)
    }

    /// Creates the virtual device at `path`; throws a one-line `ControlBackendError`.
    static func open(path: String, layout: EvdevLayout = .us, logger: Logger) throws -> UInputExecutor {
        let device = try UInputDevice.create(path: path, spec: deviceSpec(for: layout))
        return UInputExecutor(device: device, layout: layout, logger: logger)
    }

    /// Characters skipped because the layout cannot type them.
    var skippedCharacters: Int { encoder.skippedCharacters }

    func execute(_ action: HostAction) {
        encoder.encode(action, into: &events)
    }

    func flush() {
        guard !events.isEmpty else { return }
        for event in events { event.append(to: &bytes) }
        events.removeAll(keepingCapacity: true)
        if let code = sink.write(bytes) {
            failedWrites += 1
            // The first failure, then every 1,000th: a vanished device must not flood the log.
            if failedWrites % 1_000 == 1 {
                logger.error("control: writing to the uinput device failed: \(errorText(code)) (\(failedWrites) failures)")
            }
        }
        bytes.removeAll(keepingCapacity: true)
    }

    func releaseAll() {
        encoder.releaseAll(into: &events)
        flush()
    }

    func close() {
        releaseAll()
        device?.destroy()
    }

    private func reserve() {
        events.reserveCapacity(256)
        bytes.reserveCapacity(256 * InputEvent.byteCount)
    }
}
