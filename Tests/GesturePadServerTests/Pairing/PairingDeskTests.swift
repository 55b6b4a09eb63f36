import GesturePadSettings
import GestureProtocol
import Testing

@testable import GesturePadServer

/// Drives a desk on a virtual clock with chosen ids and keys.
struct DeskDriver {
    var desk: PairingDesk
    var now = 0.0
    var serial = 0

    init(confirm: Bool = false, timeout: Double = 30_000, devices: [PairedDevice] = []) {
        desk = PairingDesk(
            settings: PairingSettings(confirm: confirm, timeoutMilliseconds: timeout), list: DeviceList(devices: devices))
        // The server opens pairing as it starts (its banner shows the code).
        _ = desk.openPairing(at: PairingTime(now: 0, stamp: "t0"), fresh: { FreshDevice(id: "unused", key: "unused") })
    }

    var time: PairingTime { PairingTime(now: now, stamp: "t\(Int(now))") }

    mutating func fresh() -> FreshDevice {
        serial += 1
        let digits = String(serial)
        let key = String(String(repeating: digits, count: DeviceKey.length).prefix(DeviceKey.length))
        return FreshDevice(id: "id\(serial)", key: key)
    }

    mutating func open(_ connection: Int, _ admission: Admission, name: String = "Pixel 8 · Chrome") -> [PairingAction] {
        let fresh = fresh()
        return desk.opened(connection, as: admission, name: name, at: time, fresh: fresh)
    }

    static func paired(_ id: String, _ name: String, key: String) -> PairedDevice {
        PairedDevice(id: id, name: name, state: .paired, keySHA256: DeviceKey.digest(key), paired: "t0")
    }
}

@Suite struct PairingDeskTests {
    let keyA = String(repeating: "A", count: DeviceKey.length)

