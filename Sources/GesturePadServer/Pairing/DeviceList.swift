import FoundationEssentials
import GesturePadSystem

/// `devices.json` in the state directory: every paired device (and every one waiting for the
/// computer's user), and the digests of the keys of devices forgotten since, written 0600 and
/// atomically by whoever changes it, under the lock of `DeviceStore`.
public struct DeviceList: Codable, Sendable, Hashable {
    public static let fileName = "devices.json"
    /// The most forgotten keys remembered; the oldest go first.
    public static let forgottenLimit = 256
    /// The format's version (1).
    public var version = 1
    public var devices: [PairedDevice] = []
    /// SHA-256 digests (`DeviceKey.digest`) of the keys of forgotten devices, oldest first: such
    /// a key is still refused like any wrong token, but `GET /pairing` can tell its page that it
    /// was removed (`KeyStanding.forgotten`). Absent from files written before it existed.
    public var forgottenKeys: [String] = []
    /// The last `gesturepad pair` (opens pairing) or `gesturepad pair --close`: the running
    /// server acts on a request whose serial it has not seen (docs/server.md "Pairing is a
    /// moment"). Absent until the first.
    public var pairingRequest: PairingRequest?

    /// The most devices paired at once (`devices.json` stays small; a new one is refused beyond).
    public static let maxDevices = 32

    public init(devices: [PairedDevice] = [], forgottenKeys: [String] = []) {
        self.devices = devices
        self.forgottenKeys = forgottenKeys
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decodeIfPresent(Int.self, forKey: .version) ?? 1
        devices = try container.decodeIfPresent([PairedDevice].self, forKey: .devices) ?? []
        forgottenKeys = try container.decodeIfPresent([String].self, forKey: .forgottenKeys) ?? []
        pairingRequest = try container.decodeIfPresent(PairingRequest.self, forKey: .pairingRequest)
    }

    /// The file's text: pretty, keys sorted, one trailing newline.
    public func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return ((try? encoder.encode(self)) ?? Data("{\"devices\":[],\"version\":1}".utf8)) + Data("\n".utf8)
    }

    /// A list read back, or nil when `data` is not one.
    public static func decode(_ data: Data) -> DeviceList? {
        try? JSONDecoder().decode(DeviceList.self, from: data)
    }

    /// The id of the paired device whose key is `key`, or nil (`standing(ofKey:)`).
    public func pairedID(forKey key: String) -> String? {
        if case .paired(let id) = standing(ofKey: key) { return id }
        return nil
    }

    /// The device with `id`.
    public func device(_ id: String) -> PairedDevice? {
        devices.first { $0.id == id }
    }

    /// The devices `selector` names: the one with exactly that name, else those whose name
    /// matches ignoring case, else the one with that id, else those whose name or id starts
    /// with it, ignoring case ("pixel" names "Pixel 8 · Chrome"; two such devices are two
    /// matches, and the caller asks for more). An empty selector names nothing.
    public func matching(_ selector: String) -> [PairedDevice] {
        guard !selector.isEmpty else { return [] }
        let exact = devices.filter { $0.name == selector }
        if !exact.isEmpty { return exact }
        let folded = devices.filter { $0.name.equalsIgnoringCase(selector) }
        if !folded.isEmpty { return folded }
        let byID = devices.filter { $0.id == selector }
        if !byID.isEmpty { return byID }
        let prefix = selector.lowercased()
        return devices.filter { $0.name.lowercased().hasPrefix(prefix) || $0.id.hasPrefix(prefix) }
    }

    /// `proposed`, or `proposed (2)`, `(3)`, … when another device (not `id`) has that name.
    public func uniqueName(_ proposed: String, for id: String? = nil) -> String {
        func taken(_ name: String) -> Bool {
            devices.contains { $0.id != id && $0.name.equalsIgnoringCase(name) }
        }
        guard taken(proposed) else { return proposed }
        var number = 2
        while taken("\(proposed) (\(number))") { number += 1 }
        return "\(proposed) (\(number))"
    }

    /// Removes the device with `id` (its key, if it had one, is remembered as forgotten);
    /// returns it.
    @discardableResult
    public mutating func remove(_ id: String) -> PairedDevice? {
        guard let index = devices.firstIndex(where: { $0.id == id }) else { return nil }
        let device = devices.remove(at: index)
        rememberForgotten([device])
        return device
    }

    /// Removes every device (their keys are remembered as forgotten).
    public mutating func removeAll() {
        rememberForgotten(devices)
        devices.removeAll()
    }

    /// Changes the device with `id` in place.
    mutating func update(_ id: String, _ change: (inout PairedDevice) -> Void) {
        guard let index = devices.firstIndex(where: { $0.id == id }) else { return }
        change(&devices[index])
    }
}
