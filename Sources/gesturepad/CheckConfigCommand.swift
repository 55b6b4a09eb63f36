import ArgumentParser
import FoundationEssentials
import GestureControl
import GestureEngine
import GesturePadConfig
import GesturePadSettings
import GesturePadSinks
import GesturePadSystem

/// `gesturepad check-config FILE`: validates a configuration file and explains every problem
/// with its line number (`FILE:LINE:COLUMN: error: …`); exit status 1 when there is one.
struct CheckConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Validate a configuration file.",
        discussion:
            "Prints every problem as FILE:LINE:COLUMN: error: MESSAGE and exits 1, or a summary of the configuration and exits 0."
    )

    @Argument(
        help: ArgumentHelp(
            "Configuration file (YAML). (default: the one `serve` reads: ~/.config/gesturepad/config.yaml, else /etc/gesturepad/config.yaml)",
            valueName: "file"))
    var file: String?

    @Flag(
        name: .customLong("print-keys"),
        help:
            "Print every key of the file, its type, default and meaning (the Markdown tables of docs/outputs.md and docs/control.md), and exit."
    )
    var printKeys = false

    func run() throws {
        if printKeys {
            print(ConfigReference.markdown(), terminator: "")
            return
        }
        let environment = ProcessInfo.processInfo.environment
        guard
            let file = file
                ?? ConfigLocation.find(explicit: nil, environment: environment, exists: FileManager.default.fileExists)?
                .path
        else {
            print(ConfigLocation.noneLine(environment: environment))
            return
        }
        let config: ConfigFile
        do {
            config = try ConfigFile.load(path: file)
        } catch let error as ConfigError {
            throw error.report()
        }
        print("\(file): OK")
        let changed = GestureConfig.keys.filter { config.gestures.value(forKey: $0) != GestureConfig().value(forKey: $0) }
        if !changed.isEmpty {
            print(
                "  gesture thresholds: "
                    + changed.map { "\($0)=\(config.gestures.value(forKey: $0) ?? 0)" }.joined(separator: ", "))
        }
        let control = config.control
        if config.controlBackend != nil || config.controlAcceleration != nil || config.controlKineticScrolling != nil
            || control != ControlSettings()
        {
            let swipes = SwipeDirection.allCases.map { "\($0.name)=\(control.swipeKeys[$0]?.description ?? "none")" }
            print(
                "  control: backend \(config.controlBackend?.rawValue ?? "auto"), speed \(control.speed), "
                    + "\(config.controlAcceleration?.rawValue ?? "the backend's acceleration"), "
                    + "kinetic scrolling \(config.controlKineticScrolling.map { $0 ? "on" : "off" } ?? "the backend's"), "
                    + "swipes \(swipes.joined(separator: " "))")
        }
        var stderr = StandardError()
        for rule in config.hooks {
            print("  \(rule.name): \(describe(rule))")
            let program = rule.resolvedProgram
            if !Self.isExecutable(program) {
                print("\(file): warning: \(rule.name): program '\(program)' not found or not executable (here, now)", to: &stderr)
            }
        }
    }

    /// Whether `program` would start: a path to an executable file, or a name found in `PATH`.
    static func isExecutable(_ program: String) -> Bool {
        let fm = FileManager.default
        if program.contains("/") { return fm.isExecutableFile(atPath: program) }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { fm.isExecutableFile(atPath: "\($0)/\(program)") }
    }

    private func describe(_ rule: HookRule) -> String {
        var match = rule.gestures.map(\.name).joined(separator: "|")
        if !rule.media.isEmpty { match = "player " + rule.media.map(\.name).joined(separator: "|") }
        if let player = rule.player { match += " of \(player)" }
        if !rule.phases.isEmpty { match += " " + rule.phases.map(\.name).joined(separator: "|") }
        if let p = rule.pointers { match += " pointers=\(p)" }
        if let d = rule.direction { match += " direction=\(d.name)" }
        if let c = rule.count { match += " count=\(c)" }
        if rule.session != nil { match += " (one session)" }
        if rule.claim { match += " claimed (the computer does not also act on it)" }
        switch rule.action {
        case .run(let o):
            return "\(match) → run \(o.program) (timeout \(o.timeout) s, \(o.concurrency) at once, queue \(o.queueLimit))"
        case .pipe(let o): return "\(match) → pipe to \(o.program) (queue \(o.queueLimit))"
        }
    }
}

/// `print(…, to: &stderr)`.
struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        FileIO.writeStandardError(string)
    }
}
