import ArgumentParser
import FoundationEssentials
import GestureControl
import GesturePadConfig
import GesturePadHost
import GesturePadServer
import GesturePadSettings
import GesturePadSinks
import GesturePadSystem
import GestureProtocol
import Glibc
import Logging

/// `gesturepad serve` (the default command): serves the page and the gesture WebSocket.
/// Flags override the configuration file, which overrides the defaults.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the page and the gesture WebSocket.",
        discussion: """
            Prints the addresses to open on a phone (with the pairing secret) and a QR code: a phone \
            that opens one is paired once, and reconnects with its own device key from then on \
            (gesturepad devices lists and forgets them). Ctrl-C or SIGTERM stops (clients see close \
            1001); SIGHUP reopens the log files and reads the configuration file again (hooks, \
            gesture thresholds, control settings).
            """)

    @OptionGroup var output: OutputOptions

    @Option(
        help: ArgumentHelp(
            "Address, host name or interface to listen on. (default: all interfaces, IPv4 and IPv6)", valueName: "address"))
    var host: String?

    @Option(help: ArgumentHelp("TCP port; 0 picks a free one. (default: \(ServerConfiguration.defaultPort))", valueName: "port"))
    var port: Int?

    @Option(
        name: .customLong("public"),
        help: ArgumentHelp(
            "Folder of the page. (default: the installed one, <prefix>/share/gesturepad/Public, else ./Public, else the package's Public/)",
            valueName: "dir"))
    var publicDirectory: String?

    @OptionGroup var secret: TokenOptions

    @Flag(name: .customLong("no-auth"), help: "Turn the access token off: anyone who can reach the port may connect.")
    var noAuth = false

    @Flag(
        name: .customLong("new-token"),
        help: """
            Make a new pairing secret and remember it: links with the old one pair no one from now on; \
            phones already paired keep working (add --forget-devices to forget them too).
            """)
    var newToken = false

    @Option(
        help: ArgumentHelp(
            "WebSocket connections at once; the next is refused with 503. (default: \(ServerConfiguration.defaultMaxConnections))",
            valueName: "n"))
    var maxConnections: Int?

    @Option(
        help: ArgumentHelp(
            "Largest message in bytes; a bigger one closes the connection (1009). (default: \(ProtocolLimits().maxMessageBytes))",
            valueName: "bytes"))
    var maxMessageBytes: Int?

    @Option(
        name: .customLong("max-rate"),
        help: ArgumentHelp(
            "Messages per second per connection before it is closed (1008). (default: \(ProtocolLimits().maxMessagesPerSecond))",
            valueName: "n"))
    var maxRate: Int?

    @Option(
        name: .customLong("max-errors"),
        help: ArgumentHelp(
            "Refused messages in a row before the connection is closed (1008). (default: \(ProtocolLimits().maxErrorsInARow))",
            valueName: "n"))
    var maxErrors: Int?

    @Option(
        help: ArgumentHelp(
            "Pointers down at once per connection; more get a too_many_pointers error. (default: \(ProtocolLimits().maxPointers))",
            valueName: "n"))
    var maxPointers: Int?

    @Flag(name: .customLong("no-qr"), help: "Do not draw the QR code.")
    var noQR = false

    @Option(
        name: .customLong("control"),
        help: ArgumentHelp(
            "What drives this computer's pointer and keyboard. (default: \(ControlMode.auto.rawValue))",
            valueName: "backend"))
    var control: ControlMode?

    @Option(
        name: .customLong("keyboard-layout"),
        help: ArgumentHelp(
            "The desktop's keyboard layout, which uinput and touchpad type through (an XKB layout, optionally with its variant: de, fr, de+nodeadkeys). (default: the desktop's, asked of the Wayland compositor or the X server, else us; x11 and portal follow the desktop's own)",
            valueName: "layout"))
    var keyboardLayout: String?

    @OptionGroup(title: "Pointer") var pointer: ControlOptions

    @OptionGroup(title: "Pairing") var pairingOptions: PairingOptions

    @OptionGroup(title: "HTTPS") var tls: TLSOptions

    @OptionGroup(visibility: .hidden) var testing: TestOptions

    @OptionGroup(title: "Recording") var record: RecordOptions

    func validate() throws {
        if noAuth && (pairingOptions.confirm || pairingOptions.forgetDevices) {
            throw ValidationError("--no-auth pairs no phones: it goes with neither --confirm-pairing nor --forget-devices")
        }
        if newToken && (secret.isGiven || noAuth) {
            throw ValidationError(
                "--new-token makes a token to remember: it goes with neither --token, --token-file nor --no-auth")
        }
    }

    func run() throws {
        // Writes to a pipe whose reader went (a hook, a piped terminal log) fail with EPIPE.
        BrokenPipes.ignore()
        // Every log line's local time: with TZ unset, glibc looks at /etc/localtime again for
        // each one — a file system call per connection on the service thread. The same zone,
        // named once, is read once (a zone changed while the server runs shows at its restart).
        if getenv("TZ") == nil { setenv("TZ", ":/etc/localtime", 1) }
        let plan = try resolve()
        let parts = try start(plan)
        let record = ServeAnnouncement(drawQR: !noQR, forgetDevices: pairingOptions.forgetDevices).announce(plan, parts)
        parts.server.run()
        ServerRecord.release(in: plan.state, pid: record.pid, restoring: record.replaced, isRunning: ProcessProbe.isGesturePad)
        // Every connection has closed and released what it held: the media thread and the
        // notifier stop, and the backend lets go of the rest (the reverse of their start).
        parts.teardown.afterRun()
    }

    /// The first step: the configuration file, the token, the server's settings, TLS, the page
    /// folder and the address, resolved and checked; nothing started yet.
    private func resolve() throws -> ServePlan {
        let environment = ProcessInfo.processInfo.environment
        let configLocation = output.configLocation(environment: environment)
        let file = try output.loadConfigFile(at: configLocation)
        let outputFlags = output.flags(recordDirectory: record.directory)
        let log = file.logSettings(flags: outputFlags)
        var logger = Logger(label: "gesturepad.server") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = OutputOptions.diagnosticsLevel(verbose: log.verbose)
        let tokenHidden = secret.hideFromProcessList()
        let flags = ServeSettings(
            host: host, port: port, publicDirectory: publicDirectory, token: try secret.given(),
            auth: noAuth ? false : nil, maxConnections: maxConnections, maxMessageBytes: maxMessageBytes,
            maxMessagesPerSecond: maxRate, maxErrorsInARow: maxErrors, maxPointers: maxPointers,
            tls: tls.enabled ? true : nil, tlsCertificate: tls.certificate, tlsKey: tls.key)
        let fileSettings = file.server
        let environmentToken = environment["GESTUREPAD_TOKEN"]
        // No token given anywhere: the one remembered in the state directory (made once).
        var tokenNote: String? = "The token was given (--token, --token-file, GESTUREPAD_TOKEN or the configuration file)."
        var remembered: String? = nil
        let state = StateDirectory(path: XDGDirectories.state())
        let tokenSource = ServeSettings.tokenSource(flags: flags, file: fileSettings, environmentToken: environmentToken)
        if tokenSource == .remembered {
            do {
                let (stored, origin) = try TokenStore.load(from: state, renew: newToken)
                remembered = stored
                tokenNote =
                    origin == .new
                    ? "The pairing secret is new (kept in \(state.path)): a phone that opens this link or scans the code is paired once."
                    : "The pairing secret is remembered from an earlier run (\(state.path)); --new-token replaces it, paired phones keep working."
            } catch {
                throw CommandFailure.secret(error.description)
            }
        } else if newToken {
            throw ValidationError("--new-token: a token is given (GESTUREPAD_TOKEN or the configuration file)")
        }
        var configuration: ServerConfiguration
        do {
            configuration = try ServeSettings.resolve(
                flags: flags, file: fileSettings, environmentToken: environmentToken,
                publicDirectory: "", gestures: file.gestures, makeToken: { remembered ?? AccessToken.random() })
        } catch {
            // A bad value of the file's `server:` section is the file's problem (exit 1, like
            // check-config); the same mistake made with a flag is a usage error (64).
            guard error.origin == .file, let path = configLocation?.path else {
                throw ValidationError(error.description)
            }
            let issue = ConfigIssue(line: 0, column: 0, message: "server: \(error.description)")
            throw ConfigError(path: path, issues: [issue]).report()
        }
        let secure = try tls.configuration(state: state, file: file)
        // The desktop page's key (gesturepad open) and the identity phones pin: only a server
        // that pairs phones has them.
        if configuration.token != nil {
            configuration.desktopKey = try? KeyFileStore.load(.desktop, from: state)
            configuration.identityKey = try? KeyFileStore.load(.identity, from: state)
        }
        configuration.tls = secure?.0
        testing.apply(to: &configuration)
        configuration.publicDirectory = try Self.publicFolder(file.publicDirectory(flag: publicDirectory), logger: logger)
        if let host = configuration.host {
            guard let bindable = HostResolver.bindable(host, interfaces: InterfaceList.current()) else {
                throw CommandFailure.option("--host \(host)", "not an address, interface or known host name of this machine")
            }
            configuration.host = bindable
        }
        if configuration.token == nil {
            logger.warning("authentication is off (--no-auth): anyone who can reach the port can connect")
        }
        return ServePlan(
            environment: environment, configLocation: configLocation, file: file, outputFlags: outputFlags, log: log,
            logger: logger, state: state, flags: flags, fileSettings: fileSettings, configuration: configuration,
            tokenNote: tokenNote, tokenHidden: tokenHidden, remembered: remembered, tlsNote: secure?.note)
    }

    /// The second step: the sinks (and their hook processes), the recorder, the control
    /// backend, pairing, the media players and the server, in that order — and, when one of
    /// them cannot start, what started before it stopped again, the last first (`ServeTeardown`,
    /// which stops the rest after the run too).
    private func start(_ plan: ServePlan) throws -> ServeParts {
        let logger = plan.logger
        var configuration = plan.configuration
        var started = ServeTeardown()
        let sinks = try OutputOptions.makeSinks(
            log: plan.log, hooks: output.noHooks ? nil : plan.file.hookRules(flags: plan.outputFlags), logger: logger)
        started.add(serverStops: true) { for sink in sinks { sink.close() } }
        if testing.waitForHooks {
            for case let hooks as HookSink in sinks where !hooks.waitForPipes(timeout: 10) {
                logger.warning("--test-wait-for-hooks: a pipe hook did not start (within 10 s)")
            }
        }
        let recorder: TraceRecorder?
        do {
            recorder = try record.makeRecorder(log: plan.log, logger: logger)
        } catch {
            try started.fail(error)
        }
        started.add(serverStops: true) { recorder?.close() }
        let control: ControlSetup.Started
        do {
            control = try ControlSetup.start(
                mode: plan.file.controlMode(flag: self.control),
                settings: {
                    plan.file.controlSettings(
                        flags: pointer.update, backendAcceleration: $0.defaultAcceleration,
                        backendKineticScrolling: $0.defaultKineticScrolling,
                        hooks: plan.file.hookRules(flags: plan.outputFlags))
                },
                keyboardLayout: plan.file.keyboardLayout(flag: keyboardLayout), stateDirectory: plan.state.path,
                touchpadOutput: testing.touchpadOutput, logger: logger)
        } catch {
            try started.fail(error)
        }
        started.add { control.backend?.stop() }
        configuration.control = control.context
        let keeper = ServerRecordKeeper(state: plan.state, logger: logger)
        var pairingSettings = plan.file.pairingSettings(flags: pairingOptions.flags)
        // A service's start (its output goes to the journal): no one is there to see the code.
        pairingSettings.openAtStart = !JournalStream.isStandardError(environment: plan.environment)
        let pairing =
            configuration.token == nil
            ? nil : pairingOptions.setup(pairingSettings, state: plan.state, record: keeper, logger: logger)
        started.add { pairing?.notifier?.stop() }
        // The computer's media players (MPRIS), for the page's media view. Without them the
        // server runs on: the page's media view says there are none.
        let media: MediaPlayers?
        do {
            media = try MediaPlayers(logger: logger)
        } catch {
            media = nil
            logger.warning("the media view will show no player: its thread could not start", metadata: ["error": "\(error)"])
        }
        started.add { media?.stop() }
        let server: WebServer
        do {
            let reload = ConfigReload(
                options: output, flags: plan.outputFlags, pointer: pointer.update, backend: control.kind,
                environment: plan.environment, startServer: plan.fileSettings, serverFlags: plan.flags)
            server = try WebServer(
                configuration: configuration, sinks: sinks, backend: control.backend, recorder: recorder,
                pairing: pairing?.setup, reload: reload.read,
                touchpadSettings: TouchpadSettingsReader.reading(environment: plan.environment), media: media,
                logger: logger)
        } catch let error as ServerStartError {
            try started.fail(
                CommandFailure.start(StartFailure.message(error, port: configuration.port, state: plan.state)))
        } catch {
            try started.fail(error)
        }
        return ServeParts(
            configuration: configuration, recorder: recorder, control: control, keeper: keeper,
            pairingSettings: pairingSettings, pairing: pairing, media: media, server: server, teardown: started)
    }
}
