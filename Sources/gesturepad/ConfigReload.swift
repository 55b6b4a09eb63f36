import FoundationEssentials
import GestureControl
import GesturePadConfig
import GesturePadHost
import GesturePadSettings

/// How `serve` reads its configuration again when told to reload (SIGHUP, `systemctl --user
/// reload`): the file found by the same rule as at start (`--config`, else the user's, else the
/// system's; none with `--no-config`), read and checked whole, with the same flags put over it
/// as at start. The server calls `read` on its service thread and hands the result to its hub.
struct ConfigReload {
    var options: OutputOptions
    var flags: OutputFlags
    /// The pointer flags (`--speed`, …), over the file's `control:`.
    var pointer: SettingsUpdate
    /// The running backend's kind, whose defaults the settings start from (nil: control is off).
    var backend: BackendKind?
    var environment: [String: String]
    /// The file's `server:` section as the server started, and the command line's server
    /// flags: a reload that changes where the server listens says it needs a restart.
    var startServer: ServeSettings
    var serverFlags: ServeSettings

    /// The hooks, thresholds and control settings of the file as it is now, or every problem
    /// it has (`FILE:LINE:COLUMN: error: …`, as `check-config` prints them).
    func read() -> Result<ReloadedSettings, ReloadFailure> {
        let location = options.configLocation(environment: environment)
        var file = ConfigFile()
        if let location {
            do {
                file = try ConfigFile.load(path: location.path)
            } catch let error as ConfigError {
                let n = error.issues.count
                return .failure(
                    ReloadFailure(lines: [error.description, "\(error.path): \(n) error\(n == 1 ? "" : "s")"]))
            } catch {
                return .failure(ReloadFailure(lines: ["\(location.path): error: \(error)"]))
            }
        }
        let control = backend.map {
            file.controlSettings(
                flags: pointer, backendAcceleration: $0.defaultAcceleration,
                backendKineticScrolling: $0.defaultKineticScrolling, hooks: file.hookRules(flags: flags))
        }
        let notes = ListenChange.notes(
            before: startServer, after: file.server, flags: serverFlags, file: location?.path ?? "the configuration")
        return .success(
            ReloadedSettings(
                gestures: file.gestures, control: control, hooks: file.hookRules(flags: flags), source: location?.path,
                restartNotes: notes))
    }
}
