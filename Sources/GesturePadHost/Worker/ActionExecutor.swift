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
    /// When (the worker's monotonic clock, ms) the executor has something to write without new
    /// actions: a touchpad's paced frames. Nil: nothing.
    var nextDeadline: Double? { get }
    /// The worker's clock now (ms): called before each batch and when `nextDeadline` is due;
    /// writes what is due by then.
    mutating func advance(to now: Double)
}

/// Executors that write everything at once.
extension ActionExecutor {
    public var nextDeadline: Double? { nil }
    public mutating func advance(to now: Double) {}
}
