import ArgumentParser
import FoundationEssentials
import GesturePadConfig
import GesturePadHost
import GesturePadSystem
import GestureProtocol
import Glibc

extension BackendKind: ExpressibleByArgument {}

/// `gesturepad replay FILE|-` (PROTOCOL.md "Replay"): runs a recorded trace through the engine
/// on a virtual clock and prints one JSON gesture message per line. Only I/O lives here; the
/// replay itself is `ReplayHost`.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a trace through the engine.",
        discussion: """
            FILE holds one page → server message (or batch) per line; "-" reads standard input. \
            Gesture messages go to standard output, one per line, with session "replay"; a \
            malformed line prints "line N: " and the error message on standard error. Exit status 0.
            """
    )

    @Argument(help: "Trace file, or - for standard input.") var file: String

    @Option(
        name: .long,
        help: """
            Configuration file whose gesture thresholds and pointer limit the replay uses, and with --actions its \
            control settings and the gestures its hooks claim (default: the built-in thresholds of docs/gestures.md).
            """
    )
    var config: String?

    @Flag(
        name: .customLong("actions"),
        help: """
            Print the actions the control mapping would take (pointer motion, buttons, wheel, keys), one JSON \
            object per line, instead of the gestures. Never touches the computer.
            """)
    var printActions = false

    @Option(
        name: .customLong("control"),
        help: ArgumentHelp(
            "The backend whose mapping --actions prints, as serve --control names it (touchpad: the contacts the virtual touchpad gets). Implies --actions. (default: x11)",
            valueName: "backend"))
    var control: BackendKind?

    /// `--backend`, the name `--control` had here before: kept for scripts that use it.
    @Option(name: .customLong("backend"), help: .hidden)
    var backendAlias: BackendKind?

    /// The backend whose mapping is printed.
    private var backend: BackendKind { control ?? backendAlias ?? .x11 }

    @OptionGroup var pointer: ControlOptions

    func run() throws {
        let input: Int32
        if file == "-" {
            input = STDIN_FILENO
        } else {
            guard let handle = try? SystemCall.retrying({ open(self.file, O_RDONLY | O_CLOEXEC) }) else {
                FileIO.writeStandardError("gesturepad replay: cannot open trace file '\(file)'\n")
                throw ExitCode.failure
            }
            input = handle
        }
        let file = try config.map { try ConfigFile.load(path: $0) } ?? ConfigFile()
        var host = ReplayHost(
            config: file.gestures, maxPointers: file.server.maxPointers ?? ProtocolLimits().maxPointers,
            control: printActions || control != nil || backendAlias != nil
                ? file.controlSettings(
                    flags: pointer.update, backendAcceleration: backend.defaultAcceleration,
                    backendKineticScrolling: backend.defaultKineticScrolling, hooks: file.hooks) : nil,
            routing: backend.takesContacts ? .contacts(owner: 0) : .gestures)
        var stdout: [UInt8] = []
        var stderr: [UInt8] = []
        var pending: [UInt8] = []  // bytes of the current, unfinished line
        var lineNumber = 0
        while true {
            let chunk = FileIO.read(upTo: 1 << 16, from: input)
            if chunk.isEmpty { break }
            var i = pending.count
            pending.append(contentsOf: chunk)
            // Replay every complete line in the buffer.
            var consumed = 0
            while i < pending.count {
                if pending[i] == 0x0A {
                    lineNumber += 1
                    host.feed(line: pending.span.extracting(consumed..<i), number: lineNumber, stdout: &stdout, stderr: &stderr)
                    consumed = i + 1
                }
                i += 1
            }
            pending.removeFirst(consumed)
            Self.flush(&stdout, &stderr)
        }
        if !pending.isEmpty {
            lineNumber += 1
            host.feed(line: pending.span, number: lineNumber, stdout: &stdout, stderr: &stderr)
        }
        host.finish(stdout: &stdout)
        Self.flush(&stdout, &stderr)
    }

    /// Writes the buffered output (one write per stream and chunk of input, not per line).
    private static func flush(_ stdout: inout [UInt8], _ stderr: inout [UInt8]) {
        if !stderr.isEmpty {
            try? FileIO.write(stderr, to: STDERR_FILENO)
            stderr.removeAll(keepingCapacity: true)
        }
        if !stdout.isEmpty {
            FileIO.writeStandardOutput(stdout)
            stdout.removeAll(keepingCapacity: true)
        }
    }
}
