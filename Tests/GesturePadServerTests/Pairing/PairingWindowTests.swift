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

    /// One opening pairs at most `devicesPerWindow` new devices, then closes by itself: the
    /// next new device waits for it to open again (it is not refused), a paired device still
    /// connects with its key, and opening again pairs the one that waited.
    @Test func anOpeningPairsAHandfulThenWaits() {
        let seats = PairingSettings.defaultDevicesPerWindow
        var driver = DeskDriver()
        for connection in 1...seats {
            let actions = driver.open(connection, .pairing, name: "Phone \(connection)")
            #expect(actions.contains { if case .greet(connection, _) = $0 { true } else { false } }, "\(connection)")
        }
        #expect(!driver.desk.isOpen(at: driver.now) && driver.desk.windowFull)
        #expect(driver.desk.openUntil(now: driver.now) == nil)
        let late = seats + 1
        let held = driver.open(late, .pairing, name: "One more")
        #expect(held.contains { if case .hold(late, _, .pairingClosed) = $0 { true } else { false } })
        #expect(driver.desk.list.devices.filter { $0.state == .paired }.count == seats)
        #expect(driver.open(100, .device("id1")).first == .greet(100, DeviceGreeting(id: "id1", name: "Phone 1")))
        driver.now += 1_000
        let opened = driver.desk.openPairing(at: driver.time, fresh: Self.fresh)
        #expect(opened.contains { if case .admit(late, _) = $0 { true } else { false } })
        #expect(driver.desk.isOpen(at: driver.now) && !driver.desk.windowFull)
        #expect(driver.desk.list.devices.filter { $0.state == .paired }.count == seats + 1)
    }

    /// Opened with more devices waiting than it has seats, pairing pairs those that asked first
    /// and closes; the others go on waiting for the next opening.
    @Test func anOpeningPairsTheWaitingUpToItsSeats() {
        let seats = PairingSettings.defaultDevicesPerWindow
        var driver = DeskDriver()
        driver.now = window
        for connection in 1...(seats + 2) {
            driver.now += 1_000
            _ = driver.open(connection, .pairing, name: "Phone \(connection)")
        }
        #expect(driver.desk.waiting.count == seats + 2)
        let opened = driver.desk.openPairing(at: driver.time, fresh: Self.fresh)
        let admitted = opened.compactMap { action -> Int? in if case .admit(let c, _) = action { c } else { nil } }
        #expect(admitted == Array(1...seats))
        #expect(Set(driver.desk.waiting.keys) == [seats + 1, seats + 2])
        #expect(!driver.desk.isOpen(at: driver.now))
    }

    /// A phone connecting with its key, or the same outside client pairing again, takes no seat.
    @Test func whatAddsNoDeviceTakesNoSeat() {
        var driver = DeskDriver()
        _ = driver.open(1, .pairing, name: "Phone")
        for connection in 2...20 {
            _ = driver.open(connection, .device("id1"))
            _ = driver.desk.closed(connection, at: driver.time)
        }
        #expect(driver.desk.isOpen(at: driver.now))
        for connection in 30...40 {
            let fresh = driver.fresh()
            _ = driver.desk.opened(connection, as: .pairing, name: "client", at: driver.time, fresh: fresh, client: "cli")
            _ = driver.desk.closed(connection, at: driver.time)
        }
        #expect(driver.desk.isOpen(at: driver.now))
        #expect(driver.desk.list.devices.count == 2)
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
