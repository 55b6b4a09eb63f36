/// A device the executors write `input_event`s to: a uinput device in the backends; a pipe
/// in tests, a file (FIFO) in the touchpad benchmark.
protocol InputDeviceOutput: AnyObject {
    var fileDescriptor: Int32 { get }
    /// Writes whole events (`InputEvent.byteCount` bytes each); the errno of a failure, nil on
    /// success. `bytes` is the caller's scratch buffer: an output may fill in the events'
    /// times (the kernel stamps a uinput device's events itself).
    func write(_ bytes: inout [UInt8]) -> Int32?
    /// Removes the device (a pipe or file: closes it).
    func destroy()
}

extension InputDeviceOutput {
    func write(_ bytes: inout [UInt8]) -> Int32? {
        FileDescriptorSink(fileDescriptor: fileDescriptor).write(bytes)
    }
}

extension UInputDevice: InputDeviceOutput {}
