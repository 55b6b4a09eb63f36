/// Where the touchpad's events go: the uinput device in the backend, a pipe in tests.
protocol TouchpadOutput: AnyObject {
    var fileDescriptor: Int32 { get }
    /// Removes the device (a pipe: closes it).
    func destroy()
}

extension UInputDevice: TouchpadOutput {}
