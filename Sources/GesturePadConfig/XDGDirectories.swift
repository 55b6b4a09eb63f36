import FoundationEssentials

/// GesturePad's folders by the XDG Base Directory rules, worked out here only: the user's
/// configuration folder (`config.yaml`) and the state folder (the token, the local CA, the
/// paired devices, the portal's restore token, `server.json`). Pure: the environment, and the
/// account's home for when `HOME` is unset, come in as arguments.
public enum XDGDirectories {
    /// `$XDG_CONFIG_HOME/gesturepad` when that is an absolute path (the spec ignores relative
    /// ones), else `$HOME/.config/gesturepad`; nil without either.
    public static func config(environment: [String: String]) -> String? {
        folder(environment["XDG_CONFIG_HOME"], else: ".config", home: environment["HOME"])
    }

    /// `$XDG_STATE_HOME/gesturepad` when that is an absolute path, else
    /// `$HOME/.local/state/gesturepad`, with `accountHome` (the passwd entry's) standing in
    /// for an unset `HOME`; nil without any of them.
    public static func state(environment: [String: String], accountHome: String? = nil) -> String? {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? accountHome
        return folder(environment["XDG_STATE_HOME"], else: ".local/state", home: home)
    }

    /// The state folder of this process: `state(environment:accountHome:)` with the process's
    /// environment and home (`FileManager`'s home of the current user).
    public static func state(of process: ProcessInfo = .processInfo) -> String {
        // An empty home too: the folder under `/`, as ever.
        state(environment: process.environment, accountHome: FileManager.default.homeDirectoryForCurrentUser.path)
            ?? "/.local/state/gesturepad"
    }

    private static func folder(_ base: String?, else relative: String, home: String?) -> String? {
        if let base, base.hasPrefix("/") { return trimmed(base) + "/gesturepad" }
        guard let home, !home.isEmpty else { return nil }
        return trimmed(home) + "/" + relative + "/gesturepad"
    }

    /// Without trailing slashes (`/` itself becomes empty, so `/` + `.config` stays one slash).
    private static func trimmed(_ path: String) -> String {
        var result = Substring(path)
        while result.hasSuffix("/") { result = result.dropLast() }
        return String(result)
    }
}
