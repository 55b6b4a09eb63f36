/// HTTPS / WSS on the server's port (`--tls`): the certificate and key files libwebsockets
/// loads (OpenSSL), and the local CA when the certificate is one it signed.
public struct TLSConfiguration: Sendable {
    public var certificatePath: String
    public var keyPath: String
    /// The local certificate authority, when the server certificate is its own: `/ca.crt`
    /// serves `caPEM`, `/trust` shows how to install it and its fingerprint.
    public var authority: Authority?

    public struct Authority: Sendable {
        public var caPEM: String
        public var fingerprint: String
        public init(caPEM: String, fingerprint: String) {
            self.caPEM = caPEM
            self.fingerprint = fingerprint
        }
    }

    public init(certificatePath: String, keyPath: String, authority: Authority? = nil) {
        self.certificatePath = certificatePath
        self.keyPath = keyPath
        self.authority = authority
    }
}
