/// PROTOCOL.md "Connecting": a browser upgrade is allowed only when its `Origin` names the
/// same host and port as its `Host` header (scheme ignored, case-insensitive, a default port
/// written or not).
public enum OriginMatcher {
    /// True when `origin` (e.g. `http://192.168.1.5:8765`) and `host` (e.g. `192.168.1.5:8765`)
    /// name the same authority. `null` origins, origins without a scheme and a missing
    /// `Host` never match.
    public static func matches(origin: String, host: String?) -> Bool {
        guard let host, !host.isEmpty else { return false }
        guard let schemeEnd = origin.firstRange(of: "://") else { return false }
        let scheme = origin[..<schemeEnd.lowerBound].lowercased()
        var authority = Substring(origin[schemeEnd.upperBound...])
        if authority.hasSuffix("/") { authority = authority.dropLast() }
        if authority.isEmpty || authority.contains("/") || authority.contains("@") { return false }
        let defaultPort = (scheme == "https" || scheme == "wss") ? "443" : "80"
        return normalized(authority, defaultPort: defaultPort)
            == normalized(Substring(host), defaultPort: defaultPort)
    }

    /// Lowercases an authority and drops an explicit default port.
    static func normalized(_ authority: Substring, defaultPort: String) -> String {
        let lowered = authority.lowercased()
        let suffix = ":" + defaultPort
        if lowered.hasSuffix(suffix) {
            let hostPart = lowered.dropLast(suffix.count)
            // "[::1]:80" or "host:80" — but not the tail of an unbracketed IPv6 literal.
            if hostPart.hasSuffix("]") || !hostPart.contains(":") { return String(hostPart) }
        }
        return lowered
    }
}
