/// A value that one thread alone touches — a `WorkerThread`'s turns, which run one after
/// another on it: a device, a file, a consumer, a reused buffer. It crosses threads only to be
/// handed to that thread (captured by the turn), which is why it may claim to be `Sendable`;
/// touching it from any other thread is a data race.
public final class ThreadConfined<Value>: @unchecked Sendable {
    private var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    /// Reads and changes the value — on its thread only.
    public func withValue<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try body(&value)
    }
}
