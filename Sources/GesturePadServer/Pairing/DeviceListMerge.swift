/// A three-way merge of `devices.json`: what the running server changed in memory since it last
/// synced with the file (`base` → `mine`), applied to what the file holds now (`theirs`:
/// `gesturepad devices`, another server, an edit by hand changed it meanwhile).
///
/// The server writes the file from a thread of its own, after the fact (`StateKeeper`), so its
/// changes and the file's may cross; neither side's change is lost:
/// - a device the server added (paired) is added, unless the file already forgot its key;
/// - a device the server removed (forgotten, declined) is removed;
/// - a field the server changed is taken where the file kept the old value; where both
///   changed it the file wins (a rename or an `allow` from the command line), except
///   `lastSeen`, which takes the later of the two;
/// - forgotten keys are the file's, then the server's new ones, up to the limit.
enum DeviceListMerge {
    static func merge(base: DeviceList, mine: DeviceList, theirs: DeviceList) -> DeviceList {
        var result = theirs
        let baseByID = Dictionary(base.devices.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let mineIDs = Set(mine.devices.map(\.id))
        for id in baseByID.keys.sorted() where !mineIDs.contains(id) {
            result.remove(id)
        }
        let forgotten = Set(theirs.forgottenKeys)
        for device in mine.devices {
            guard let old = baseByID[device.id] else {
                let forgottenThere = device.forgottenDigest.map(forgotten.contains) ?? false
                if result.device(device.id) == nil && !forgottenThere { result.devices.append(device) }
                continue
            }
            guard device != old else { continue }
            result.update(device.id) { merged in
                merged = field(old, device, merged)
            }
        }
        var keys = result.forgottenKeys
        var seen = Set(keys)
        for key in mine.forgottenKeys where !seen.contains(key) {
            keys.append(key)
            seen.insert(key)
        }
        result.forgottenKeys = Array(keys.suffix(DeviceList.forgottenLimit))
        return result
    }

    /// `theirs` with the fields the server changed (`base` → `mine`) where the file did not.
    private static func field(_ base: PairedDevice, _ mine: PairedDevice, _ theirs: PairedDevice) -> PairedDevice {
        var merged = theirs
        if mine.name != base.name && theirs.name == base.name { merged.name = mine.name }
        if mine.state != base.state && theirs.state == base.state { merged.state = mine.state }
        // The credential is one field of two halves: a device moving to a key pair drops its digest.
        if (mine.keySHA256, mine.publicKey) != (base.keySHA256, base.publicKey)
            && (theirs.keySHA256, theirs.publicKey) == (base.keySHA256, base.publicKey)
        {
            merged.keySHA256 = mine.keySHA256
            merged.publicKey = mine.publicKey
        }
        if mine.paired != base.paired && theirs.paired == base.paired { merged.paired = mine.paired }
        if mine.browserSHA256 != base.browserSHA256 && theirs.browserSHA256 == base.browserSHA256 {
            merged.browserSHA256 = mine.browserSHA256
        }
        // ISO 8601 UTC stamps of one format: text order is time order.
        merged.lastSeen = [mine.lastSeen, theirs.lastSeen].compactMap { $0 }.max()
        return merged
    }
}
