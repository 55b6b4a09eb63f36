import GesturePadConfig
import GesturePadHost
import GesturePadServer
import GesturePadSettings
import GesturePadSinks
import Logging

/// What `serve` resolved before starting anything (`ServeCommand.resolve`): the configuration
/// file and where it was found, the server's settings merged from the flags, the file and the
/// environment, the state directory, and what the banner will say of the token and TLS.
struct ServePlan {
    var environment: [String: String]
    var configLocation: ConfigLocation?
    var file: ConfigFile
    var outputFlags: OutputFlags
    var log: LogSettings
    var logger: Logger
    var state: StateDirectory
    /// The server's settings as the flags gave them (a reload merges the file under them again).
    var flags: ServeSettings
    /// The file's `server:` section at start (a reload says what of it needs a restart).
    var fileSettings: ServeSettings
    var configuration: ServerConfiguration
    var tokenNote: String?
    /// `--token` was hidden from the process list after start (the banner says so).
    var tokenHidden: Bool
    /// The pairing secret remembered in the state directory, when that is the token.
    var remembered: String?
    var tlsNote: String?
}

/// What `serve` started (`ServeCommand.start`), in the order it did: the recorder, the control
/// backend, pairing and its record keeper, the media players, the server (the sinks are the
/// server's).
struct ServeParts {
    /// The plan's configuration with the control backend's context.
    var configuration: ServerConfiguration
    var recorder: TraceRecorder?
    var control: ControlSetup.Started
    var keeper: ServerRecordKeeper
    var pairingSettings: PairingSettings
    var pairing: (setup: PairingSetup, notifier: DesktopPairingNotifier?)?
    var media: MediaPlayers?
    var server: WebServer
}
