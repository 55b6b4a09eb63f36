import Foundation

/// `devices.json` in the state directory: every paired device (and every one waiting for the
/// computer's user), written 0600 and atomically by whoever changes it, under the lock of
/// `DeviceStore`.
public struct DeviceList: Codable, Sendable, Hashable {
    public static let fileName = "devices.json"
    /// The format's version (1).
    public var version = 1
    public var devices: [PairedDevice] = []

    public init(devices: [PairedDevice] = []) {
        self.devices = devices
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

    /// The id of the paired device whose key is `key`, or nil. Every paired device's digest is
    /// compared, in constant time each, whatever matches: the time taken tells nothing about
    /// which stored digest is near.
    public func pairedID(forKey key: String) -> String? {
        pairedID(forKey: key, comparing: DeviceKey.digestsMatch)
    }

    /// `pairedID(forKey:)` with the digest comparison given (tests count its calls).
    func pairedID(forKey key: String, comparing matches: (String, String) -> Bool) -> String? {
        guard DeviceKey.isWellFormed(key) else { return nil }
        let digest = DeviceKey.digest(key)
        var found: String?
        for device in devices where device.state == .paired {
            let match = matches(digest, device.keySHA256 ?? "")
            if match && found == nil { found = device.id }
        }
        return found
    }

    /// The device with `id`.
    public func device(_ id: String) -> PairedDevice? {
        devices.first { $0.id == id }
    }

    /// The devices `selector` names: the one with exactly that name, else those whose name
    /// matches ignoring case, else the one with that id.
    public func matching(_ selector: String) -> [PairedDevice] {
        let exact = devices.filter { $0.name == selector }
        if !exact.isEmpty { return exact }
        let folded = devices.filter { $0.name.caseInsensitiveCompare(selector) == .orderedSame }
        if !folded.isEmpty { return folded }
        return devices.filter { $0.id == selector }
    }

    /// `proposed`, or `proposed (2)`, `(3)`, … when another device (not `id`) has that name.
    public func uniqueName(_ proposed: String, for id: String? = nil) -> String {
        func taken(_ name: String) -> Bool {
            devices.contains { $0.id != id && $0.name.caseInsensitiveCompare(name) == .orderedSame }
        }
        guard taken(proposed) else { return proposed }
        var number = 2
        while taken("\(proposed) (\(number))") { number += 1 }
        return "\(proposed) (\(number))"
    }

    /// Removes the device with `id`; returns it.
    @discardableResult
    public mutating func remove(_ id: String) -> PairedDevice? {
        guard let index = devices.firstIndex(where: { $0.id == id }) else { return nil }
        return devices.remove(at: index)
    }

    /// Changes the device with `id` in place.
    mutating func update(_ id: String, _ change: (inout PairedDevice) -> Void) {
        guard let index = devices.firstIndex(where: { $0.id == id }) else { return }
        change(&devices[index])
    }
}
