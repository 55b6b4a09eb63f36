/// A device the executors write `input_event`s to: a uinput device in the backends; a pipe
/// in tests, a file (FIFO) in the touchpad benchmark.
protocol InputDeviceOutput: AnyObject {
    var fileDescriptor: Int32 { get }
    /// Removes the device (a pipe or file: closes it).
    func destroy()
}

extension UInputDevice: InputDeviceOutput {}
