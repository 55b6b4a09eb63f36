/// What a TLS port (`--tls`, `--tls-cert`) answers a request that arrived as plain HTTP.
///
/// The port reads plain HTTP so that a phone paired over plain HTTP keeps its pairing when the
/// server starts speaking TLS (docs/protocol.md "Moving to HTTPS"): its page's storage belongs
/// to the `http://` origin, so the page itself must run there once to move. The page's files
/// are served (without a credential in the address), and a plain WebSocket that proves itself
/// is only told, sealed, to move. Anything that carries a secret in clear is refused rather
/// than redirected (a redirect would invite the client to send the same secret again, and it
/// has already crossed the network in clear). docs/security.md says why none of this gives a
/// listener or an attacker on the path more than plain HTTP always did.
public enum PlainRequestPolicy {
    /// The answer to one plain request.
    public enum Answer: Sendable, Hashable {
        /// Served as over TLS: the CA certificate and the trust page (public, checked against
        /// the fingerprint the terminal shows), the page's files (which move to https by
        /// themselves), and a proving WebSocket upgrade (which may only move).
        case serve
        /// `307` to this `https://` location: the same host, path and query.
        case redirect(location: String)
        /// Refused with this status; `reason` is for the log and the body.
        case refuse(status: Int, reason: String)
    }

    /// Paths answered in clear (public, and verified by their fingerprint).
    static let publicPaths: Set<String> = ["/ca.crt", "/trust", "/trust/"]
    /// Paths whose requests carry a secret (the pairing secret, a device key).
    static let secretPaths: Set<String> = ["/ws", "/ws/", "/pairing", "/pairing/"]

    /// The answer to a plain request for `path` (decoded, without its query) with the decoded
    /// query arguments `arguments` (`name=value` each) and the `Host` header `host`;
    /// `fallbackHost` is used when `Host` is missing or not a plain host name or address.
    /// `proves`: the server asks every WebSocket for a proof (authentication is on), so a
    /// plain `/ws?proof=1` upgrade can be let in to be told to move.
    public static func answer(
        path: String, arguments: [String], host: String?, fallbackHost: String, isUpgrade: Bool, proves: Bool = true
    ) -> Answer {
        let credential = arguments.contains { $0.hasPrefix("token=") }
        if isUpgrade {
            let moving = proves && !credential && arguments.contains("proof=1") && (path == "/ws" || path == "/ws/")
            return moving ? .serve : .refuse(status: 403, reason: "this port speaks TLS: connect with wss://, not ws://")
        }
        if publicPaths.contains(path) { return .serve }
        if secretPaths.contains(path) {
            return .refuse(status: 403, reason: "this port speaks TLS: use https://, a secret must not cross in clear")
        }
        if !credential, StaticFilePolicy.isServable(path) { return .serve }
        let authority = host.flatMap { isPlainAuthority($0) ? $0 : nil } ?? fallbackHost
        var location = "https://" + authority + percentEncoded(path, keeping: pathBytes)
        // A secret in the address has crossed in clear already; the redirect does not send it
        // again, nor keep it in the browser's history (a link's `#token=` fragment, which the
        // browser never sent, survives the redirect by itself).
        let kept = arguments.filter { !$0.hasPrefix("token=") }
        if !kept.isEmpty {
            location +=
                "?"
                + kept.map { argument in
                    guard let equals = argument.firstIndex(of: "=") else { return percentEncoded(argument, keeping: queryBytes) }
                    let name = percentEncoded(String(argument[..<equals]), keeping: queryBytes)
                    let value = percentEncoded(String(argument[argument.index(after: equals)...]), keeping: queryBytes)
                    return name + "=" + value
                }.joined(separator: "&")
        }
        return .redirect(location: location)
    }

    /// The complete HTTP/1.1 response for a redirect to `location`.
    ///
    /// `307`, not `301`: browsers keep a permanent redirect for good, and the same address must
    /// work over plain HTTP again once the server runs without `--tls`.
    public static func redirectResponse(to location: String) -> [UInt8] {
        let body = "This port speaks TLS: \(location)\n"
        var head = "HTTP/1.1 307 Temporary Redirect\r\n"
        head += "Location: \(location)\r\n"
        head += "Content-Type: text/plain; charset=utf-8\r\n"
        head += "Content-Length: \(body.utf8.count)\r\n"
        head += "Cache-Control: no-store\r\n"
        head += "Connection: close\r\n\r\n"
        return Array((head + body).utf8)
    }

    /// A `Host` value safe to put in a `Location` header: a name, an IPv4 address or a bracketed
    /// IPv6 address, with an optional port, and nothing else (no user info, no path, no spaces).
    static func isPlainAuthority(_ host: String) -> Bool {
        guard !host.isEmpty, host.utf8.count <= 261 else { return false }
        return host.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: ":"),
                UInt8(ascii: "["), UInt8(ascii: "]"):
                true
            default:
                false
            }
        }
    }

    /// Bytes kept as they are in a path (RFC 3986 unreserved, `/` and a few sub-delimiters).
    static let pathBytes = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~/!$'()*+,;=:@".utf8)
    /// Bytes kept as they are in a query name or value (`&` and `=` separate, so they are encoded).
    static let queryBytes = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~/!$'()*+,;:@".utf8)

    static func percentEncoded(_ text: String, keeping kept: Set<UInt8>) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if kept.contains(byte) {
                bytes.append(byte)
            } else {
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
