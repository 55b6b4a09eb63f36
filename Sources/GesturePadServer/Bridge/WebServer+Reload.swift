import GesturePadSettings
import Glibc

/// Reloading the configuration (SIGHUP): one more input of the hub, on the service thread.
extension WebServer {
    /// Reads the configuration again (`reloader`, here on the service thread, between two
    /// rounds of lws callbacks) and hands it to the hub as `HubInput.reconfigure`, whose
    /// actions carry the hook rules to the sinks. A file with a problem changes nothing: its
    /// problems go to stderr as `check-config` prints them, and a warning says the running
    /// configuration stays.
    func reloadConfiguration() {
        guard let reloader else { return }
        switch reloader() {
        case .success(let settings):
            submit(.reconfigure(settings))
            let hooks = settings.hooks.count
            logger.notice(
                "configuration reloaded: \(hooks) hook\(hooks == 1 ? "" : "s") from now on; gesture thresholds and control settings for the connections opened from now on",
                metadata: ["config.file": "\(settings.source ?? "none")"])
            for note in settings.restartNotes { logger.warning("\(note)") }
        case .failure(let failure):
            // As `check-config` prints them, one whole write(2) on stderr (no stdio buffer).
            let text = Array((failure.lines.joined(separator: "\n") + "\n").utf8)
            var written = 0
            while written < text.count {
                let n = text[written...].withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count) }
                if n <= 0 { break }
                written += n
            }
            logger.warning("configuration not reloaded: the file has problems (above); the running configuration stays")
        }
    }
}