    /// The secret pairs a new device: its key goes to the page once, only its digest is kept,
    /// and the user is told.
    @Test func pairingHandsTheKeyOnce() {
        var driver = DeskDriver()
        let actions = driver.open(1, .pairing)
        let key = String(repeating: "1", count: DeviceKey.length)
        let device = driver.desk.list.devices[0]
        #expect(
            actions == [.greet(1, DeviceGreeting(id: "id1", name: "Pixel 8 · Chrome", key: key)), .announce(.paired(device))])
        #expect(device.keySHA256 == DeviceKey.digest(key) && device.state == .paired && device.paired == "t0")
        #expect(driver.desk.list.pairedID(forKey: key) == "id1")
        #expect(driver.desk.connectedDevices == ["id1"])
    }

    /// A known key is greeted without a key; "connected" is said only for a device's first connection.
    @Test func knownDeviceReconnects() {
        var driver = DeskDriver(devices: [DeskDriver.paired("d1", "Phone", key: keyA)])
        driver.now = 5_000
        let first = driver.open(1, .device("d1"))
        let second = driver.open(2, .device("d1"))
        let greeting = DeviceGreeting(id: "d1", name: "Phone")
        #expect(first.first == .greet(1, greeting) && first.count == 2)
        #expect(second == [.greet(2, greeting)])
        #expect(driver.desk.list.device("d1")?.lastSeen == "t5000")
        driver.now = 9_000
        #expect(driver.desk.closed(1, at: driver.time).isEmpty)
        #expect(driver.desk.list.device("d1")?.lastSeen == "t9000")
    }

    /// Names stay unique: a second phone of the same kind is "(2)".
    @Test func uniqueNames() {
        var driver = DeskDriver()
        _ = driver.open(1, .pairing)
        _ = driver.open(2, .pairing)
        #expect(driver.desk.list.devices.map(\.name) == ["Pixel 8 · Chrome", "Pixel 8 · Chrome (2)"])
    }

    /// Forgetting closes every connection of the device with 4403; its key is forgotten (the
    /// handshake refuses it) and a connection admitted before that is closed too.
    @Test func forgetClosesWith4403() {
        var driver = DeskDriver(devices: [DeskDriver.paired("d1", "Phone", key: keyA)])
        _ = driver.open(1, .device("d1"))
        _ = driver.open(2, .device("d1"))
        let actions = driver.desk.forget("d1", by: .computer)
        #expect(actions.first == .close([1, 2], code: .deviceNotPaired, reason: ForgetCause.computer.closeReason))
        #expect(driver.desk.list.standing(ofKey: keyA) == .forgotten)
        #expect(driver.desk.connectedDevices.isEmpty)
        #expect(
            driver.open(3, .device("d1")) == [
                .close([3], code: .deviceNotPaired, reason: ForgetCause.computer.closeReason)
            ])
    }

    /// The page's unpair forgets its own device, with the phone's reason.
    @Test func unpairFromThePhone() {
        var driver = DeskDriver(devices: [DeskDriver.paired("d1", "Phone", key: keyA)])
        _ = driver.open(7, .device("d1"))
        let actions = driver.desk.unpair(7)
        #expect(actions.first == .close([7], code: .deviceNotPaired, reason: ForgetCause.phone.closeReason))
        #expect(driver.desk.list.devices.isEmpty && driver.desk.list.standing(ofKey: keyA) == .forgotten)
    }

    /// With confirmation a new device waits, keyless, until allowed; then it gets its key.
    @Test func confirmThenAllow() {
        var driver = DeskDriver(confirm: true)
        let held = driver.open(1, .pairing)
        #expect(held.first == .hold(1, DeviceGreeting(id: "id1", name: "Pixel 8 · Chrome"), .confirm))
        #expect(driver.desk.list.devices[0].state == .waiting && driver.desk.list.devices[0].keySHA256 == nil)
        #expect(driver.desk.nextDeadline == 30_000)
        let key = String(repeating: "Z", count: DeviceKey.length)
        driver.now = 1_000
        let admitted = driver.desk.allow("id1", key: key, at: driver.time)
        #expect(admitted.first == .admit(1, DeviceGreeting(id: "id1", name: "Pixel 8 · Chrome", key: key)))
        #expect(driver.desk.list.pairedID(forKey: key) == "id1")
        #expect(driver.desk.nextDeadline == nil)
    }

    /// Denied, the waiting device is refused with 4401 and leaves the list.
    @Test func confirmThenDeny() {
        var driver = DeskDriver(confirm: true)
        _ = driver.open(1, .pairing)
        let actions = driver.desk.deny("id1", reason: "was declined on the computer")
        #expect(
            actions.first
                == .close([1], code: .pairingDeclined, reason: "pairing was declined on the computer: reload to ask again"))
        #expect(driver.desk.list.devices.isEmpty && driver.desk.waiting.isEmpty)
    }

    /// Time is an input: nothing expires a millisecond before the deadline; at it, the device is refused.
    @Test func confirmTimesOut() {
        var driver = DeskDriver(confirm: true, timeout: 2_000)
        driver.now = 100
        _ = driver.open(1, .pairing)
        driver.now = 2_099
        #expect(driver.desk.expire(at: driver.time).isEmpty)
        driver.now = 2_100
        let actions = driver.desk.expire(at: driver.time)
        #expect(
            actions.first
                == .close(
                    [1], code: .pairingDeclined,
                    reason: "pairing was not accepted on the computer within 2 s: reload to ask again"))
        #expect(driver.desk.list.devices.isEmpty && driver.desk.nextDeadline == nil)
    }

    /// A waiting device whose page goes away is dropped, and its notification withdrawn.
    @Test func waitingPageGone() {
        var driver = DeskDriver(confirm: true)
        _ = driver.open(1, .pairing)
        let actions = driver.desk.closed(1, at: driver.time)
        #expect(actions.first == .withdraw(deviceID: "id1"))
        #expect(driver.desk.list.devices.isEmpty)
    }

    /// The file edited elsewhere: a forgotten device loses its connections, a waiting one
    /// allowed is admitted, one removed is declined.
    @Test func reloadActsOnTheDifference() {
        var driver = DeskDriver(confirm: true, devices: [DeskDriver.paired("d1", "Phone", key: keyA)])
        _ = driver.open(1, .device("d1"))
        _ = driver.open(2, .pairing)
        _ = driver.open(3, .pairing, name: "Tablet")
        var file = driver.desk.list
        file.remove("d1")
        file.update("id2") { $0.state = .allowed }
        file.remove("id3")
        let key = String(repeating: "Q", count: DeviceKey.length)
        let actions = driver.desk.reload(file, at: driver.time) { FreshDevice(id: "unused", key: key) }
        #expect(actions.contains(.close([1], code: .deviceNotPaired, reason: ForgetCause.computer.closeReason)))
        #expect(actions.contains(.admit(2, DeviceGreeting(id: "id2", name: "Pixel 8 · Chrome", key: key))))
        #expect(
            actions.contains(
                .close([3], code: .pairingDeclined, reason: "pairing was declined on the computer: reload to ask again")))
        #expect(driver.desk.list.devices.map(\.id) == ["id2"])
        #expect(driver.desk.list.pairedID(forKey: key) == "id2")
    }

    /// A connected device renamed in the file (`gesturepad devices rename`): each of its
    /// connections is told its new name; a device not connected, or not renamed, says nothing.
    @Test func reloadTellsARename() {
        var driver = DeskDriver(
            devices: [DeskDriver.paired("d1", "Phone", key: keyA), DeskDriver.paired("d2", "Tablet", key: "B")])
        _ = driver.open(1, .device("d1"))
        _ = driver.open(2, .device("d1"))
        var file = driver.desk.list
        file.update("d1") { $0.name = "Kitchen" }
        file.update("d2") { $0.name = "Hall" }
        let actions = driver.desk.reload(file, at: driver.time) { FreshDevice(id: "unused", key: "unused") }
        #expect(actions == [.rename([1, 2], DeviceGreeting(id: "d1", name: "Kitchen"))])
        #expect(driver.desk.reload(file, at: driver.time) { FreshDevice(id: "unused", key: "unused") }.isEmpty)
    }

    /// A restart drops the requests a previous run left waiting.
    @Test func staleRequestsDropped() {
        let stale = PairedDevice(id: "w", name: "Old", state: .waiting, paired: "t0")
        let desk = PairingDesk(settings: PairingSettings(), list: DeviceList(devices: [stale]))
        #expect(desk.list.devices.isEmpty)
    }
}
