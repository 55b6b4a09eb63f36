import ArgumentParser
import FoundationEssentials
import GesturePadConfig
import GesturePadServer
import GesturePadSettings

/// `--tls`, `--tls-cert`, `--tls-key`: HTTPS and WSS on the server's port, with GesturePad's
/// local certificate authority or a certificate the user already has.
struct TLSOptions: ParsableArguments {
    @Flag(
        name: .customLong("tls"),
        help: """
            Serve HTTPS / WSS on the same port, with a certificate signed by GesturePad's local \
            certificate authority (made once; phones trust it once at /trust). A page opened over plain \
            HTTP moves to HTTPS by itself, keeping its pairing; no secret is taken in clear. \
            The configuration file's server.tls does the same.
            """)
    var enabled = false

    @Option(
        name: .customLong("tls-cert"),
        help: ArgumentHelp(
            "Your own certificate (PEM, with its chain) instead of the local CA; implies --tls.", valueName: "file"))
    var certificate: String?

    @Option(
        name: .customLong("tls-key"),
        help: ArgumentHelp("The private key (PEM) of --tls-cert.", valueName: "file"))
    var key: String?

    func validate() throws {
        if (certificate == nil) != (key == nil) {
            throw ValidationError("--tls-cert and --tls-key go together")
        }
    }

    /// The TLS configuration and a banner line, or nil when TLS is off: these flags, else the
    /// configuration file's `server.tls` / `server.tlsCert` and `server.tlsKey` (relative to
    /// the file's folder). Throws a one-line reason for files that cannot work.
    func configuration(state: StateDirectory, file: ConfigFile) throws -> (TLSConfiguration, note: String)? {
        var certificate = self.certificate
        var key = self.key
        var enabled = self.enabled
        if certificate == nil && !enabled {
            let settings = file.server
            if (settings.tlsCertificate == nil) != (settings.tlsKey == nil) {
                throw CommandFailure.option(
                    "server.tlsCert", "the configuration file's server.tlsCert and server.tlsKey go together")
            }
            certificate = settings.tlsCertificate.map(file.resolve)
            key = settings.tlsKey.map(file.resolve)
            enabled = settings.tls == true
        }
        if let certificate, let key {
            if let problem = CertificateFiles.problem(certificate: certificate, key: key) {
                throw CommandFailure.file(problem)
            }
            let tls = TLSConfiguration(certificatePath: absolute(certificate), keyPath: absolute(key))
            return (tls, "HTTPS with your certificate (\(certificate)).")
        }
        guard enabled else { return nil }
        let addresses = InterfaceList.current().filter { !$0.isLinkLocal }.map(\.address)
        let hostName = ProcessInfo.processInfo.hostName
        let names = LocalAuthority.Names.covering(hostName: hostName, addresses: addresses)
        let material: LocalAuthority.Material
        do {
            material = try LocalAuthority(directory: state).prepare(for: names, hostName: hostName)
        } catch {
            throw CommandFailure.file(error.description)
        }
        let tls = TLSConfiguration(
            certificatePath: material.certificatePath, keyPath: material.keyPath,
            authority: .init(caPEM: material.caPEM, fingerprint: material.caFingerprint))
        let issued = material.issued ? " (certificate issued now for \(names.ipAddresses.count) addresses)" : ""
        return (
            tls,
            "HTTPS with GesturePad's local certificate authority\(issued)."
        )
    }

    private func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
            .standardizedFileURL.path
    }
}
