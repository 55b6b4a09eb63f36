import GesturePadSettings
import GestureProtocol
import Testing

@testable import GesturePadServer

/// A browser that paired before pairs again (docs/server.md "The same browser pairing
/// again"): it takes its earlier entry over — same id, same (maybe given) name, a new key, the
/// earlier key forgotten — while that entry is of the same kind and not connected; otherwise it
/// gets an entry of its own. On the desk, on its virtual clock.
@Suite struct SameBrowserPairingTests {
    let browser = BrowserDigest.of(
        userAgent: "Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/120", model: "Pixel 8", address: "192.168.1.20")

    /// A proof pairing (its key derived, never told) of `browser` as `kind`, on `connection`.
    func pair(
        _ driver: inout DeskDriver, _ connection: Int, kind: DeviceKind = .touchpad, browser: String? = nil,
        name: String = "Pixel 8 · Chrome"
    ) -> [PairingAction] {
        var fresh = driver.fresh()
        fresh.told = false
        return driver.desk.opened(
            connection, as: .pairing, name: name, at: driver.time, fresh: fresh, kind: kind, browser: browser ?? self.browser)
    }

    func key(_ serial: Int) -> String {
        String(String(repeating: String(serial), count: DeviceKey.length).prefix(DeviceKey.length))
    }

    /// The second pairing takes the first entry over: one entry, its id and the name the user
    /// gave it, the second key; the first key is forgotten (its page is told it was removed,
    /// 4411), and the computer's user is told.
    @Test func theSameBrowserTakesItsEntryOver() throws {
        var driver = DeskDriver()
        _ = pair(&driver, 1)
        _ = driver.desk.closed(1, at: driver.time)
        _ = try driver.desk.rename("id1", to: "Kitchen phone")
        driver.now = 60_000
        let actions = pair(&driver, 2)
        #expect(driver.desk.list.devices.count == 1)
        let device = try #require(driver.desk.list.devices.first)
        #expect(device.id == "id1" && device.name == "Kitchen phone" && device.browserSHA256 == browser)
        #expect(device.paired == "t60000" && device.lastSeen == "t60000")
        #expect(actions == [.greet(2, DeviceGreeting(id: "id1", name: "Kitchen phone")), .announce(.replaced(device))])
        #expect(driver.desk.list.standing(ofKey: key(2)) == .paired("id1"))
        #expect(driver.desk.list.standing(ofKey: key(1)) == .forgotten)
        #expect(driver.desk.connectedDevices == ["id1"])
    }

    /// An entry with a connection open now is never taken: the second browser (two identical
    /// phones behind one address) gets an entry of its own, "(2)".
    @Test func aConnectedEntryIsNotTaken() {
        var driver = DeskDriver()
        _ = pair(&driver, 1)
        let actions = pair(&driver, 2)
        #expect(driver.desk.list.devices.map(\.name) == ["Pixel 8 · Chrome", "Pixel 8 · Chrome (2)"])
        #expect(actions.last == .announce(.paired(driver.desk.list.devices[1])))
        #expect(driver.desk.list.standing(ofKey: key(1)) == .paired("id1"))
        // Both not connected: a third pairing takes the first of them.
        _ = driver.desk.closed(1, at: driver.time)
        _ = driver.desk.closed(2, at: driver.time)
        _ = pair(&driver, 3)
        #expect(driver.desk.list.devices.count == 2 && driver.desk.list.standing(ofKey: key(3)) == .paired("id1"))
        #expect(driver.desk.list.standing(ofKey: key(2)) == .paired("id2"))
    }

    /// Another kind, another browser, an entry without a digest (a `?token=` client's, or one
    /// paired before digests were kept) or one still waiting: none is taken.
    @Test func onlyTheSameKindAndBrowser() {
        var driver = DeskDriver(devices: [DeskDriver.paired("old", "Pixel 8 · Chrome", key: "K")])
        _ = pair(&driver, 1, kind: .observer, name: "Watching · Pixel 8 · Chrome")
        _ = driver.desk.closed(1, at: driver.time)
        _ = pair(&driver, 2)
        _ = driver.desk.closed(2, at: driver.time)
        _ = pair(&driver, 3, browser: BrowserDigest.of(userAgent: "other", model: nil, address: "192.168.1.20"))
        _ = driver.desk.closed(3, at: driver.time)
        #expect(driver.desk.list.devices.map(\.id) == ["old", "id1", "id2", "id3"])
        #expect(driver.desk.list.devices.map(\.kind) == [.touchpad, .observer, .touchpad, .touchpad])
        // The observer's browser pairs again as an observer: its own entry, not the touchpad's.
        _ = pair(&driver, 4, kind: .observer)
        #expect(driver.desk.list.devices.count == 4 && driver.desk.list.standing(ofKey: key(4)) == .paired("id1"))
    }

