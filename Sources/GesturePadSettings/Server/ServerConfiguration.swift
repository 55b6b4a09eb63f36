import GestureEngine
import GestureProtocol

/// Everything the server needs to start: where to listen, what to serve, who may connect,
/// and the limits of PROTOCOL.md "Bad input". A plain value: `GesturePadConfig` builds it from
/// the flags, the configuration file and these defaults; the server takes it as it is.
public struct ServerConfiguration: Sendable {
    /// The default TCP port (`--port`).
    public static let defaultPort = 8765
    /// The default connection limit (`--max-connections`).
    public static let defaultMaxConnections = 32

    /// True for the "every interface" spellings of `--host`.
    public static func isWildcard(_ host: String) -> Bool {
        host.isEmpty || host == "0.0.0.0" || host == "::" || host == "[::]" || host == "*"
    }

    /// Address or interface to listen on; `nil` listens on every interface (IPv4 and IPv6).
    public var host: String?
    /// TCP port; 0 lets the system pick a free one.
    public var port: Int
    /// Absolute path of the folder served over HTTP (the page).
    public var publicDirectory: String
    /// The access token `/ws` requires in `?token=`; `nil` turns authentication off.
    public var token: String?
    /// WebSocket connections open at once; the next upgrade is refused with 503.
    public var maxConnections: Int
    /// Per-connection protocol limits (message size, rate, errors in a row, pointers).
    public var limits: ProtocolLimits
    /// Gesture thresholds for every session.
    public var gestures: GestureConfig
    /// HTTPS / WSS on the same port (`--tls`); nil serves plain HTTP / WS.
    public var tls: TLSConfiguration? = nil
    /// The key of the desktop page's requests (`desktop-key` in the state directory; nil: no
    /// desktop page). docs/server.md "The desktop page".
    public var desktopKey: String? = nil
    /// The private half of the server's X25519 identity key (`identity-key` in the state
    /// directory), base64url; nil: none, and phones' key pairs are refused. docs/protocol.md
    /// "Device key pairs".
    public var identityKey: String? = nil
    /// Whether touchpads drive the computer, with which backend and mapping settings.
    public var control: ControlContext = .off(reason: "control is off")
    /// Queued outbound bytes above which a touchpad's input is paused (rx flow control).
    public var outboundHighWatermark: Int = 256 * 1024
    /// Queued outbound bytes below which a paused touchpad's input resumes.
    public var outboundLowWatermark: Int = 64 * 1024
    /// Queued outbound bytes past which a connection is a slow consumer and is closed (1008).
    public var outboundHardCap: Int = 1024 * 1024
    /// Idle seconds before the server pings a WebSocket peer, and before it hangs up.
    public var idlePingSeconds: Int = 30
    public var idleHangupSeconds: Int = 75
    /// How long shutdown waits for clients to acknowledge the 1001 close, in ms.
    public var shutdownGraceMilliseconds: Double = 2_000
    /// Test only (`serve --test-echo`): each text message is sent back as it came instead of
    /// going to a protocol session — what a WebSocket conformance suite (Autobahn) expects. The
    /// transport's own rules stay: binary 1003, size 1009, UTF-8 1007, the send queue limits.
    public var conformanceEcho = false

    public init(
        host: String? = nil, port: Int = ServerConfiguration.defaultPort, publicDirectory: String,
        token: String?, maxConnections: Int = ServerConfiguration.defaultMaxConnections,
        limits: ProtocolLimits = ProtocolLimits(), gestures: GestureConfig = GestureConfig()
    ) {
        self.host = host
        self.port = port
        self.publicDirectory = publicDirectory
        self.token = token
        self.maxConnections = maxConnections
        self.limits = limits
        self.gestures = gestures
    }
}
