import Crypto
import Foundation
import Testing
import X509

@testable import GesturePadServer

/// The local certificate authority: made once, a server certificate issued again only when the
/// names it must cover change or its end nears.
struct LocalAuthorityTests {
    static func folder() -> StateDirectory {
        StateDirectory(path: FileManager.default.temporaryDirectory.path + "/gp-ca-\(UUID().uuidString)")
    }

    /// Same names: nothing issued again, same CA; a new address: a new server certificate, same CA.
    @Test func reissuesWhenTheAddressesChange() throws {
        let state = Self.folder()
        let authority = LocalAuthority(directory: state)
        let home = LocalAuthority.Names.covering(hostName: "desk", addresses: ["192.168.1.20"])
        let first = try authority.prepare(for: home, hostName: "desk")
        #expect(first.issued)
        let again = try authority.prepare(for: home, hostName: "desk")
        #expect(!again.issued && again.caFingerprint == first.caFingerprint)
        let moved = LocalAuthority.Names.covering(hostName: "desk", addresses: ["10.0.0.7"])
        let third = try authority.prepare(for: moved, hostName: "desk")
        #expect(third.issued && third.caFingerprint == first.caFingerprint)
        let pem = try String(contentsOfFile: third.certificatePath, encoding: .utf8)
        let certificate = try Certificate(pemEncoded: pem)
        let names = try certificate.extensions.subjectAlternativeNames.map(Array.init) ?? []
        #expect(names.contains(.dnsName("desk.local")) && names.contains(.dnsName("localhost")))
        #expect(names.count == LocalAuthority.Names.covering(hostName: "desk", addresses: ["10.0.0.7"]).dnsNames.count + 3)
    }

    /// The server certificate lasts 397 days (under the 398 browsers accept) and is issued
    /// again within 30 days of its end, not before — read from the certificate it wrote — by
    /// the same CA, ending 397 days after the renewal.
    @Test func renewsBeforeTheEnd() throws {
        let state = Self.folder()
        let authority = LocalAuthority(directory: state)
        let names = LocalAuthority.Names.covering(hostName: "desk", addresses: [])
        let now = Date()
        func certificate(_ prepared: LocalAuthority.Material) throws -> Certificate {
            try Certificate(pemEncoded: try String(contentsOfFile: prepared.certificatePath, encoding: .utf8))
        }
        let first = try authority.prepare(for: names, hostName: "desk", now: now)
        let end = try certificate(first).notValidAfter
        let life = end.timeIntervalSince(try certificate(first).notValidBefore)
        #expect(life > 396 * 86_400 && life <= 397 * 86_400 + 3_601, "\(life / 86_400) days")
        let early = try authority.prepare(for: names, hostName: "desk", now: end.addingTimeInterval(-31 * 86_400))
        #expect(!early.issued)
        #expect(try certificate(early).notValidAfter == end)
        let renewalDay = end.addingTimeInterval(-29 * 86_400)
        let renewed = try authority.prepare(for: names, hostName: "desk", now: renewalDay)
        #expect(renewed.issued && renewed.caFingerprint == first.caFingerprint)
        let renewedEnd = try certificate(renewed).notValidAfter.timeIntervalSince(renewalDay)
        #expect(renewedEnd > 396 * 86_400 && renewedEnd <= 397 * 86_400 + 3_600)
    }

