/// When the running server writes `devices.json`, as a state machine (time and the file's
/// answers come in, requests to the `StateKeeper` go out). The pairing desk keeps the list in
/// memory and decides on it at once; the file follows, written off the service thread:
/// - a change that matters (a device paired, forgotten, allowed, renamed) is written at once;
/// - a change of `lastSeen` alone — every connection's open and close — waits up to
///   `lastSeenDelayMilliseconds`, so phones coming and going cost no disk write each;
/// - one write at a time: what changes meanwhile goes in the next;
/// - a write is conditional on the file being as last seen; when `gesturepad devices` (or
///   anyone) changed it meanwhile, the keeper sends the file back instead, and the two are
///   merged (`DeviceListMerge`) before the next write.
struct DeviceFileSync: Sendable {
    /// What to ask of the keeper.
    enum Request: Sendable, Hashable {
        /// Write `list` if the file is still at `basedOn`; else send the file back.
        case save(DeviceList, basedOn: DeviceStore.FileVersion?)
    }

    /// How long a `lastSeen` change may wait for its write (ms): the time `gesturepad devices`
    /// may show an older "last seen" for a phone that is connected (it shows connected phones
    /// as such from `server.json`).
    static let lastSeenDelayMilliseconds = 60_000.0

    /// The list as the file last held it (read or written), and the file's version then.
    private(set) var onDisk: DeviceList
    private(set) var version: DeviceStore.FileVersion?
    /// A save is with the keeper.
    private(set) var inFlight = false
    /// When waiting `lastSeen` changes are to be written (server clock, ms).
    private(set) var lastSeenDue: Double?

    init(onDisk: DeviceList, version: DeviceStore.FileVersion?) {
        self.onDisk = onDisk
        self.version = version
    }

    /// The desk's list is now `current`: what to write, if anything, now.
    mutating func changed(_ current: DeviceList, now: Double) -> [Request] {
        guard !inFlight else { return [] }
        guard current != onDisk else {
            lastSeenDue = nil
            return []
        }
        if Self.apartFromLastSeen(current) == Self.apartFromLastSeen(onDisk) {
            let due = lastSeenDue ?? now + Self.lastSeenDelayMilliseconds
            lastSeenDue = due
            guard now >= due else { return [] }
        }
        inFlight = true
        lastSeenDue = nil
        return [.save(current, basedOn: version)]
    }

    /// The keeper wrote `list`; the file is now at `version`.
    mutating func saved(_ list: DeviceList, version: DeviceStore.FileVersion?, current: DeviceList, now: Double)
        -> [Request]
    {
        inFlight = false
        onDisk = list
        self.version = version
        return changed(current, now: now)
    }

    /// The file holds `theirs` at `version` (changed by someone else, or read on request): the
    /// list the desk is to take, with its own unsaved changes kept (`DeviceListMerge`).
    /// `theirs` nil: the file is missing. A write is asked for by `changed` afterwards.
    mutating func fileRead(_ theirs: DeviceList?, version: DeviceStore.FileVersion?, current: DeviceList) -> DeviceList {
        inFlight = false
        let file = theirs ?? DeviceList()
        let merged = DeviceListMerge.merge(base: onDisk, mine: current, theirs: file)
        onDisk = file
        self.version = version
        return merged
    }

    /// A write failed: it is tried again with the next change, or at `lastSeenDue`.
    mutating func failed(now: Double) {
        inFlight = false
        lastSeenDue = now + Self.lastSeenDelayMilliseconds
    }

    private static func apartFromLastSeen(_ list: DeviceList) -> DeviceList {
        var copy = list
        for index in copy.devices.indices { copy.devices[index].lastSeen = nil }
        return copy
    }
}
