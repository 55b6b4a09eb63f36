/// The server settings one source gives (command-line flags, or the configuration file's
/// `server:` section, which `GesturePadConfig` decodes straight into this type); `nil` means
/// "not given here". `GesturePadConfig` merges the sources into a `ServerConfiguration`.
public struct ServeSettings: Sendable, Hashable {
    /// The ports `--port` and `server.port` take; 0 picks a free one.
    public static let portRange = 0...65_535
    /// What the connection and protocol limits take (`--max-…`, `server.limits`): at least 1.
    public static let limitRange = 1...Int.max

    public var host: String?
    public var port: Int?
    public var publicDirectory: String?
    public var token: String?
    /// `false` turns authentication off (`--no-auth`, or `auth: false` in the file).
    public var auth: Bool?
    public var maxConnections: Int?
    public var maxMessageBytes: Int?
    public var maxMessagesPerSecond: Int?
    public var maxErrorsInARow: Int?
    public var maxPointers: Int?
    /// `true`: HTTPS / WSS with GesturePad's local certificate authority (`--tls`, `server.tls`).
    public var tls: Bool?
    /// Your own certificate and its key, PEM files (`--tls-cert` / `--tls-key`, `server.tlsCert`
    /// / `server.tlsKey`): HTTPS with them instead of the local CA.
    public var tlsCertificate: String?
    public var tlsKey: String?

    public init(
        host: String? = nil, port: Int? = nil, publicDirectory: String? = nil, token: String? = nil,
        auth: Bool? = nil, maxConnections: Int? = nil, maxMessageBytes: Int? = nil,
        maxMessagesPerSecond: Int? = nil, maxErrorsInARow: Int? = nil, maxPointers: Int? = nil, tls: Bool? = nil,
        tlsCertificate: String? = nil, tlsKey: String? = nil
    ) {
        self.host = host
        self.port = port
        self.publicDirectory = publicDirectory
        self.token = token
        self.auth = auth
        self.maxConnections = maxConnections
        self.maxMessageBytes = maxMessageBytes
        self.maxMessagesPerSecond = maxMessagesPerSecond
        self.maxErrorsInARow = maxErrorsInARow
        self.maxPointers = maxPointers
        self.tls = tls
        self.tlsCertificate = tlsCertificate
        self.tlsKey = tlsKey
    }
}
