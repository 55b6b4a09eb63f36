import GestureControl

/// Carries `HostAction`s out on one device, synchronously, on the one thread that owns it (an
/// `ActionWorker`'s thread in a backend; the test's thread in a test). Holds the device's
/// state: what is pressed, the wheel remainders, the keyboard mapping. (`SendableMetatype`:
/// only the type crosses to the worker thread, which makes the executor there.)
public protocol ActionExecutor: SendableMetatype {
    /// Carries out one action. It may be buffered until `flush`.
    mutating func execute(_ action: HostAction)
    /// Sends whatever `execute` buffered; called after each batch of actions.
    mutating func flush()
    /// Releases every button and key this executor holds, and flushes.
    mutating func releaseAll()
    /// Releases everything and frees the device. The last call.
    mutating func close()
}
