/// The limits on what one hook's processes may write to stdout and stderr (docs/outputs.md
/// "Hook output"). One set per hook rule, shared by all of its processes.
public struct HookOutputLimits: Sendable, Hashable {
    /// Lines logged per second on average: the refill rate of the line bucket. 20/s is far
    /// above what a hook's diagnostics need, and a terminal can still be read at that pace.
    public var linesPerSecond: Double = 20
    /// Lines logged at once (the line bucket's size): room for a Python traceback or a
    /// usage message, and it sets the pause after a flood (`burst / linesPerSecond` = 5 s).
    public var burst: Int = 100
    /// The longest line logged, in bytes (the rest is dropped, the line ends in "…"):
    /// the length of a long error message, far under a log line anyone would read.
    public var maxLineBytes: Int = 1_024
    /// Bytes read per second from the hook's stdout and stderr together. A hook that writes
    /// faster waits in `write(2)` on its full pipe; the server spends no more than this pace
    /// costs (measured against `yes`: 0.5 % of a core in a release build, 6.5 % in a debug
    /// build; reading as fast as `yes` writes: 62 % — docs/outputs.md).
    public var bytesPerSecond: Int = 1 << 20
    /// Bytes read at once before the pace applies (the byte bucket's size).
    public var byteBurst: Int = 1 << 20

    public init() {}

    /// The values used: each clamped to a sane range (rates above zero, sizes at least 1, a
    /// line limit of at least 16 bytes), so that no computed pause can overflow.
    var sanitized: HookOutputLimits {
        var limits = self
        limits.linesPerSecond = linesPerSecond.isFinite ? min(1e6, max(0.001, linesPerSecond)) : 20
        limits.burst = min(1_000_000, max(1, burst))
        limits.maxLineBytes = min(1 << 20, max(16, maxLineBytes))
        limits.bytesPerSecond = min(1 << 40, max(1, bytesPerSecond))
        limits.byteBurst = min(1 << 40, max(1, byteBurst))
        return limits
    }
}
