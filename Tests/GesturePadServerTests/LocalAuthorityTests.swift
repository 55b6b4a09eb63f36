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
        let first = try authority.prepare(for: home)
        #expect(first.issued)
        let again = try authority.prepare(for: home)
        #expect(!again.issued && again.caFingerprint == first.caFingerprint)
        let moved = LocalAuthority.Names.covering(hostName: "desk", addresses: ["10.0.0.7"])
        let third = try authority.prepare(for: moved)
        #expect(third.issued && third.caFingerprint == first.caFingerprint)
        let pem = try String(contentsOfFile: third.certificatePath, encoding: .utf8)
        let certificate = try Certificate(pemEncoded: pem)
        let names = try certificate.extensions.subjectAlternativeNames.map(Array.init) ?? []
        #expect(names.contains(.dnsName("desk.local")) && names.contains(.dnsName("localhost")))
        #expect(names.count == LocalAuthority.Names.covering(hostName: "desk", addresses: ["10.0.0.7"]).dnsNames.count + 3)
    }

    /// Within 30 days of its end the server certificate is issued again; the CA lasts 10 years.
    @Test func renewsBeforeTheEnd() throws {
        let state = Self.folder()
        let authority = LocalAuthority(directory: state)
        let names = LocalAuthority.Names.covering(hostName: "desk", addresses: [])
        let now = Date()
        _ = try authority.prepare(for: names, now: now)
        #expect(!(try authority.prepare(for: names, now: now.addingTimeInterval(300 * 86_400))).issued)
        #expect(try authority.prepare(for: names, now: now.addingTimeInterval(370 * 86_400)).issued)
    }
}
