/// The facts of a WebSocket upgrade request the server judges.
public struct UpgradeRequest: Sendable, Hashable {
    /// The request path without its query (`/ws`).
    public var path: String
    /// The `token` query argument, if any.
    public var token: String?
    /// The `Origin` header, if any.
    public var origin: String?
    /// The `Host` header, if any.
    public var host: String?
    /// Length of the `Sec-WebSocket-Extensions` offer (all such headers together), 0 when absent.
    public var extensionOfferLength: Int

    public init(path: String, token: String?, origin: String?, host: String?, extensionOfferLength: Int = 0) {
        self.path = path
        self.token = token
        self.origin = origin
        self.host = host
        self.extensionOfferLength = extensionOfferLength
    }
}

/// What to answer an upgrade request.
public enum HandshakeDecision: Sendable, Hashable {
    case accept
    /// Refuse with this HTTP status; `reason` is for the log and the response body.
    case refuse(status: Int, reason: String)
}

/// Decides WebSocket upgrades (PROTOCOL.md "Connecting"): the path must be `/ws`, an extension
/// offer short enough for lws to read (431), the token right (401 when missing, 403 when wrong),
/// a browser `Origin` must match `Host` (403), and there must be room under the connection
/// limit (503).
public struct HandshakePolicy: Sendable {
    /// The required token; `nil` when authentication is off.
    public var token: String?
    public var maxConnections: Int

    /// The longest `Sec-WebSocket-Extensions` offer lws 4.1 can read. It fails the handshake of a
    /// longer one after the upgrade was accepted, dropping the connection without any HTTP
    /// answer (its offer parser stops at 255 bytes). The server negotiates no extension, so a
    /// shorter offer is simply declined; a longer one is refused with 431 beforehand.
    public static let maxExtensionOfferLength = 254

    public init(token: String?, maxConnections: Int) {
        self.token = token
        self.maxConnections = maxConnections
    }

    /// Judges `request` given the connections already open and whether the server is stopping.
    public func decide(
        _ request: UpgradeRequest, openConnections: Int, shuttingDown: Bool
    ) -> HandshakeDecision {
        if request.path != "/ws" {
            return .refuse(status: 404, reason: "no WebSocket endpoint at this path (use /ws)")
        }
        if request.extensionOfferLength > Self.maxExtensionOfferLength {
            return .refuse(
                status: 431,
                reason: "Sec-WebSocket-Extensions over \(Self.maxExtensionOfferLength) bytes (no extension is supported)")
        }
        if shuttingDown {
            return .refuse(status: 503, reason: "the server is shutting down")
        }
        if let token {
            guard let given = request.token, !given.isEmpty else {
                return .refuse(status: 401, reason: "missing access token (?token=)")
            }
            guard AccessToken.matches(given, expected: token) else {
                return .refuse(status: 403, reason: "wrong access token")
            }
        }
        if let origin = request.origin, !OriginMatcher.matches(origin: origin, host: request.host) {
            return .refuse(status: 403, reason: "Origin does not match Host")
        }
        if openConnections >= maxConnections {
            return .refuse(status: 503, reason: "connection limit (\(maxConnections)) reached")
        }
        return .accept
    }
}
