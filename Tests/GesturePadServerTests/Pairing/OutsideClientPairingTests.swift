import GesturePadSettings
import GestureProtocol
import Testing

@testable import GesturePadServer

/// `?token=SECRET` pairings of outside clients (docs/server.md "Outside clients and the device
/// list"): the same client takes its earlier entry again; a phone's entry is never taken.
@Suite struct OutsideClientPairingTests {
    let agent = "render-bot/2.1"

    /// Opens connection `connection` as a `?token=` pairing of `client` (its key is told).
    func tokenPairing(_ driver: inout DeskDriver, _ connection: Int, client: String?) -> [PairingAction] {
        let fresh = driver.fresh()
        return driver.desk.opened(
            connection, as: .pairing, name: "Device · Browser", at: driver.time, fresh: fresh, client: client)
    }

    /// The second pairing of the same client keeps one entry (its id, name and pairing time),
    /// with the second key; the first key opens nothing any more.
    @Test func theSameClientTakesItsEntryAgain() {
        var driver = DeskDriver()
        _ = tokenPairing(&driver, 1, client: agent)
        _ = driver.desk.closed(1, at: driver.time)
        driver.now = 1_000
        let actions = tokenPairing(&driver, 2, client: agent)
        let second = String(repeating: "2", count: DeviceKey.length)
        #expect(driver.desk.list.devices.count == 1)
        let device = driver.desk.list.devices[0]
        #expect(device.id == "id1" && device.tokenClient == agent && device.paired == "t0" && device.lastSeen == "t1000")
        #expect(
            actions == [
                .greet(2, DeviceGreeting(id: "id1", name: "Device · Browser", key: second)), .announce(.repaired(device)),
            ])
        #expect(driver.desk.list.pairedID(forKey: second) == "id1")
        #expect(driver.desk.list.pairedID(forKey: String(repeating: "1", count: DeviceKey.length)) == nil)
    }

    /// An entry without the mark — a phone's, paired by proof or from an older file — is never
    /// taken, even under the same name; another client gets an entry of its own.
    @Test func aPhonesEntryAndAnotherClientsAreNeverTaken() {
        let keyA = String(repeating: "A", count: DeviceKey.length)
        var driver = DeskDriver(devices: [DeskDriver.paired("phone", "Device · Browser", key: keyA)])
        _ = tokenPairing(&driver, 1, client: agent)
        _ = tokenPairing(&driver, 2, client: "other-bot/1")
        #expect(driver.desk.list.devices.map(\.id) == ["phone", "id1", "id2"])
        #expect(driver.desk.list.device("phone") == DeskDriver.paired("phone", "Device · Browser", key: keyA))
        // A pairing whose key is not told (the proof handshake's) marks nothing, takes nothing.
        var proof = driver.fresh()
        proof.told = false
        _ = driver.desk.opened(3, as: .pairing, name: "Device · Browser", at: driver.time, fresh: proof, client: agent)
        #expect(driver.desk.list.devices.count == 4 && driver.desk.list.devices[3].tokenClient == nil)
    }

    /// A full list still lets a known client back in (it adds nothing); pairing closed or
    /// `--confirm-pairing` are not bypassed.
    @Test func limitsWindowAndConfirmation() {
        var full = DeskDriver(
            devices: [PairedDevice(id: "c", name: "Bot", state: .paired, keySHA256: "x", paired: "t0", tokenClient: agent)]
                + (1..<DeviceList.maxDevices).map { DeskDriver.paired("d\($0)", "Phone \($0)", key: "k\($0)") })
        #expect(
            tokenPairing(&full, 1, client: agent).first
                == .greet(1, DeviceGreeting(id: "c", name: "Bot", key: String(repeating: "1", count: DeviceKey.length))))
        #expect(full.desk.list.devices.count == DeviceList.maxDevices)

        full.desk.closePairing()
        #expect(tokenPairing(&full, 2, client: agent).first?.isClose == true)

        var confirm = DeskDriver(confirm: true)
        _ = tokenPairing(&confirm, 1, client: agent)
        _ = confirm.desk.allow("id1", key: "K", at: confirm.time)
        let again = tokenPairing(&confirm, 2, client: agent)
        #expect(again.first == .hold(2, DeviceGreeting(id: "id2", name: "Device · Browser (2)"), .confirm))
    }
}

extension PairingAction {
    fileprivate var isClose: Bool {
        if case .close = self { return true }
        return false
    }
}
