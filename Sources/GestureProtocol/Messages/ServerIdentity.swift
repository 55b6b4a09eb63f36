/// Which computer a connection drives and which run of its server it speaks with (additive,
/// docs/protocol.md "Server identity"): `welcome.host` and `welcome.run`, and `run` in the
/// observer's session notices. A run id is new at every start of the server, so a page that
/// reconnects after a restart tells the new run's sessions from the last run's (session ids
/// start again at 1).
public struct ServerIdentity: Sendable, Hashable {
    /// The computer's host name, as the page shows it (the part before the first dot).
    public var host: String
    /// This run of the server: random, not secret, fixed while it runs.
    public var run: String

    public init(host: String, run: String) {
        self.host = host
        self.run = run
    }

    /// `name` up to its first dot (`desk.lan` → `desk`); an IP address or an empty name stays.
    public static func shortHostName(_ name: String) -> String {
        guard let dot = name.firstIndex(of: "."), dot != name.startIndex,
            !name.allSatisfy({ $0.isNumber || $0 == "." || $0 == ":" })
        else { return name }
        return String(name[..<dot])
    }
}
