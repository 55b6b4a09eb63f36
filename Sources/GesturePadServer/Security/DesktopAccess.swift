import Crypto
import FoundationEssentials

/// Who may use the desktop page's requests (`/desktop/…`, docs/server.md "The desktop page"):
/// the computer's own user, and nobody on the network. A request is answered only when it comes
/// from a loopback address, names a loopback `Host` (a web page elsewhere cannot rebind a name
/// to 127.0.0.1 and read the answers), carries no foreign `Origin`, and holds the desktop key
/// (kept 0600 in the state directory) in its `X-GesturePad-Desktop` header — a header no other
/// site's page can add without the browser asking the server first, which it never allows.
/// Pure: the request's parts come in, a decision goes out.
public enum DesktopAccess {
    /// The header that carries the desktop key.
    public static let keyHeader = "x-gesturepad-desktop:"
    /// The path prefix of the desktop page's requests.
    public static let prefix = "/desktop/"

    /// What a request asks, once it is let in.
    public enum Request: Sendable, Hashable {
        /// The page's state: pairing, the code, the devices, the backend.
        case state
        /// Opens (true) or closes pairing.
        case pairing(open: Bool)
        /// Renames device `id`.
        case rename(id: String, name: String)
        /// Forgets device `id`.
        case forget(id: String)
    }

    /// The decision on one request.
    public enum Decision: Sendable, Hashable {
        case answer(Request)
        case refuse(status: Int, reason: String)
    }

    /// The decision on `path` (below `prefix`) with its decoded query `arguments` (`name=value`),
    /// from `peer`, with the `Host`, `Origin` and key headers as sent; `key` is the desktop key.
    public static func decide(
        path: String, arguments: [String], peer: String, host: String?, origin: String?, presented: String?, key: String
    ) -> Decision {
        guard LoopbackAddress.isPeer(peer) else {
            return .refuse(status: 403, reason: "the desktop page answers this computer only")
        }
        guard let host, LoopbackAddress.isHost(host) else {
            return .refuse(status: 403, reason: "the desktop page is reached at 127.0.0.1, localhost or [::1] only")
        }
        if let origin, !OriginMatcher.matches(origin: origin, host: host) {
            return .refuse(status: 403, reason: "Origin does not match Host")
        }
        guard let presented, !key.isEmpty, digest(presented) == digest(key) else {
            return .refuse(status: 401, reason: "no desktop key, or not this server's: open the page with gesturepad open")
        }
        func argument(_ name: String) -> String? {
            arguments.first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) }
        }
        switch String(path.dropFirst(prefix.count)) {
        case "state":
            return .answer(.state)
        case "pairing":
            switch argument("open") {
            case "1"?: return .answer(.pairing(open: true))
            case "0"?: return .answer(.pairing(open: false))
            default: return .refuse(status: 400, reason: "pairing takes open=1 or open=0")
            }
        case "rename":
            guard let id = argument("id"), let name = argument("name") else {
                return .refuse(status: 400, reason: "rename takes id and name")
            }
            return .answer(.rename(id: id, name: name))
        case "forget":
            guard let id = argument("id") else { return .refuse(status: 400, reason: "forget takes id") }
            return .answer(.forget(id: id))
        default:
            return .refuse(status: 404, reason: "no such desktop request")
        }
    }

    private static func digest(_ text: String) -> SHA256.Digest { SHA256.hash(data: Data(text.utf8)) }
}
