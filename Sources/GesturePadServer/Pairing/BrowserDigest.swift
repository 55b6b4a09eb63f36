/// Who "the same browser" is when a browser pairs again (docs/server.md "The same browser
/// pairing again"): the SHA-256 of what its pairing connection said of itself — its
/// `User-Agent`, the model its page reported (`auth.model`) and its address — kept in
/// `devices.json` as `browserSHA256`. It is no secret and proves nothing: two phones of the
/// same model and browser behind one address give the same digest. It only picks the entry a
/// pairing with the secret, which could add one anyway, takes over instead.
public enum BrowserDigest {
    /// The digest, 64 lowercase hex digits, of `userAgent`, `model` and `address` (the peer's
    /// address without a port), each field ended by a zero byte so none runs into the next.
    public static func of(userAgent: String, model: String?, address: String) -> String {
        DeviceKey.digest("gesturepad/1 browser\u{0}\(userAgent)\u{0}\(model ?? "")\u{0}\(address)\u{0}")
    }
}
