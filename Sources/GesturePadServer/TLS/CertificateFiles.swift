import FoundationEssentials
import X509
import _CryptoExtras

/// Checks a certificate and key the user gives (`--tls-cert`, `--tls-key`) before lws loads
/// them, so a wrong file is one clear line, not an OpenSSL error.
public enum CertificateFiles {
    /// nil when both files are readable PEM and the key belongs to the certificate.
    public static func problem(certificate: String, key: String) -> String? {
        guard let certText = try? String(contentsOfFile: certificate, encoding: .utf8) else {
            return "--tls-cert \(certificate): cannot read the file"
        }
        guard let keyText = try? String(contentsOfFile: key, encoding: .utf8) else {
            return "--tls-key \(key): cannot read the file"
        }
        guard let parsed = try? Certificate(pemEncoded: certText) else {
            return "--tls-cert \(certificate): not a PEM certificate"
        }
        guard let privateKey = try? Certificate.PrivateKey(pemEncoded: keyText) else {
            return "--tls-key \(key): not a PEM private key (RSA, P-256/384/521 or Ed25519)"
        }
        guard privateKey.publicKey == parsed.publicKey else {
            return "--tls-key \(key) does not belong to the certificate in \(certificate)"
        }
        return nil
    }
}
