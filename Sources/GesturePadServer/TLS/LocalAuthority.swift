import Crypto
import FoundationEssentials
import SwiftASN1
import X509

/// The local certificate authority: made once in the state directory, it signs a server
/// certificate for every current address and host name of this computer, so a phone that
/// trusts the CA once (`/ca.crt`, `/trust`) opens the page over HTTPS with no warning.
///
/// Files (all 0600, in `StateDirectory`): `ca-key.pem` (the CA's P-256 key, never leaves the
/// folder), `ca.crt` (the CA certificate, 2 years, constrained to this computer's names and
/// private addresses: `AuthorityScope`), `server-key.pem` and `server.crt` (P-256, 397 days:
/// under the 398 days browsers accept). The server certificate is issued again when the names
/// it must cover change (a new address, a new host name) or within 30 days of its end; the CA
/// is made again within 30 days of its end, when the host name changed, or when it has not
/// the constraints (a CA of an earlier version): a phone then trusts the new one once.
public struct LocalAuthority: Sendable {
    /// What the server needs: the files lws loads, and what `/ca.crt` and `/trust` show.
    public struct Material: Sendable {
        public var certificatePath: String
        public var keyPath: String
        /// The CA certificate, PEM.
        public var caPEM: String
        /// SHA-256 of the CA certificate's DER, as colon-separated upper-case hex.
        public var caFingerprint: String
        /// The server certificate was (re)issued in this run.
        public var issued: Bool
    }

    /// The names and addresses a server certificate must cover.
    public struct Names: Sendable, Hashable {
        public var dnsNames: [String]
        public var ipAddresses: [String]

        public init(dnsNames: [String], ipAddresses: [String]) {
            self.dnsNames = dnsNames
            self.ipAddresses = ipAddresses
        }

        /// `localhost`, the host name and its `.local` mDNS name, the loopback addresses and
        /// every address given that the CA may sign for (`AuthorityScope`: a public address
        /// would make browsers refuse the whole certificate), without repeats.
        public static func covering(hostName: String, addresses: [String]) -> Names {
            var dns = ["localhost"]
            let short = hostName.split(separator: ".").first.map(String.init) ?? hostName
            for name in [hostName, short, short + ".local"] where !name.isEmpty && !dns.contains(name) {
                dns.append(name)
            }
            var ips: [String] = []
            for address in ["127.0.0.1", "::1"] + addresses where !ips.contains(address) {
                guard let bytes = IPAddressBytes.parse(address), AuthorityScope.permits(address: bytes) else { continue }
                ips.append(address)
            }
            return Names(dnsNames: dns, ipAddresses: ips)
        }
    }

    public let directory: StateDirectory

    public init(directory: StateDirectory) {
        self.directory = directory
    }

    static let caKeyFile = "ca-key.pem"
    static let caFile = "ca.crt"
    static let serverKeyFile = "server-key.pem"
    static let serverFile = "server.crt"
    static let serverLifetime: TimeInterval = 397 * 86_400
    /// Two years: a stolen `ca-key.pem` stays useful for no longer, and the constraints of a
    /// renamed computer are renewed; each renewal asks every phone to trust the CA again.
    static let caLifetime: TimeInterval = 730 * 86_400
    static let renewBefore: TimeInterval = 30 * 86_400

    /// The CA (made if missing or unusable) and a server certificate for `names` (issued
    /// again when needed).
    public func prepare(for names: Names, hostName: String, now: Date = Date()) throws(StateError) -> Material {
        do {
            let (caKey, ca) = try authority(scope: AuthorityScope(hostName: hostName), now: now)
            var issued = false
            if try !serverCertificateFits(names, ca: ca, now: now) {
                try issueServerCertificate(for: names, caKey: caKey, ca: ca, now: now)
                issued = true
            }
            let caPEM = try ca.serializeAsPEM().pemString
            return Material(
                certificatePath: directory.file(Self.serverFile), keyPath: directory.file(Self.serverKeyFile),
                caPEM: caPEM + "\n", caFingerprint: try Self.fingerprint(of: ca), issued: issued)
        } catch let error as StateError {
            throw error
        } catch {
            throw StateError("cannot prepare the local certificate authority in \(directory.path): \(error)")
        }
    }

    /// SHA-256 of a certificate's DER encoding, `AB:CD:…`.
    public static func fingerprint(of certificate: Certificate) throws -> String {
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return SHA256.hash(data: serializer.serializedBytes).map { byte in
            let hex = String(byte, radix: 16, uppercase: true)
            return hex.count == 1 ? "0" + hex : hex
        }.joined(separator: ":")
    }

    // MARK: - The CA

