/// Where a token stands as a device key (docs/server.md "Pairing"): the key of a paired device,
/// of a device forgotten since, or of none this computer knows.
public enum KeyStanding: Sendable, Hashable {
    /// The key of the paired device with this id.
    case paired(String)
    /// The key of a device that was forgotten (`gesturepad devices forget`, the notification's
    /// Forget, the page's unpair, `--forget-devices`).
    case forgotten
    /// No device's key: never paired here, the pairing secret, or anything else.
    case unknown
}

extension DeviceList {
    /// Where `key` stands. Every paired device's digest and every forgotten one is compared, in
    /// constant time each, whatever matches: the time taken tells nothing about which stored
    /// digest is near, nor whether the key is paired or forgotten.
    public func standing(ofKey key: String) -> KeyStanding {
        standing(ofKey: key, comparing: DeviceKey.digestsMatch)
    }

    /// `standing(ofKey:)` with the digest comparison given (tests count its calls).
    func standing(ofKey key: String, comparing matches: (String, String) -> Bool) -> KeyStanding {
        guard DeviceKey.isWellFormed(key) else { return .unknown }
        let digest = DeviceKey.digest(key)
        var paired: String?
        var forgotten = false
        for device in devices where device.state == .paired {
            let match = matches(digest, device.keySHA256 ?? "")
            if match && paired == nil { paired = device.id }
        }
        for stored in forgottenKeys {
            let match = matches(digest, stored)
            forgotten = forgotten || match
        }
        if let paired { return .paired(paired) }
        return forgotten ? .forgotten : .unknown
    }

    /// Remembers the keys of `removed` (those that have one) as forgotten, keeping at most
    /// `forgottenLimit`.
    mutating func rememberForgotten(_ removed: [PairedDevice]) {
        let digests = removed.compactMap(\.forgottenDigest).filter { !forgottenKeys.contains($0) }
        guard !digests.isEmpty else { return }
        forgottenKeys.append(contentsOf: digests)
        if forgottenKeys.count > Self.forgottenLimit {
            forgottenKeys.removeFirst(forgottenKeys.count - Self.forgottenLimit)
        }
    }
}
