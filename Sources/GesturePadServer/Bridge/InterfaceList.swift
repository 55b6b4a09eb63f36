import Glibc

/// The addresses of this machine's network interfaces that are up (`getifaddrs`).
public enum InterfaceList {
    /// Every IPv4 / IPv6 address of an interface that is up, in the system's order.
    public static func current() -> [InterfaceAddress] {
        var head: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&head) == 0 else { return [] }
        defer { freeifaddrs(head) }
        var result: [InterfaceAddress] = []
        var cursor = head
        while let entry = cursor {
            cursor = entry.pointee.ifa_next
            guard let socketAddress = entry.pointee.ifa_addr else { continue }
            let flags = Int32(bitPattern: entry.pointee.ifa_flags)
            guard flags & Int32(IFF_UP) != 0 else { continue }
            let family = Int32(socketAddress.pointee.sa_family)
            let length: Int
            switch family {
            case AF_INET: length = MemoryLayout<sockaddr_in>.size
            case AF_INET6: length = MemoryLayout<sockaddr_in6>.size
            default: continue
            }
            var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            let status = getnameinfo(
                socketAddress, socklen_t(length), &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST)
            guard status == 0 else { continue }
            var text = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if let zone = text.firstIndex(of: "%") { text = String(text[..<zone]) }
            let name = entry.pointee.ifa_name.map { String(cString: $0) } ?? ""
            result.append(
                InterfaceAddress(
                    interface: name, address: text, family: family == AF_INET ? .ipv4 : .ipv6,
                    isLoopback: flags & Int32(IFF_LOOPBACK) != 0))
        }
        return result
    }
}
