/// Which configuration file `serve` reads, and why: `--config FILE` when given, else the
/// user's `$XDG_CONFIG_HOME/gesturepad/config.yaml` (by default
/// `~/.config/gesturepad/config.yaml`), else the system's `/etc/gesturepad/config.yaml`, else
/// none (every default). Pure: the environment and the file system come in as arguments.
public struct ConfigLocation: Sendable, Hashable {
    /// Where a configuration file comes from.
    public enum Origin: Sendable, Hashable {
        /// `--config FILE`.
        case flag
        /// The user's file in `$XDG_CONFIG_HOME/gesturepad` (or `~/.config/gesturepad`).
        case user
        /// The system-wide file in `/etc/gesturepad`.
        case system
    }

    /// The file's path, as given or as found.
    public var path: String
    public var origin: Origin

    public init(path: String, origin: Origin) {
        self.path = path
        self.origin = origin
    }

    /// The system-wide file.
    public static let systemPath = "/etc/gesturepad/config.yaml"

    /// The user's file for `environment`: `config.yaml` in `XDGDirectories.config`
    /// (`XDG_CONFIG_HOME` when it is an absolute path, else `HOME/.config`); nil without either.
    public static func userPath(environment: [String: String]) -> String? {
        XDGDirectories.config(environment: environment).map { $0 + "/config.yaml" }
    }

    /// The files tried without `--config`, in order.
    public static func defaultCandidates(environment: [String: String]) -> [ConfigLocation] {
        var candidates: [ConfigLocation] = []
        if let user = userPath(environment: environment) { candidates.append(ConfigLocation(path: user, origin: .user)) }
        candidates.append(ConfigLocation(path: systemPath, origin: .system))
        return candidates
    }

    /// The file to read: `explicit` (`--config`) whether or not it exists (a missing one is
    /// then an error for the loader to report), else the first default candidate that
    /// `exists`, else nil.
    public static func find(
        explicit: String?, environment: [String: String], exists: (String) -> Bool
    ) -> ConfigLocation? {
        if let explicit { return ConfigLocation(path: explicit, origin: .flag) }
        return defaultCandidates(environment: environment).first { exists($0.path) }
    }

    /// How the banner names it: `Configuration: PATH` plus where it was found.
    public var bannerLine: String {
        switch origin {
        case .flag: "Configuration: \(path) (--config)."
        case .user: "Configuration: \(path) (your configuration file)."
        case .system: "Configuration: \(path) (the system's configuration file)."
        }
    }

    /// The banner line when no file is read.
    public static func noneLine(environment: [String: String]) -> String {
        let tried = defaultCandidates(environment: environment).map(\.path).joined(separator: " or ")
        return "Configuration: none (no \(tried)); every setting is its default."
    }
}
