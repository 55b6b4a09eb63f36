import Glibc

/// Turns `--host` into something lws can bind: an IP literal or an interface name stays as
/// it is; a host name (`localhost`, `myhost.lan`) becomes its first numeric address.
public enum HostResolver {
    /// This computer's host name (`gethostname`), or "this computer" when it has none.
    public static func localHostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "this computer" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "this computer" : name
    }

    /// True when `host` is a numeric IPv4 or IPv6 address.
    public static func isIPLiteral(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }

    /// The address to bind for `host`, or `nil` when it names nothing on this machine.
    public static func bindable(_ given: String, interfaces: [InterfaceAddress]) -> String? {
        // "[::1]" as in a URL is "::1".
        let host = given.hasPrefix("[") && given.hasSuffix("]") ? String(given.dropFirst().dropLast()) : given
        if isIPLiteral(host) || interfaces.contains(where: { $0.interface == host }) { return host }
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_ADDRCONFIG
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return nil }
        defer { freeaddrinfo(list) }
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        var fallback: String?
        while let entry = cursor {
            cursor = entry.pointee.ai_next
            guard let address = entry.pointee.ai_addr else { continue }
            var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            guard
                getnameinfo(
                    address, entry.pointee.ai_addrlen, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0
            else { continue }
            let numeric = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            // Prefer IPv4: a phone on the LAN is most likely to reach that.
            if entry.pointee.ai_family == AF_INET { return numeric }
            if fallback == nil { fallback = numeric }
        }
        return fallback
    }
}
