/// What a reloaded configuration file says about where the server listens (`server.port`,
/// `server.host`), which a running server cannot change: it keeps its socket until it is
/// restarted. A reload says so plainly instead of saying nothing (docs/outputs.md "Reloading
/// the configuration").
public enum ListenChange {
    /// One line per address setting the file changed since the server started (`before`: its
    /// `server:` section then, `after`: now); `flags` are the command line's, which decide over
    /// the file. Empty when neither changed.
    public static func notes(before: ServeSettings, after: ServeSettings, flags: ServeSettings, file: String) -> [String] {
        var notes: [String] = []
        if before.port != after.port {
            notes.append(
                note(
                    key: "port", from: before.port.map(String.init) ?? "\(ServerConfiguration.defaultPort) (the default)",
                    to: after.port.map(String.init) ?? "\(ServerConfiguration.defaultPort) (the default)",
                    flag: flags.port.map { "--port \($0)" }, file: file))
        }
        if before.host != after.host {
            notes.append(
                note(
                    key: "host", from: before.host ?? "every interface (the default)",
                    to: after.host ?? "every interface (the default)", flag: flags.host.map { "--host \($0)" }, file: file))
        }
        let scheme = { (settings: ServeSettings) in
            if let certificate = settings.tlsCertificate { return "HTTPS with \(certificate)" }
            return settings.tls == true ? "HTTPS" : "plain HTTP"
        }
        if scheme(before) != scheme(after) {
            let flag = flags.tls == true || flags.tlsCertificate != nil ? "--tls" : nil
            notes.append(note(key: "tls", from: scheme(before), to: scheme(after), flag: flag, file: file))
        }
        return notes
    }

    private static func note(key: String, from old: String, to new: String, flag: String?, file: String) -> String {
        let head = "\(file): server.\(key) changed from \(old) to \(new), but "
        if let flag {
            return head + "\(flag) on the command line decides over the file: nothing changes, now or at the next start"
        }
        return head
            + "a running server cannot move: it keeps listening where it is until it is restarted "
            + "(systemctl --user restart gesturepad, or stop and start it); after that, paired phones must be "
            + "pointed at the new address (gesturepad url shows it)"
    }
}
