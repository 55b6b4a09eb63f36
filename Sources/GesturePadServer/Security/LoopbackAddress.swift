/// This computer's own addresses, as a request shows them: the peer lws reports, and a `Host`
/// header. One test, for everything that trusts a request because it never crossed a network
/// (a credential in the address, the desktop page).
public enum LoopbackAddress {
    /// Whether `peer` (as lws reports a peer address) is loopback: 127.0.0.0/8, ::1, or 127.x
    /// mapped into IPv6.
    public static func isPeer(_ peer: String) -> Bool {
        peer == "::1" || peer.hasPrefix("127.") || peer.hasPrefix("::ffff:127.")
    }

    /// Whether a `Host` header names this computer's loopback (any port): localhost, a
    /// 127.x.y.z address or [::1] — not a name that merely starts like one.
    public static func isHost(_ host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("[") {
            guard let close = name.firstIndex(of: "]") else { return false }
            name = String(name[name.index(after: name.startIndex)..<close])
            return name == "::1"
        }
        if let colon = name.lastIndex(of: ":") { name = String(name[..<colon]) }
        return name == "localhost" || (name.hasPrefix("127.") && name.split(separator: ".").count == 4)
    }
}
