import CUInput
import GesturePadSystem
import Glibc

/// A virtual input device made through `/dev/uinput`: the descriptor, the ioctls that declare
/// and create the device (`UInputDeviceSpec`), and its destruction. Owns the descriptor.
final class UInputDevice {
    let fileDescriptor: Int32
    private var isOpen = true

    private init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    deinit { destroy() }

    /// Opens `path` (write-only, non-blocking), declares what `spec` says and creates the
    /// device. Errors are one line for the user.
    static func create(path: String, spec: UInputDeviceSpec) throws -> UInputDevice {
        guard gp_input_event_size == Int32(InputEvent.byteCount) else {
            throw ControlBackendError.uinput(
                "uinput: struct input_event is \(gp_input_event_size) bytes here, GesturePad writes \(InputEvent.byteCount)")
        }
        let fd: Int32
        do throws(SystemCallError) {
            fd = try SystemCall.retrying { open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC) }
        } catch {
            throw openError(path: path, code: error.errno)
        }
        let device = UInputDevice(fileDescriptor: fd)
        func check(_ result: @autoclosure () -> Int32, _ request: String) throws {
            do throws(SystemCallError) {
                try SystemCall.retrying(result)
            } catch {
                device.destroy()
                throw ControlBackendError.uinput("cannot create the uinput device (\(request)): \(error)")
            }
        }
        for type in spec.eventTypes {
            try check(gp_uinput_enable_event_type(fd, type), "UI_SET_EVBIT")
        }
        for key in spec.keys {
            try check(gp_uinput_enable_key(fd, Int32(key)), "UI_SET_KEYBIT")
        }
        for axis in spec.relativeAxes {
            try check(gp_uinput_enable_relative_axis(fd, Int32(axis)), "UI_SET_RELBIT")
        }
        for axis in spec.absoluteAxes {
            try check(gp_uinput_enable_absolute_axis(fd, Int32(axis.code)), "UI_SET_ABSBIT")
            try check(
                gp_uinput_setup_absolute_axis(fd, Int32(axis.code), axis.minimum, axis.maximum, axis.resolution),
                "UI_ABS_SETUP")
        }
        for property in spec.properties {
            try check(gp_uinput_enable_property(fd, Int32(property)), "UI_SET_PROPBIT")
        }
        try check(gp_uinput_setup(fd, spec.name, spec.bus, 0, 0, 1), "UI_DEV_SETUP")
        try check(gp_uinput_create(fd), "UI_DEV_CREATE")
        return device
    }

    /// How long `destroy` lets readers take the last events first (ms): a removed device's
    /// unread events are lost — evdev answers a read of a device that is gone with ENODEV before
    /// its buffer — so the releases written at the stop would reach libinput (and any other
    /// reader) only as libinput's own release on removal, or not at all.
    static let lastEventsGraceMilliseconds: UInt32 = 20

    /// Removes the device, `lastEventsGraceMilliseconds` after the last events were written,
    /// and closes the descriptor (once).
    func destroy() {
        guard isOpen else { return }
        isOpen = false
        _ = usleep(Self.lastEventsGraceMilliseconds * 1_000)
        _ = gp_uinput_destroy(fileDescriptor)
        Glibc.close(fileDescriptor)
    }

    private static func openError(path: String, code: Int32) -> ControlBackendError {
        switch code {
        case EACCES, EPERM, EROFS:
            ControlBackendError.uinput("\(path) is not writable: add the udev rule: gesturepad help control")
        case ENOENT, ENODEV, ENXIO:
            ControlBackendError.uinput(
                "\(path) does not exist: load the uinput module (modprobe uinput): gesturepad help control")
        default:
            ControlBackendError.uinput("cannot open \(path): \(errorText(code))")
        }
    }
}
