/// One address of a network interface of this machine (from `getifaddrs`).
public struct InterfaceAddress: Sendable, Hashable {
    /// The IP family of an address.
    public enum Family: Sendable, Hashable { case ipv4, ipv6 }

    /// Interface name (`eth0`, `wlan0`, `lo`).
    public var interface: String
    /// Numeric address without brackets or zone (`192.168.1.5`, `fd00::5`).
    public var address: String
    public var family: Family
    public var isLoopback: Bool

    public init(interface: String, address: String, family: Family, isLoopback: Bool) {
        self.interface = interface
        self.address = address
        self.family = family
        self.isLoopback = isLoopback
    }

    /// IPv6 link-local (`fe80::/10`): unusable in a URL without a zone, so never printed.
    public var isLinkLocal: Bool {
        guard family == .ipv6 else { return address.hasPrefix("169.254.") }
        let lowered = address.lowercased()
        return lowered.hasPrefix("fe8") || lowered.hasPrefix("fe9") || lowered.hasPrefix("fea")
            || lowered.hasPrefix("feb")
    }
}