    /// The CA can sign for this computer only (issue 40): a critical NameConstraints extension
    /// permitting localhost, the host's names, `.local` and the loopback, private, shared,
    /// link-local and ULA ranges; it lasts 2 years and is made again 30 days before its end.
    @Test func theAuthorityIsConstrainedAndShortLived() throws {
        let state = Self.folder()
        let authority = LocalAuthority(directory: state)
        let names = LocalAuthority.Names.covering(hostName: "desk.lan", addresses: ["192.168.1.20"])
        let now = Date()
        let first = try authority.prepare(for: names, hostName: "desk.lan", now: now)
        let ca = try Certificate(pemEncoded: first.caPEM)
        let ext = try #require(ca.extensions[oid: .X509ExtensionID.nameConstraints])
        #expect(ext.critical)
        let constraints = try #require(try ca.extensions.nameConstraints)
        #expect(Set(constraints.permittedDNSDomains) == ["localhost", "local", "desk.lan", "desk"])
        #expect(constraints.excludedSubtrees.isEmpty)
        let ranges = Set(constraints.permittedIPRanges.map { Array($0.bytes) })
        #expect(ranges.contains([192, 168, 0, 0, 255, 255, 0, 0]))
        #expect(ranges.contains([10, 0, 0, 0, 255, 0, 0, 0]))
        #expect(ranges.contains([172, 16, 0, 0, 255, 240, 0, 0]))
        #expect(ranges.contains([0xfc, 0] + Array(repeating: 0, count: 14) + [0xfe] + Array(repeating: 0, count: 15)))
        #expect(ranges.count == 9)
        let life = ca.notValidAfter.timeIntervalSince(ca.notValidBefore)
        #expect(life > 729 * 86_400 && life < 731 * 86_400)
        let later = try authority.prepare(for: names, hostName: "desk.lan", now: now.addingTimeInterval(600 * 86_400))
        #expect(later.caFingerprint == first.caFingerprint)
        let renewed = try authority.prepare(for: names, hostName: "desk.lan", now: now.addingTimeInterval(710 * 86_400))
        #expect(renewed.caFingerprint != first.caFingerprint)
    }

    /// The CA's scope as a name check: inside, the computer's names and private addresses;
    /// outside, anything a bank would use.
    @Test func theScopeKeepsOutPublicNamesAndAddresses() {
        let scope = AuthorityScope(hostName: "desk.lan")
        for name in ["localhost", "desk", "desk.lan", "desk.local", "printer.local"] {
            #expect(scope.permits(dnsName: name), "\(name)")
        }
        for name in ["bank.example", "deskx", "local.example.com", "example.com"] {
            #expect(!scope.permits(dnsName: name), "\(name)")
        }
        for address in ["127.0.0.1", "10.1.2.3", "172.31.255.1", "192.168.0.9", "100.100.1.1", "169.254.3.4", "::1", "fe80::1", "fd12::5"] {
            #expect(AuthorityScope.permits(address: IPAddressBytes.parse(address) ?? []), "\(address)")
        }
        for address in ["8.8.8.8", "172.32.0.1", "192.169.0.1", "100.128.0.1", "2001:db8::1", "::2"] {
            #expect(!AuthorityScope.permits(address: IPAddressBytes.parse(address) ?? []), "\(address)")
        }
        let names = LocalAuthority.Names.covering(hostName: "desk", addresses: ["192.168.1.20", "203.0.113.9"])
        #expect(names.ipAddresses == ["127.0.0.1", "::1", "192.168.1.20"])
    }

    /// A CA of an earlier version (no constraints), or one made for another host name, is made
    /// again: the phone trusts the new one once.
    @Test func anUnconstrainedOrRenamedAuthorityIsReplaced() throws {
        let state = Self.folder()
        let authority = LocalAuthority(directory: state)
        let names = LocalAuthority.Names.covering(hostName: "desk", addresses: [])
        let first = try authority.prepare(for: names, hostName: "desk")
        #expect(try authority.prepare(for: names, hostName: "desk").caFingerprint == first.caFingerprint)
        let renamed = try authority.prepare(for: names, hostName: "studio")
        #expect(renamed.caFingerprint != first.caFingerprint)
        // An unconstrained CA with the same key, as earlier versions made.
        let keyPEM = try #require(state.read(LocalAuthority.caKeyFile).map { String(decoding: $0, as: UTF8.self) })
        let key = try Certificate.PrivateKey(P256.Signing.PrivateKey(pemRepresentation: keyPEM))
        let name = try DistinguishedName { CommonName("old CA") }
        let old = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: key.publicKey,
            notValidBefore: Date().addingTimeInterval(-60), notValidAfter: Date().addingTimeInterval(3_650 * 86_400),
            issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions { Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0)) },
            issuerPrivateKey: key)
        try state.write(LocalAuthority.caFile, Data(try old.serializeAsPEM().pemString.utf8))
        let replaced = try authority.prepare(for: names, hostName: "studio")
        #expect(replaced.caFingerprint != (try LocalAuthority.fingerprint(of: old)))
        #expect(try Certificate(pemEncoded: replaced.caPEM).extensions.nameConstraints != nil)
    }
}
