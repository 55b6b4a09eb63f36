import GesturePadSettings
import GestureProtocol
import Testing

@testable import GesturePadServer

/// A phone that proves the pairing secret while pairing is closed waits for it to open (issue
/// 42, docs/server.md "Pairing that waits"), on a virtual clock: it pairs the moment pairing
/// opens, or is allowed by name; it is refused with 4412 when pairing stays closed, and only
/// `PairingDesk.closedWaitLimit` wait at once.
@Suite struct PairingWaitsTests {
    let window = PairingSettings.defaultWindowSeconds * 1_000

    /// A desk whose start-up window has passed.
    func closedDesk() -> DeskDriver {
        var driver = DeskDriver()
        driver.now = window + 1
        return driver
    }

    func holds(_ actions: [PairingAction], _ connection: Int, _ wait: PairingWait) -> Bool {
        actions.contains { if case .hold(connection, _, wait) = $0 { true } else { false } }
    }

    @Test func aPhoneWaitsAndPairsWhenPairingOpens() {
        var driver = closedDesk()
        let derived = DeviceKey.random()
        let held = driver.desk.opened(
            7, as: .pairing, name: "Pixel 8 · Chrome", at: driver.time, fresh: FreshDevice(id: "p1", key: derived, told: false),
            from: "192.168.1.40")
        #expect(holds(held, 7, .pairingClosed))
        // The computer's user is told where the phone connects from, with the name it claims.
        let announced = held.contains { action in
            guard case .announce(.waitingForPairing(_, seconds: 600, from: let address)) = action else { return false }
            return address == "192.168.1.40"
        }
        #expect(announced)
        #expect(driver.desk.list.standing(ofKey: derived) != .paired("p1"))
        #expect(driver.desk.nextDeadline == driver.now + 600_000)
        // Pairing opens a minute later (the desktop page's button, gesturepad pair).
        driver.now += 60_000
        let opened = driver.desk.openPairing(at: driver.time, fresh: { FreshDevice(id: "x", key: DeviceKey.random()) })
        #expect(opened.first == .admit(7, DeviceGreeting(id: "p1", name: "Pixel 8 · Chrome")))
        #expect(opened.contains { if case .announce(.paired(let device)) = $0 { device.id == "p1" } else { false } })
        #expect(driver.desk.list.standing(ofKey: derived) == .paired("p1"))
        #expect(driver.desk.waiting.isEmpty && driver.desk.nextDeadline == nil)
    }

    @Test func gesturepadPairInTheFileAdmitsTheWaitingPhone() {
        var driver = closedDesk()
        _ = driver.open(3, .pairing)
        var file = driver.desk.list
        file.pairingRequest = .next(after: file.pairingRequest, open: true)
        let actions = driver.desk.reload(file, at: driver.time, fresh: { FreshDevice(id: "x", key: DeviceKey.random()) })
        #expect(actions.contains { if case .admit(3, _) = $0 { true } else { false } })
        #expect(driver.desk.connections[3] == "id1")
    }

    @Test func theNotificationsPairButtonPairsThatPhoneOnly() {
        var driver = closedDesk()
        _ = driver.open(1, .pairing, name: "Pixel")
        _ = driver.open(2, .pairing, name: "iPhone")
        let allowed = driver.desk.allow("id2", key: DeviceKey.random(), at: driver.time)
        #expect(allowed.first.map { if case .admit(2, _) = $0 { true } else { false } } == true)
        #expect(!driver.desk.isOpen(at: driver.now))
        #expect(driver.desk.waiting.keys.sorted() == [1])
    }

    @Test func pairingThatStaysClosedRefusesWith4412() {
        var driver = closedDesk()
        _ = driver.open(1, .pairing)
        driver.now += 600_000 - 1
        #expect(driver.desk.expire(at: driver.time).isEmpty)
        driver.now += 1
        let expired = driver.desk.expire(at: driver.time)
        #expect(expired.first == .close([1], code: .pairingClosed, reason: PairingDesk.closedReason))
        #expect(driver.desk.list.devices.isEmpty && driver.desk.waiting.isEmpty)
    }

    @Test func onlySoManyWaitAtOnce() {
        var driver = closedDesk()
        for connection in 0..<PairingDesk.closedWaitLimit {
            #expect(holds(driver.open(connection, .pairing), connection, .pairingClosed))
        }
        let refused = driver.open(99, .pairing)
        #expect(refused == [.close([99], code: .pairingClosed, reason: PairingDesk.closedReason)])
        // A phone whose page went away makes room.
        _ = driver.desk.closed(0, at: driver.time)
        #expect(holds(driver.open(100, .pairing), 100, .pairingClosed))
    }

    @Test func withConfirmPairingTheUserIsAskedInstead() {
        var driver = DeskDriver(confirm: true)
        driver.now = window * 3
        #expect(holds(driver.open(1, .pairing), 1, .confirm))
    }
}

/// What the desktop notification says of a device that waits (`--confirm-pairing`, or pairing
/// closed): the name is the device's own claim, and where it connects from is shown.
@Suite struct WaitingClaimTests {
    @Test func theNotificationNamesTheClaimAndTheAddress() {
        let device = PairedDevice(id: "p1", name: "Pixel 8 · Chrome", state: .waiting, paired: "t")
        #expect(
            PairingAnnouncer.claim(device, from: "192.168.1.40")
                == "It calls itself \u{201C}Pixel 8 · Chrome\u{201D} and connects from 192.168.1.40.")
        #expect(PairingAnnouncer.claim(device, from: "127.0.0.1").hasSuffix("connects from this computer."))
        #expect(PairingAnnouncer.origin("10.0.0.2") == " from 10.0.0.2" && PairingAnnouncer.origin(nil).isEmpty)
    }
}
