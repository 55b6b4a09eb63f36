import SwiftASN1
import X509

/// What the local CA may sign for, written into it as a critical NameConstraints extension:
/// a phone that trusts the CA trusts it for this computer's own names and for addresses of
/// home and private networks only — never for a bank's site, whoever reads `ca-key.pem`.
///
/// DNS: `localhost`, the host's names and the `.local` mDNS domain. IP: loopback
/// (127.0.0.0/8, ::1), the private ranges of RFC 1918 (10/8, 172.16/12, 192.168/16), shared
/// address space of RFC 6598 (100.64/10: carrier-grade NAT and mesh VPNs), link-local
/// (169.254/16, fe80::/10) and unique local IPv6 (fc00::/7).
struct AuthorityScope: Sendable, Hashable {
    /// The DNS subtrees: a name is covered when it is one of them or ends in `.` + one.
    var dnsNames: [String]

    /// (network bytes, prefix length) of each permitted range.
    static let ranges: [(address: [UInt8], prefix: Int)] = [
        ([127, 0, 0, 0], 8), ([10, 0, 0, 0], 8), ([172, 16, 0, 0], 12), ([192, 168, 0, 0], 16),
        ([100, 64, 0, 0], 10), ([169, 254, 0, 0], 16),
        ([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], 128),
        ([0xfe, 0x80] + [UInt8](repeating: 0, count: 14), 10),
        ([0xfc, 0x00] + [UInt8](repeating: 0, count: 14), 7),
    ]

    /// The scope for a computer called `hostName` (short and full forms).
    init(hostName: String) {
        var names = ["localhost", "local"]
        let short = hostName.split(separator: ".").first.map(String.init) ?? hostName
        for name in [hostName.lowercased(), short.lowercased()] where !name.isEmpty && !names.contains(name) {
            names.append(name)
        }
        dnsNames = names
    }

    /// The extension's value.
    var constraints: NameConstraints {
        let ips = Self.ranges.map { range in
            ASN1OctetString(contentBytes: ArraySlice(range.address + Self.mask(bytes: range.address.count, prefix: range.prefix)))
        }
        return NameConstraints(permittedDNSDomains: dnsNames, permittedIPRanges: ips)
    }

    /// Whether the address `bytes` (4 or 16) is within a permitted range.
    static func permits(address bytes: [UInt8]) -> Bool {
        ranges.contains { range in
            guard range.address.count == bytes.count else { return false }
            let mask = mask(bytes: bytes.count, prefix: range.prefix)
            return bytes.indices.allSatisfy { bytes[$0] & mask[$0] == range.address[$0] & mask[$0] }
        }
    }

    /// Whether the DNS name is within a permitted subtree.
    func permits(dnsName: String) -> Bool {
        let name = dnsName.lowercased()
        return dnsNames.contains { name == $0 || name.hasSuffix("." + $0) }
    }

    private static func mask(bytes: Int, prefix: Int) -> [UInt8] {
        (0..<bytes).map { index in
            let bits = min(max(prefix - index * 8, 0), 8)
            return bits == 0 ? 0 : UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
        }
    }
}
