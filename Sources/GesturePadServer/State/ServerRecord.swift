import FoundationEssentials
import Glibc

/// `server.json` in the state directory: what `gesturepad url` needs to print the address of a
/// running server it did not start (the systemd user unit's, say). `serve` writes it (0600,
/// atomically) once it listens and removes it when it stops cleanly; a crash leaves it behind,
/// which is why a reader checks that `pid` is still a running `gesturepad`.
///
/// The token itself is never in it: `token` only says where it comes from (the remembered one
/// is in the `token` file beside it; a given one is never stored).
public struct ServerRecord: Codable, Sendable, Hashable {
    /// Where the server's access token comes from.
    public enum TokenSource: String, Codable, Sendable {
        /// The token remembered in the state directory (`token`).
        case remembered
        /// `--token`, `GESTUREPAD_TOKEN` or the configuration file: not stored anywhere.
        case given
        /// Authentication is off (`--no-auth`).
        case none
    }

    public static let fileName = "server.json"

    /// The server's process id.
    public var pid: Int32
    /// The port it listens on (the bound one, also for `--port 0`).
    public var port: Int
    /// `http` or `https`.
    public var scheme: String
    /// The address or interface it listens on; nil for every interface.
    public var host: String?
    public var token: TokenSource
    /// When it started, ISO 8601 in UTC (`2026-11-22T05:48:44Z`).
    public var started: String
    /// `gesturepad --version` of the server.
    public var version: String
    /// The page folder it serves, and the configuration file it read (informative).
    public var publicDirectory: String?
    public var configFile: String?
    /// The ids of the paired devices connected now (`gesturepad devices`). Present only when
    /// the server pairs devices, which also says it re-reads `devices.json` on SIGUSR1.
    public var connectedDevices: [String]?
    /// How many times the server has taken in `devices.json` after a SIGUSR1: `gesturepad
    /// devices` waits for it to grow, so that when it returns the server has acted on the change.
    public var devicesReloads: Int?

    public init(
        pid: Int32, port: Int, secure: Bool, host: String?, token: TokenSource, started: Date, version: String,
        publicDirectory: String? = nil, configFile: String? = nil
    ) {
        self.pid = pid
        self.port = port
        self.scheme = secure ? "https" : "http"
        self.host = host
        self.token = token
        self.started = Self.timestamp(started)
        self.version = version
        self.publicDirectory = publicDirectory
        self.configFile = configFile
    }

    /// Whether it serves HTTPS / WSS.
    public var secure: Bool { scheme == "https" }

    /// The record's JSON (keys sorted, one line).
    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return ((try? encoder.encode(self)) ?? Data("{}".utf8)) + Data("\n".utf8)
    }

    /// A record read back from JSON, or nil when it is not one.
    public static func decode(_ data: Data) -> ServerRecord? {
        try? JSONDecoder().decode(ServerRecord.self, from: data)
    }

    /// Writes it into `directory` (0600, atomically).
    public func write(to directory: StateDirectory) throws(StateError) {
        // Not synced: it describes a running process, which a power cut ends too.
        try directory.write(Self.fileName, encoded(), durable: false)
    }

    /// The record in `directory`, if there is a readable one.
    public static func read(from directory: StateDirectory) -> ServerRecord? {
        directory.read(fileName).flatMap(decode)
    }

    /// Removes the record from `directory` if it is the one of process `pid` (another server
    /// sharing the folder may have written its own since).
    public static func remove(from directory: StateDirectory, pid: Int32) {
        guard let record = read(from: directory), record.pid == pid else { return }
        directory.remove(fileName)
    }

    /// The record a starting server replaces: the one of another server still running (the
    /// systemd unit's, while `make run` tries another port), to put back when this one stops.
    public static func replaced(in directory: StateDirectory, by pid: Int32, isRunning: (Int32) -> Bool)
        -> ServerRecord?
    {
        guard let record = read(from: directory), record.pid != pid, isRunning(record.pid) else { return nil }
        return record
    }

    /// A stopping server's cleanup: its own record goes; the one it replaced comes back if that
    /// server still runs, so `gesturepad url` finds it again.
    public static func release(
        in directory: StateDirectory, pid: Int32, restoring previous: ServerRecord?, isRunning: (Int32) -> Bool
    ) {
        guard let record = read(from: directory), record.pid == pid else { return }
        if let previous, isRunning(previous.pid), (try? previous.write(to: directory)) != nil { return }
        directory.remove(fileName)
    }

    /// What a reader finds in the state directory.
    public enum Status: Sendable, Hashable {
        /// A server is running with this record.
        case running(ServerRecord)
        /// The record's process is gone (the server crashed or was killed).
        case stale(ServerRecord)
        /// No record (no server started, or the last one stopped cleanly).
        case none
    }

    /// The status for `directory`; `isRunning` tells whether a pid is a live GesturePad server.
    public static func status(in directory: StateDirectory, isRunning: (Int32) -> Bool) -> Status {
        guard let record = read(from: directory) else { return .none }
        return isRunning(record.pid) ? .running(record) : .stale(record)
    }

    /// `date` in UTC as ISO 8601's internet date and time: "2026-11-25T17:20:05Z". By libc's
    /// `gmtime_r`: no time zone database is read (FoundationEssentials' formatting opens
    /// /etc/localtime on first use, and the service thread touches no file).
    static func timestamp(_ date: Date) -> String {
        var time = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}
