import GesturePadSettings

/// The addresses printed at start-up: full URLs a phone can open, the token in the fragment
/// (never sent to the server in a request line, never logged by proxies).
public enum ServerURLs {
    /// URLs for the server listening on `host` (nil or a wildcard: every interface) and
    /// `port`. LAN IPv4 addresses come first, then global IPv6, then loopback; link-local
    /// addresses are skipped and duplicates dropped.
    public static func urls(
        host: String?, port: Int, token: String?, interfaces: [InterfaceAddress], secure: Bool = false
    ) -> [String] {
        let hosts: [String]
        if let host, !ServerConfiguration.isWildcard(host) {
            let named = interfaces.filter { $0.interface == host && !$0.isLinkLocal }
            hosts = named.isEmpty ? [host] : ranked(named).map(\.address)
        } else {
            let ipv4Only = host == "0.0.0.0"
            let usable = interfaces.filter { !$0.isLinkLocal && !(ipv4Only && $0.family == .ipv6) }
            var seen = Set<String>()
            hosts = ranked(usable).map(\.address).filter { seen.insert($0).inserted }
        }
        let list = hosts.isEmpty ? ["127.0.0.1"] : hosts
        return list.map { url(host: $0, port: port, token: token, secure: secure) }
    }

    /// `http://HOST:PORT/#token=TOKEN` (`https` when `secure`; IPv6 literals in brackets; no
    /// fragment without a token).
    public static func url(host: String, port: Int, token: String?, secure: Bool = false, path: String = "/") -> String {
        let hostPart = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        let fragment = token.map { "#token=\($0)" } ?? ""
        return "\(secure ? "https" : "http")://\(hostPart):\(port)\(path)\(fragment)"
    }

    /// `url` with its path set to `path`, its fragment (the token) kept unless `keepFragment` is
    /// false: `http://h:1/#token=t` → `http://h:1/watch.html#token=t`. A string that is not an
    /// absolute URL comes back as it is.
    /// The `/trust` address for page address `url`, in plain HTTP: a phone that does not trust
    /// the certificate yet opens it with no warning (the port answers `/trust` and `/ca.crt` in
    /// clear: nothing on them is secret, and the fingerprint checks them).
    public static func trustURL(of url: String) -> String {
        let trust = replacingPath(of: url, with: "/trust", keepFragment: false)
        return trust.hasPrefix("https://") ? "http://" + trust.dropFirst("https://".count) : trust
    }

    public static func replacingPath(of url: String, with path: String, keepFragment: Bool = true) -> String {
        guard let scheme = url.firstRange(of: "://") else { return url }
        let rest = url[scheme.upperBound...]
        let pathStart = rest.firstIndex(of: "/") ?? rest.endIndex
        let fragment = keepFragment ? url[(url.firstIndex(of: "#") ?? url.endIndex)...] : ""
        return String(url[..<pathStart]) + path + fragment
    }

    /// LAN IPv4 first, then global IPv6, then loopback; the system's order within each.
    private static func ranked(_ addresses: [InterfaceAddress]) -> [InterfaceAddress] {
        addresses.enumerated().sorted { lhs, rhs in
            let a = rank(lhs.element), b = rank(rhs.element)
            return a != b ? a < b : lhs.offset < rhs.offset
        }.map(\.element)
    }

    private static func rank(_ address: InterfaceAddress) -> Int {
        switch (address.isLoopback, address.family) {
        case (false, .ipv4): 0
        case (false, .ipv6): 1
        case (true, .ipv4): 2
        case (true, .ipv6): 3
        }
    }
}
