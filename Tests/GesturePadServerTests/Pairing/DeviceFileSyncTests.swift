import Testing

@testable import GesturePadServer

/// When `devices.json` follows the desk: at once for what matters, later for `lastSeen`, one
/// write at a time, and a file changed meanwhile merged rather than overwritten.
@Suite struct DeviceFileSyncTests {
    func device(_ id: String, name: String? = nil, seen: String? = nil, key: String? = nil) -> PairedDevice {
        PairedDevice(id: id, name: name ?? "Phone \(id)", state: .paired, keySHA256: key ?? "k-\(id)", paired: "2026-01-01T00:00:00Z", lastSeen: seen)
    }

    let version = DeviceStore.FileVersion(inode: 1, size: 10, changed: 1)
    let later = DeviceStore.FileVersion(inode: 2, size: 11, changed: 2)

    @Test func aNewDeviceIsWrittenAtOnceAndOneWriteAtATime() {
        var sync = DeviceFileSync(onDisk: DeviceList(), version: version)
        let one = DeviceList(devices: [device("a")])
        #expect(sync.changed(one, now: 0) == [.save(one, basedOn: version)])
        let two = DeviceList(devices: [device("a"), device("b")])
        #expect(sync.changed(two, now: 1).isEmpty, "a write is with the keeper: the next one waits")
        #expect(sync.saved(one, version: later, current: two, now: 2) == [.save(two, basedOn: later)])
        #expect(sync.saved(two, version: version, current: two, now: 3).isEmpty)
        #expect(sync.lastSeenDue == nil)
    }

    @Test func lastSeenAloneWaitsForItsDeadline() {
        let base = DeviceList(devices: [device("a", seen: "2026-01-01T00:00:00Z")])
        var sync = DeviceFileSync(onDisk: base, version: version)
        let seen = DeviceList(devices: [device("a", seen: "2026-01-01T00:05:00Z")])
        #expect(sync.changed(seen, now: 1_000).isEmpty)
        #expect(sync.lastSeenDue == 1_000 + DeviceFileSync.lastSeenDelayMilliseconds)
        let seenAgain = DeviceList(devices: [device("a", seen: "2026-01-01T00:06:00Z")])
        #expect(sync.changed(seenAgain, now: 30_000).isEmpty, "the deadline of the first change stands")
        #expect(sync.lastSeenDue == 1_000 + DeviceFileSync.lastSeenDelayMilliseconds)
        #expect(sync.changed(seenAgain, now: 61_000) == [.save(seenAgain, basedOn: version)])
        #expect(sync.lastSeenDue == nil)
    }

    @Test func aChangeThatMattersTakesWaitingLastSeenAlong() {
        var sync = DeviceFileSync(onDisk: DeviceList(devices: [device("a")]), version: version)
        let seen = DeviceList(devices: [device("a", seen: "2026-01-02T00:00:00Z")])
        #expect(sync.changed(seen, now: 0).isEmpty)
        let paired = DeviceList(devices: [device("a", seen: "2026-01-02T00:00:00Z"), device("b")])
        #expect(sync.changed(paired, now: 10) == [.save(paired, basedOn: version)])
        #expect(sync.lastSeenDue == nil)
    }

    @Test func aFileChangedMeanwhileIsMergedNotOverwritten() {
        let base = DeviceList(devices: [device("a"), device("b")])
        var sync = DeviceFileSync(onDisk: base, version: version)
        // The server paired "c" and saw "a"; meanwhile `gesturepad devices` forgot "b" and renamed "a".
        let mine = DeviceList(devices: [device("a", seen: "2026-02-01T00:00:00Z"), device("b"), device("c")])
        #expect(sync.changed(mine, now: 0) == [.save(mine, basedOn: version)])
        var theirs = DeviceList(devices: [device("a", name: "Work phone"), device("b")])
        theirs.remove("b")
        let merged = sync.fileRead(theirs, version: later, current: mine)
        #expect(merged.devices == [device("a", name: "Work phone", seen: "2026-02-01T00:00:00Z"), device("c")])
        #expect(merged.forgottenKeys == ["k-b"])
        #expect(sync.onDisk == theirs && sync.version == later && !sync.inFlight)
        #expect(sync.changed(merged, now: 1) == [.save(merged, basedOn: later)])
    }

    @Test func aFailedWriteIsTriedAgainLater() {
        var sync = DeviceFileSync(onDisk: DeviceList(), version: nil)
        let one = DeviceList(devices: [device("a")])
        #expect(sync.changed(one, now: 0) == [.save(one, basedOn: nil)])
        sync.failed(now: 5)
        #expect(!sync.inFlight && sync.lastSeenDue == 5 + DeviceFileSync.lastSeenDelayMilliseconds)
        #expect(sync.changed(one, now: 6) == [.save(one, basedOn: nil)], "what matters is tried again with the next look")
    }
}

/// The three-way merge of the device list.
@Suite struct DeviceListMergeTests {
    func device(_ id: String, name: String = "P", state: PairedDevice.State = .paired, seen: String? = nil) -> PairedDevice {
        PairedDevice(id: id, name: name, state: state, keySHA256: "k-\(id)", paired: "t", lastSeen: seen)
    }

    @Test func bothSidesChangesSurvive() {
        let base = DeviceList(devices: [device("a"), device("w", state: .waiting)])
        // The server: allowed nothing, saw "a" late; the command line: allowed "w", renamed "a".
        let mine = DeviceList(devices: [device("a", seen: "2026-03-01"), device("w", state: .waiting)])
        let theirs = DeviceList(devices: [device("a", name: "Q", seen: "2026-02-01"), device("w", state: .allowed)])
        let merged = DeviceListMerge.merge(base: base, mine: mine, theirs: theirs)
        #expect(merged.devices == [device("a", name: "Q", seen: "2026-03-01"), device("w", state: .allowed)])
    }

    @Test func theFileWinsWhereBothChangedAField() {
        let base = DeviceList(devices: [device("a", name: "P")])
        let mine = DeviceList(devices: [device("a", name: "Mine")])
        let theirs = DeviceList(devices: [device("a", name: "Theirs")])
        #expect(DeviceListMerge.merge(base: base, mine: mine, theirs: theirs).devices == [device("a", name: "Theirs")])
    }

    @Test func aDeviceForgottenThereIsNotBroughtBack() {
        var theirs = DeviceList(devices: [device("a")])
        theirs.remove("a")
        // The server changed "a" (last seen) while the command line forgot it.
        let merged = DeviceListMerge.merge(
            base: DeviceList(devices: [device("a")]), mine: DeviceList(devices: [device("a", seen: "x")]), theirs: theirs)
        #expect(merged.devices.isEmpty && merged.forgottenKeys == ["k-a"])
        // A device the server removed goes from the file too, its key remembered.
        let removed = DeviceListMerge.merge(
            base: DeviceList(devices: [device("a"), device("b")]), mine: DeviceList(devices: [device("b")]),
            theirs: DeviceList(devices: [device("a"), device("b")]))
        #expect(removed.devices == [device("b")] && removed.forgottenKeys == ["k-a"])
    }
}
