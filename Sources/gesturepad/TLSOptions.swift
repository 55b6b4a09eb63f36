import ArgumentParser
import FoundationEssentials
import GesturePadServer
import GesturePadSettings

/// `--tls`, `--tls-cert`, `--tls-key`: HTTPS and WSS on the server's port, with GesturePad's
/// local certificate authority or a certificate the user already has.
struct TLSOptions: ParsableArguments {
    @Flag(
        name: .customLong("tls"),
        help: """
            Serve HTTPS / WSS on the same port, with a certificate signed by GesturePad's local \
            certificate authority (made once; phones trust it once at /trust). Plain HTTP on the port \
            is redirected to the same address over HTTPS; /pairing and WebSockets are refused in clear.
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

    var isOn: Bool { enabled || certificate != nil }

    /// The TLS configuration and a banner line, or nil when TLS is off. Throws a one-line
    /// reason for files that cannot work.
    func configuration(state: StateDirectory) throws -> (TLSConfiguration, note: String)? {
        if let certificate, let key {
            if let problem = CertificateFiles.problem(certificate: certificate, key: key) {
                throw ServeCommand.Failure(problem)
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
            throw ServeCommand.Failure(error.description)
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
