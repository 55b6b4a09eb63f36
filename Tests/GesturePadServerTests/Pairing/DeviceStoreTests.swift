import Foundation
import Testing

@testable import GesturePadServer

@Suite struct DeviceStoreTests {
    func temporaryStore() -> DeviceStore {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gp-devices-\(UUID().uuidString)")
        return DeviceStore(directory: StateDirectory(path: folder.path + "/gesturepad"))
    }

    /// The list is written 0600 (the folder 0700), read back whole, and holds no key.
    @Test func writesPrivately() throws {
        let store = temporaryStore()
        let key = DeviceKey.random()
        let device = PairedDevice(id: "d1", name: "Phone", state: .paired, keySHA256: DeviceKey.digest(key), paired: "t")
        try store.update { $0.devices.append(device) }
        #expect(store.read() == .list(DeviceList(devices: [device])))
        let file = store.directory.file(DeviceList.fileName)
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        let folderMode = try FileManager.default.attributesOfItem(atPath: store.directory.path)[.posixPermissions] as? Int
        #expect(mode == 0o600 && folderMode == 0o700)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(!text.contains(key) && text.contains(DeviceKey.digest(key)))
    }

    /// A broken file is an error, never overwritten by an edit; a missing one is an empty list.
    @Test func brokenFileIsLeftAlone() throws {
        let store = temporaryStore()
        #expect(store.read() == .missing)
        try store.directory.write(DeviceList.fileName, Data("not json".utf8))
        #expect(store.read() == .unreadable)
        #expect(throws: StateError.self) { try store.update { $0.devices.removeAll() } }
        #expect(store.directory.read(DeviceList.fileName) == Data("not json".utf8))
    }

    /// The version changes when the file is replaced.
    @Test func versionTracksChanges() throws {
        let store = temporaryStore()
        #expect(store.version() == nil)
        try store.update { $0.devices.append(PairedDevice(id: "a", name: "A", state: .paired, paired: "t")) }
        let first = store.version()
        try store.update { $0.devices[0].name = "B" }
        #expect(first != nil && store.version() != first)
    }
}

@Suite struct DeviceEditTests {
    var list = DeviceList(devices: [
        PairedDevice(id: "a1", name: "Pixel 8 · Chrome", state: .paired, keySHA256: "x", paired: "t"),
        PairedDevice(id: "b2", name: "iPhone · Safari", state: .paired, keySHA256: "y", paired: "t"),
        PairedDevice(id: "c3", name: "Tablet", state: .waiting, paired: "t"),
    ])

    /// Rename by name (any case) or id; a taken or empty name is refused.
    @Test mutating func rename() throws {
        #expect(try list.apply(.rename("pixel 8 · chrome", to: " Work phone ")) == "Renamed 'Pixel 8 · Chrome' to 'Work phone'.")
        #expect(list.device("a1")?.name == "Work phone")
        #expect(throws: DeviceEditError.self) { try list.apply(.rename("b2", to: "work PHONE")) }
        #expect(throws: DeviceEditError.self) { try list.apply(.rename("b2", to: "\n")) }
        #expect(throws: DeviceEditError.self) { try list.apply(.rename("nobody", to: "x")) }
    }

    /// "pixel" names "Pixel 8 · Chrome" (a unique prefix, any case; of an id too); a prefix two
    /// devices share names neither, and the refusal lists them.
    @Test mutating func aUniquePrefixNamesADevice() throws {
        #expect(try list.apply(.forget("pixel")) == "Forgot 'Pixel 8 · Chrome': it must scan the code again to pair.")
        #expect(list.device("a1") == nil)
        list.devices.append(PairedDevice(id: "d4", name: "iPhone · Firefox", state: .paired, keySHA256: "z", paired: "t"))
        do {
            _ = try list.apply(.forget("IPHONE"))
            Issue.record("an ambiguous prefix forgot a device")
        } catch {
            #expect(error.description.contains("'iPhone · Safari' (id b2)") && error.description.contains("'iPhone · Firefox' (id d4)"))
        }
        #expect(try list.apply(.rename("iphone · s", to: "Work iPhone")) == "Renamed 'iPhone · Safari' to 'Work iPhone'.")
        #expect(try list.apply(.forget("d")) == "Forgot 'iPhone · Firefox': it must scan the code again to pair.")
        #expect(throws: DeviceEditError.self) { try list.apply(.forget("")) }
    }

    /// Forget one or all; allow and deny apply only to waiting devices.
    @Test mutating func forgetAllowDeny() throws {
        #expect(throws: DeviceEditError.self) { try list.apply(.allow("iPhone · Safari")) }
        _ = try list.apply(.allow("Tablet"))
        #expect(list.device("c3")?.state == .allowed)
        _ = try list.apply(.forget("iPhone · Safari"))
        #expect(list.devices.map(\.id) == ["a1", "c3"])
        #expect(try list.apply(.forgetAll) == "Forgot 2 devices.")
        #expect(list.devices.isEmpty && list.forgottenKeys == ["y", "x"])
    }

    /// The table shows name, paired, last seen and whether each is connected; a waiting one
    /// shows the command that accepts it.
    @Test func table() {
        var shown = list
        shown.devices[0].paired = "2026-11-25T17:20:00Z"
        shown.devices[0].lastSeen = "2026-11-25T18:02:00Z"
        let lines = DeviceTable.lines(shown, connected: ["a1"], timeZone: TimeZone(identifier: "UTC") ?? .current)
        #expect(lines[0].hasPrefix("NAME") && lines[0].hasSuffix("CONNECTED"))
        #expect(lines[1].contains("2026-11-25 17:20") && lines[1].contains("2026-11-25 18:02") && lines[1].hasSuffix("yes"))
        #expect(lines[2].hasSuffix("no"))
        #expect(lines[3].hasSuffix("waits to pair: gesturepad devices allow 'Tablet'"))
        #expect(DeviceTable.lines(DeviceList(), connected: nil)[0].hasPrefix("No phone is paired"))
    }
}
