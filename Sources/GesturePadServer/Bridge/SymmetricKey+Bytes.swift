import Crypto

/// A key's bytes as an array: swift-crypto lends them only through a raw buffer, so the copy
/// out is made here, with the bridge's pointer code, and the security code stays safe Swift.
extension SymmetricKey {
    /// A copy of the key's bytes.
    var bytes: [UInt8] { withUnsafeBytes { Array($0) } }
}

extension SharedSecret {
    /// A copy of the shared secret's bytes (the key exchange's, `ProofJudge`).
    var bytes: [UInt8] { withUnsafeBytes { Array($0) } }
}
