import ArgumentParser
import GesturePadServer
import GesturePadSettings

/// Test-only switches of `serve`, hidden from `--help` (listed by `--help-hidden`). Each changes
/// only what a test cannot reach otherwise in reasonable time; none is for normal use.
struct TestOptions: ParsableArguments {
    @Flag(
        name: .customLong("test-echo"),
        help: ArgumentHelp(
            "(test only) Echo each text message instead of reading it as the gesture protocol: the conformance mode Autobahn|Testsuite runs against (tests/autobahn). Binary frames, size and UTF-8 are judged as always.",
            visibility: .hidden))
    var echo = false

    @Option(
        name: .customLong("test-keepalive"),
        help: ArgumentHelp(
            "(test only) Ping a connection nothing has arrived from for this many seconds and drop it after 2.5 times as long. (default: 30, 75)",
            valueName: "seconds", visibility: .hidden))
    var keepalive: Int?

    @Option(
        name: .customLong("test-touchpad-output"),
        help: ArgumentHelp(
            "(test only) With --control touchpad: write the touchpad's events into this file (a FIFO a benchmark reads) instead of a uinput device, and the pointer-and-keyboard's to /dev/null (bench/touchpad_latency.py).",
            valueName: "file", visibility: .hidden))
    var touchpadOutput: String?

    @Flag(
        name: .customLong("test-wait-for-hooks"),
        help: ArgumentHelp(
            "(test only) Go on with the start only once every pipe hook's process has started (at most 10 s): tests/integration/test_failed_start.py fails a later step with the hook running.",
            visibility: .hidden))
    var waitForHooks = false

    func validate() throws {
        if let keepalive, !(1...3_600).contains(keepalive) {
            throw ValidationError("--test-keepalive must be 1…3600")
        }
    }

    /// Applies the switches given to `configuration`.
    func apply(to configuration: inout ServerConfiguration) {
        if echo {
            configuration.conformanceEcho = true
            // An echo queues what it reads: room for two of the largest messages.
            let room = 2 * configuration.limits.maxMessageBytes + configuration.outboundHardCap
            configuration.outboundHardCap = max(configuration.outboundHardCap, room)
        }
        if let keepalive {
            configuration.idlePingSeconds = keepalive
            configuration.idleHangupSeconds = max(keepalive + 1, keepalive * 5 / 2)
        }
    }
}