    private func authority(scope: AuthorityScope, now: Date) throws -> (P256.Signing.PrivateKey, Certificate) {
        if let keyData = directory.read(Self.caKeyFile), let certData = directory.read(Self.caFile),
            let key = try? P256.Signing.PrivateKey(pemRepresentation: String(decoding: keyData, as: UTF8.self)),
            let ca = try? Certificate(pemEncoded: String(decoding: certData, as: UTF8.self)),
            ca.publicKey == Certificate.PrivateKey(key).publicKey,
            ca.notValidAfter > now.addingTimeInterval(Self.renewBefore),
            let constraints = try? ca.extensions.nameConstraints, constraints == scope.constraints,
            ca.extensions[oid: .X509ExtensionID.nameConstraints]?.critical == true
        {
            return (key, ca)
        }
        let key = P256.Signing.PrivateKey()
        let signer = Certificate.PrivateKey(key)
        let name = try DistinguishedName {
            OrganizationName("GesturePad")
            CommonName("GesturePad local CA (\(ProcessInfo.processInfo.hostName))")
        }
        let extensions = try Certificate.Extensions {
            Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
            Critical(KeyUsage(digitalSignature: true, keyCertSign: true, cRLSign: true))
            Critical(scope.constraints)
            SubjectKeyIdentifier(hash: signer.publicKey)
        }
        let ca = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: signer.publicKey,
            notValidBefore: now.addingTimeInterval(-3_600), notValidAfter: now.addingTimeInterval(Self.caLifetime),
            issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions,
            issuerPrivateKey: signer)
        try directory.write(Self.caKeyFile, Data(key.pemRepresentation.utf8))
        try directory.write(Self.caFile, Data((try ca.serializeAsPEM().pemString + "\n").utf8))
        // A new CA invalidates the old server certificate.
        directory.remove(Self.serverFile)
        return (key, ca)
    }

    // MARK: - The server certificate

    private func serverCertificateFits(_ names: Names, ca: Certificate, now: Date) throws -> Bool {
        guard let keyData = directory.read(Self.serverKeyFile), let certData = directory.read(Self.serverFile),
            let key = try? P256.Signing.PrivateKey(pemRepresentation: String(decoding: keyData, as: UTF8.self)),
            let certificate = try? Certificate(pemEncoded: String(decoding: certData, as: UTF8.self))
        else { return false }
        guard certificate.publicKey == Certificate.PrivateKey(key).publicKey, certificate.issuer == ca.subject,
            ca.publicKey.isValidSignature(certificate.signature, for: certificate),
            certificate.notValidAfter > now.addingTimeInterval(Self.renewBefore)
        else { return false }
        let covered = Set(try certificate.extensions.subjectAlternativeNames ?? SubjectAlternativeNames())
        return covered == Set(try Self.alternativeNames(for: names))
    }

    private func issueServerCertificate(
        for names: Names, caKey: P256.Signing.PrivateKey, ca: Certificate, now: Date
    ) throws {
        let key = P256.Signing.PrivateKey()
        let publicKey = Certificate.PrivateKey(key).publicKey
        let caSigner = Certificate.PrivateKey(caKey)
        let subject = try DistinguishedName {
            OrganizationName("GesturePad")
            CommonName(names.dnsNames.count > 1 ? names.dnsNames[1] : "localhost")
        }
        let extensions = try Certificate.Extensions {
            Critical(BasicConstraints.notCertificateAuthority)
            Critical(KeyUsage(digitalSignature: true))
            try ExtendedKeyUsage([.serverAuth])
            SubjectKeyIdentifier(hash: publicKey)
            AuthorityKeyIdentifier(keyIdentifier: SubjectKeyIdentifier(hash: caSigner.publicKey).keyIdentifier)
            SubjectAlternativeNames(try Self.alternativeNames(for: names))
        }
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: publicKey,
            notValidBefore: now.addingTimeInterval(-3_600), notValidAfter: now.addingTimeInterval(Self.serverLifetime),
            issuer: ca.subject, subject: subject, signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions,
            issuerPrivateKey: caSigner)
        try directory.write(Self.serverKeyFile, Data(key.pemRepresentation.utf8))
        try directory.write(Self.serverFile, Data((try certificate.serializeAsPEM().pemString + "\n").utf8))
    }

    static func alternativeNames(for names: Names) throws -> [GeneralName] {
        var result = names.dnsNames.map { GeneralName.dnsName($0) }
        for address in names.ipAddresses {
            guard let bytes = IPAddressBytes.parse(address) else { continue }
            result.append(.ipAddress(ASN1OctetString(contentBytes: ArraySlice(bytes))))
        }
        return result
    }
}
