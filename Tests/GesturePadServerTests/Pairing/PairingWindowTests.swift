import GesturePadSettings
import GestureProtocol
import Testing

@testable import GesturePadServer

/// Pairing is a moment (docs/server.md "Pairing is a moment"): the secret pairs while the window
/// opened by showing the code lasts, `gesturepad pair` opens it again and `--close` closes it,
/// a derived key is never told, and the number of devices is capped — on a virtual clock.
@Suite struct PairingWindowTests {
    let window = PairingSettings.defaultWindowSeconds * 1_000

    static func fresh() -> FreshDevice { FreshDevice(id: DeviceKey.randomID(), key: DeviceKey.random()) }

    @Test func theSecretPairsOnlyWhileTheWindowLasts() {
        var driver = DeskDriver()
        driver.now = window - 1
        #expect(driver.desk.isOpen(at: driver.now))
        #expect(driver.open(1, .pairing).contains { if case .greet = $0 { true } else { false } })
        driver.now = window
        #expect(!driver.desk.isOpen(at: driver.now))
        // The right secret while pairing is closed waits for it to open (nothing paired yet).
        let held = driver.open(2, .pairing)
        #expect(held.contains { if case .hold(2, _, .pairingClosed) = $0 { true } else { false } })
        #expect(driver.desk.list.devices.filter { $0.state == .paired }.count == 1)
        // A paired device still connects with its key.
        #expect(driver.open(3, .device("id1")).first == .greet(3, DeviceGreeting(id: "id1", name: "Pixel 8 · Chrome")))
    }

    @Test func gesturepadPairOpensAgainAndCloses() {
        var driver = DeskDriver()
        driver.now = window + 60_000
        var file = driver.desk.list
        file.pairingRequest = .next(after: file.pairingRequest, open: true)
        _ = driver.desk.reload(file, at: driver.time, fresh: Self.fresh)
        #expect(driver.desk.isOpen(at: driver.now) && driver.desk.isOpen(at: driver.now + window - 1))
        #expect(!driver.desk.isOpen(at: driver.now + window))
        // The same request read again (another change to the file) opens nothing anew.
        driver.now += window
        _ = driver.desk.reload(file, at: driver.time, fresh: Self.fresh)
        #expect(!driver.desk.isOpen(at: driver.now))
        file.pairingRequest = .next(after: file.pairingRequest, open: true)
        _ = driver.desk.reload(file, at: driver.time, fresh: Self.fresh)
        #expect(driver.desk.isOpen(at: driver.now))
        file.pairingRequest = .next(after: file.pairingRequest, open: false)
        _ = driver.desk.reload(file, at: driver.time, fresh: Self.fresh)
        #expect(!driver.desk.isOpen(at: driver.now))
    }

    @Test func aRequestLeftInTheFileDoesNotReopenOnStart() {
        var list = DeviceList()
        list.pairingRequest = PairingRequest(serial: 4, open: true)
        var desk = PairingDesk(settings: PairingSettings(), list: list)
        #expect(!desk.isOpen(at: 0))
        _ = desk.reload(list, at: PairingTime(now: 1, stamp: "t"), fresh: { FreshDevice(id: "x", key: "k") })
        #expect(!desk.isOpen(at: 1))
    }

    @Test func confirmedPairingIsNotLimitedByTheWindow() {
        var driver = DeskDriver(confirm: true)
        driver.now = window * 10
        let actions = driver.open(1, .pairing)
        #expect(actions.contains { if case .hold = $0 { true } else { false } })
    }

    @Test func aDerivedKeyIsKeptAsADigestAndNeverTold() {
        var driver = DeskDriver()
        let derived = DeviceKey.random()
        let actions = driver.desk.opened(
            1, as: .pairing, name: "Pixel", at: driver.time, fresh: FreshDevice(id: "n1", key: derived, told: false))
        #expect(actions.first == .greet(1, DeviceGreeting(id: "n1", name: "Pixel")))
        #expect(driver.desk.list.standing(ofKey: derived) == .paired("n1"))
        // Allowed later (--confirm-pairing), the device gets the derived key, still untold.
        var confirm = DeskDriver(confirm: true)
        _ = confirm.desk.opened(
            2, as: .pairing, name: "Pixel", at: confirm.time, fresh: FreshDevice(id: "n2", key: derived, told: false))
        let admitted = confirm.desk.allow("n2", key: DeviceKey.random(), at: confirm.time)
        #expect(admitted.first == .admit(2, DeviceGreeting(id: "n2", name: "Pixel")))
        #expect(confirm.desk.list.standing(ofKey: derived) == .paired("n2"))
    }

    @Test func theNumberOfDevicesIsCapped() {
        let full = (0..<DeviceList.maxDevices).map { DeskDriver.paired("d\($0)", "Phone \($0)", key: DeviceKey.random()) }
        var driver = DeskDriver(devices: full)
        let refused = driver.open(1, .pairing)
        #expect(refused.count == 1 && refused.first.map(isClose(.deviceLimit)) == true)
        #expect(driver.desk.list.devices.count == DeviceList.maxDevices)
        _ = driver.desk.forget("d0", by: .computer)
        #expect(driver.open(2, .pairing).contains { if case .greet = $0 { true } else { false } })
    }

    func isClose(_ code: CloseCode) -> (PairingAction) -> Bool {
        { action in
            if case .close(_, let actual, _) = action { actual == code } else { false }
        }
    }
}
