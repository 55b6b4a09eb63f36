import ArgumentParser
import GesturePadServer

/// Test-only switches of `serve`, hidden from `--help` (listed by `--help-hidden`). Each changes
/// only what a test cannot reach otherwise in reasonable time; none is for normal use.
struct TestOptions: ParsableArguments {
    @Option(
        name: .customLong("test-keepalive"),
        help: ArgumentHelp(
            "(test only) Ping a connection nothing has arrived from for this many seconds and drop it after 2.5 times as long. (default: 30, 75)",
            valueName: "seconds", visibility: .hidden))
    var keepalive: Int?

    func validate() throws {
        if let keepalive, !(1...3_600).contains(keepalive) {
            throw ValidationError("--test-keepalive must be 1…3600")
        }
    }

    /// Applies the switches given to `configuration`.
    func apply(to configuration: inout ServerConfiguration) {
        if let keepalive {
            configuration.idlePingSeconds = keepalive
            configuration.idleHangupSeconds = max(keepalive + 1, keepalive * 5 / 2)
        }
    }
}
