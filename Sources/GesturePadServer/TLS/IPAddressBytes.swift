import Glibc

/// The network-order bytes of an IP literal (4 for IPv4, 16 for IPv6), as a certificate's
/// IP subject alternative name holds them.
enum IPAddressBytes {
    static func parse(_ text: String) -> [UInt8]? {
        var v4 = [UInt8](repeating: 0, count: 4)
        if inet_pton(AF_INET, text, &v4) == 1 { return v4 }
        var v6 = [UInt8](repeating: 0, count: 16)
        // A zone (`fe80::1%eth0`) is not part of the address.
        let address = text.split(separator: "%").first.map(String.init) ?? text
        if inet_pton(AF_INET6, address, &v6) == 1 { return v6 }
        return nil
    }
}
