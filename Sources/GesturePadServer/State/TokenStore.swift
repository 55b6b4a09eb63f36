import FoundationEssentials
import GesturePadSettings
import GesturePadSystem
import Glibc

/// The access token kept in the state directory (`token`), so a phone paired once keeps
/// working across restarts: made at random the first time, read back every later time,
/// replaced by `--new-token`.
public enum TokenStore {
    /// Where the token came from, for the banner.
    public enum Origin: Sendable, Hashable {
        /// Made now (first run, `--new-token`, or the stored one was unusable) and stored.
        case new
        /// Read back from the state directory.
        case remembered
    }

    static let fileName = "token"

    /// The stored token, if there is a usable one; never makes one (`gesturepad url`).
    public static func stored(in directory: StateDirectory) -> String? {
        guard let data = directory.read(fileName) else { return nil }
        let text = String(decoding: data, as: UTF8.self).trimmingWhitespaceAndNewlines()
        return AccessToken.problem(with: text) == nil ? text : nil
    }

    /// The stored token, or a new one (stored) when there is none, it is unusable, or
    /// `renew` is set.
    public static func load(
        from directory: StateDirectory, renew: Bool, makeToken: () -> String = AccessToken.random
    ) throws(StateError) -> (token: String, origin: Origin) {
        if !renew, let data = directory.read(fileName) {
            let text = String(decoding: data, as: UTF8.self).trimmingWhitespaceAndNewlines()
            if AccessToken.problem(with: text) == nil {
                // An older or hand-made file may have wider modes: keep the secret private.
                chmod(directory.file(fileName), 0o600)
                return (text, .remembered)
            }
        }
        let token = makeToken()
        try directory.write(fileName, Data((token + "\n").utf8))
        return (token, .new)
    }
}
