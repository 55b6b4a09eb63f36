import GesturePadConfig
import GesturePadHost
import GesturePadServer
import GesturePadSettings
import GesturePadSinks
import Logging

/// What `serve` resolved before starting anything (`ServeCommand.resolve`): the configuration
/// file and where it was found, the server's settings merged from the flags, the file and the
/// environment, the state directory, and what the banner will say of the token and TLS.
final class ServePlan {
    let environment: [String: String]
    let configLocation: ConfigLocation?
    let file: ConfigFile
    let outputFlags: OutputFlags
    let log: LogSettings
    let logger: Logger
    let state: StateDirectory
    /// The server's settings as the flags gave them (a reload merges the file under them again).
    let flags: ServeSettings
    /// The file's `server:` section at start (a reload says what of it needs a restart).
    let fileSettings: ServeSettings
    let configuration: ServerConfiguration
    let tokenNote: String?
    /// `--token` was hidden from the process list after start (the banner says so).
    let tokenHidden: Bool
    /// The pairing secret remembered in the state directory, when that is the token.
    let remembered: String?
    let tlsNote: String?

    init(
        environment: [String: String], configLocation: ConfigLocation?, file: ConfigFile, outputFlags: OutputFlags,
        log: LogSettings, logger: Logger, state: StateDirectory, flags: ServeSettings, fileSettings: ServeSettings,
        configuration: ServerConfiguration, tokenNote: String?, tokenHidden: Bool, remembered: String?, tlsNote: String?
    ) {
        self.environment = environment
        self.configLocation = configLocation
        self.file = file
        self.outputFlags = outputFlags
        self.log = log
        self.logger = logger
        self.state = state
        self.flags = flags
        self.fileSettings = fileSettings
        self.configuration = configuration
        self.tokenNote = tokenNote
        self.tokenHidden = tokenHidden
        self.remembered = remembered
        self.tlsNote = tlsNote
    }
}

/// What `serve` started (`ServeCommand.start`), in the order it did: the recorder, the control
/// backend, pairing and its record keeper, the media players, the server (the sinks are the
/// server's), and how to stop what the server's run does not (`teardown`).
final class ServeParts {
    /// The plan's configuration with the control backend's context.
    let configuration: ServerConfiguration
    let recorder: TraceRecorder?
    let control: ControlSetup.Started
    let keeper: ServerRecordKeeper
    let pairingSettings: PairingSettings
    let pairing: (setup: PairingSetup, notifier: DesktopPairingNotifier?)?
    let media: MediaPlayers?
    let server: WebServer
    let teardown: ServeTeardown

    init(
        configuration: ServerConfiguration, recorder: TraceRecorder?, control: ControlSetup.Started, keeper: ServerRecordKeeper,
        pairingSettings: PairingSettings, pairing: (setup: PairingSetup, notifier: DesktopPairingNotifier?)?,
        media: MediaPlayers?, server: WebServer, teardown: ServeTeardown
    ) {
        self.configuration = configuration
        self.recorder = recorder
        self.control = control
        self.keeper = keeper
        self.pairingSettings = pairingSettings
        self.pairing = pairing
        self.media = media
        self.server = server
        self.teardown = teardown
    }
}