    /// The digest is of the user agent, the page's model and the address: any of them differs,
    /// it is another browser.
    @Test func theDigestNamesUserAgentModelAndAddress() {
        let digests = Set([
            browser,
            BrowserDigest.of(
                userAgent: "Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/121", model: "Pixel 8", address: "192.168.1.20"),
            BrowserDigest.of(
                userAgent: "Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/120", model: "Pixel 9", address: "192.168.1.20"),
            BrowserDigest.of(
                userAgent: "Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/120", model: "Pixel 8", address: "192.168.1.21"),
            BrowserDigest.of(userAgent: "a", model: "b", address: "c"),
            BrowserDigest.of(userAgent: "ab", model: nil, address: "c"),
        ])
        #expect(digests.count == 6)
        #expect(
            browser.count == 64
                && browser
                    == BrowserDigest.of(
                        userAgent: "Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/120", model: "Pixel 8",
                        address: "192.168.1.20")
        )
        #expect(
            BrowserDigest.of(userAgent: "a", model: nil, address: "c")
                == BrowserDigest.of(userAgent: "a", model: "", address: "c"))
    }

    /// A full list still lets a known browser back in (it adds nothing).
    @Test func aFullListLetsItBackIn() {
        var driver = DeskDriver(
            devices: (1..<DeviceList.maxDevices).map { DeskDriver.paired("d\($0)", "Phone \($0)", key: "k\($0)") })
        _ = pair(&driver, 1)
        _ = driver.desk.closed(1, at: driver.time)
        #expect(driver.desk.list.devices.count == DeviceList.maxDevices)
        #expect(pair(&driver, 2).first == .greet(2, DeviceGreeting(id: "id1", name: "Pixel 8 · Chrome")))
        #expect(driver.desk.list.devices.count == DeviceList.maxDevices)
    }

    /// With `--confirm-pairing` the browser waits as a new device; allowed, it takes its earlier
    /// entry over (the waiting entry goes), and is admitted as that entry.
    @Test func allowedAfterWaitingItTakesItsEntryOver() {
        var driver = DeskDriver(confirm: true)
        _ = pair(&driver, 1)
        _ = driver.desk.allow("id1", key: "unused", at: driver.time)
        _ = driver.desk.closed(1, at: driver.time)
        let held = pair(&driver, 2)
        #expect(held.first == .hold(2, DeviceGreeting(id: "id2", name: "Pixel 8 · Chrome (2)"), .confirm))
        driver.now = 5_000
        let allowed = driver.desk.allow("id2", key: "unused", at: driver.time)
        #expect(driver.desk.list.devices.map(\.id) == ["id1"])
        let device = driver.desk.list.devices[0]
        #expect(
            allowed == [
                .admit(2, DeviceGreeting(id: "id1", name: "Pixel 8 · Chrome")), .withdraw(deviceID: "id2"),
                .announce(.replaced(device)),
            ])
        #expect(driver.desk.list.standing(ofKey: key(2)) == .paired("id1"))
        #expect(driver.desk.list.standing(ofKey: key(1)) == .forgotten)
    }

    /// Pairing closed: it waits, and once pairing opens it takes its entry over.
    @Test func whenPairingOpensItTakesItsEntryOver() {
        var driver = DeskDriver()
        _ = pair(&driver, 1)
        _ = driver.desk.closed(1, at: driver.time)
        driver.desk.closePairing()
        let held = pair(&driver, 2)
        #expect(held.first == .hold(2, DeviceGreeting(id: "id2", name: "Pixel 8 · Chrome (2)"), .pairingClosed))
        driver.now = 9_000
        let opened = driver.desk.openPairing(at: driver.time, fresh: { FreshDevice(id: "x", key: "x") })
        #expect(opened.first == .admit(2, DeviceGreeting(id: "id1", name: "Pixel 8 · Chrome")))
        #expect(driver.desk.list.devices.map(\.id) == ["id1"])
        #expect(driver.desk.list.standing(ofKey: key(2)) == .paired("id1"))
    }
}
