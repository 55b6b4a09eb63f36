import FoundationEssentials
import GesturePadSettings
import GestureProtocol
import Testing

@testable import GesturePadServer

/// A browser paired from the observer page (`auth.kind` "observer") is an observer device:
/// named "Watching · …", kept as such in `devices.json`, listed with its kind, and its
/// connections may not be touchpads (4415).
@Suite struct ObserverPairingTests {
    let nonce = String(repeating: "A", count: 43)

    func parse(_ text: String) -> Result<ProofAnswer, ProofRefusal> { ProofAnswer.parse(Array(text.utf8)) }

    /// `kind` is "touchpad" or "observer" (absent or null: a touchpad); anything else is refused.
    @Test func theAnswerSaysWhatAPairingPairsAs() {
        let base = #"{"type":"auth","with":"secret","nonce":"\#(nonce)","proof":"\#(nonce)""#
        #expect((try? parse(base + "}").get())?.kind == .touchpad)
        #expect((try? parse(base + #","kind":null}"#).get())?.kind == .touchpad)
        #expect((try? parse(base + #","kind":"touchpad"}"#).get())?.kind == .touchpad)
        #expect((try? parse(base + #","kind":"observer","model":"Pixel 8"}"#).get())?.kind == .observer)
        guard case .failure(.malformed(let why)) = parse(base + #","kind":"watcher"}"#) else {
            Issue.record("an unknown kind was accepted")
            return
        }
        #expect(why.contains("kind"))
    }

    /// An observer's name says it watches, so that nobody takes it for a phone.
    @Test func anObserverIsNamedWatching() {
        let linuxChrome =
            "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
        #expect(DeviceName.make(userAgent: linuxChrome, model: nil, kind: .observer) == "Watching · Linux · Chrome")
        #expect(DeviceName.make(userAgent: linuxChrome, model: "", kind: .touchpad) == "Linux · Chrome")
    }

    /// The desk pairs it with its kind and its browser's digest; its greeting carries the kind
    /// (the session closes a touchpad `hello` of it); a reconnection is greeted the same.
    @Test func theDeskKeepsTheKind() {
        var driver = DeskDriver()
        var fresh = driver.fresh()
        fresh.told = false
        let actions = driver.desk.opened(
            1, as: .pairing, name: "Watching · Linux · Chrome", at: driver.time, fresh: fresh, kind: .observer,
            browser: "b1")
        let device = driver.desk.list.devices[0]
        #expect(device.kind == .observer && device.browserSHA256 == "b1" && device.name == "Watching · Linux · Chrome")
        #expect(
            actions == [
                .greet(1, DeviceGreeting(id: "id1", name: "Watching · Linux · Chrome", kind: .observer)),
                .announce(.paired(device)),
            ])
        _ = driver.desk.closed(1, at: driver.time)
        #expect(
            driver.desk.opened(2, as: .device("id1"), name: "", at: driver.time, fresh: driver.fresh()).first
                == .greet(2, DeviceGreeting(id: "id1", name: "Watching · Linux · Chrome", kind: .observer)))
    }

    /// `devices.json` keeps `kind`; an entry without it (an older file) is a touchpad, one with a
    /// kind this version does not know is an observer (the kind that may do least).
    @Test func theFileKeepsTheKind() throws {
        let observer = PairedDevice(
            id: "o1", name: "Watching · Linux · Chrome", state: .paired, keySHA256: "k", paired: "t0", kind: .observer,
            browserSHA256: "b")
        let list = DeviceList(devices: [observer])
        let text = String(decoding: list.encoded(), as: UTF8.self)
        #expect(text.contains(#""kind" : "observer""#) && text.contains(#""browserSHA256" : "b""#))
        #expect(DeviceList.decode(list.encoded()) == list)
        let older = #"{"version":1,"devices":[{"id":"p1","name":"Pixel","state":"paired","paired":"t0"}]}"#
        #expect(DeviceList.decode(Data(older.utf8))?.devices.first?.kind == .touchpad)
        let newer = #"{"version":1,"devices":[{"id":"p1","name":"P","state":"paired","paired":"t0","kind":"desk"}]}"#
        #expect(DeviceList.decode(Data(newer.utf8))?.devices.first?.kind == .observer)
    }

    /// `gesturepad devices` shows the kind of each device in a KIND column.
    @Test func theTableHasAKindColumn() {
        let list = DeviceList(devices: [
            PairedDevice(id: "p1", name: "Pixel 8 · Chrome", state: .paired, paired: "2026-11-25T17:20:00Z"),
            PairedDevice(
                id: "o1", name: "Watching · Linux · Chrome", state: .paired, paired: "2026-11-25T17:20:00Z", kind: .observer),
        ])
        let lines = DeviceTable.lines(list, connected: ["o1"], timeZone: TimeZone(identifier: "UTC") ?? .current)
        #expect(lines[0].split(separator: " ") == ["NAME", "KIND", "PAIRED", "LAST", "SEEN", "CONNECTED"])
        // The kind is in its own column, under KIND, on every row.
        let column = lines[0].distance(
            from: lines[0].startIndex, to: lines[0].firstRange(of: "KIND")?.lowerBound ?? lines[0].endIndex)
        #expect(lines[1].dropFirst(column).hasPrefix("touchpad  ") && lines[2].dropFirst(column).hasPrefix("observer  "))
        #expect(lines[2].hasPrefix("Watching · Linux · Chrome") && lines[2].hasSuffix("yes") && lines[1].hasSuffix("no"))
    }

    /// On the hub: a connection greeted as an observer's — also after a rename — is closed with
    /// 4415 by a touchpad `hello`, and gets no welcome; an observer `hello` of it is welcomed.
    @Test func theHubClosesATouchpadHelloOfAnObserver() {
        let harness = HubHarness()
        let pad = harness.open()
        harness.handle(.greet(pad, DeviceGreeting(id: "o1", name: "Watching · Linux · Chrome", kind: .observer)))
        harness.handle(.rename(pad, DeviceGreeting(id: "o1", name: "Den screen", kind: .observer), now: 1))
        harness.send(pad, HubHarness.touchpadHello)
        let drained = harness.drain(pad)
        #expect(drained.frames.isEmpty)
        guard case .close(pad, code: .observerOnly, _)? = drained.close else {
            Issue.record("not closed with 4415: \(String(describing: drained.close))")
            return
        }
        let watcher = harness.open()
        harness.handle(.greet(watcher, DeviceGreeting(id: "o1", name: "Den screen", kind: .observer)))
        harness.send(watcher, HubHarness.observerHello)
        let welcome = harness.drain(watcher)
        #expect(welcome.close == nil && welcome.frames.first?.contains(#""type":"welcome""#) == true)
    }
}
