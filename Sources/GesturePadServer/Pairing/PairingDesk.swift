import GesturePadSettings
import GestureProtocol

/// The pairing decisions, as a state machine: the device list (what `devices.json` holds), which
/// open connection is which device's, and the new devices that wait for the computer's user.
/// Pure: no file, no clock, no randomness — time, fresh keys and the file's contents come in;
/// `PairingAction`s go out (docs/server.md "Pairing"). `PairingService` is its shell.
///
///     (secret) ──opened──▶ paired ◀──allow── waiting ──deny / expire / page gone──▶ (refused 4401)
///                            │                  ▲      (pairing closed: 4412 when it expires)
///      (key) ──opened────────┤      (secret, --confirm-pairing; or pairing closed: then
///                            │       pairing opening allows it)
///                            └──forget / unpair / file edited──▶ (gone: its connections 4403,
///                                                                  its key refused 403 from then on)
struct PairingDesk: Sendable {
    /// A waiting device (as it asked) and its deadline (server clock, ms).
    struct Request: Sendable, Hashable {
        var device: PairedDevice
        var deadline: Double
        /// The credential the proof handshake gave (a derived key, or the phone's public key),
        /// which the device gets once allowed (nil: a fresh key is drawn then, and told to the page).
        var derived: DeviceCredential? = nil
        /// It proved the pairing secret while pairing was closed: it waits for pairing to open
        /// (or to be allowed by name), not for `--confirm-pairing`'s answer.
        var untilOpen = false
    }

    /// At most this many devices wait for pairing to open at once; one more is refused with
    /// 4412 as before (a leaked link cannot hold connections open without bound).
    static let closedWaitLimit = 8

    let settings: PairingSettings
    /// The devices, as last read from or written to `devices.json`, with this desk's changes.
    private(set) var list: DeviceList
    /// Connections of paired devices: connection id → device id.
    private(set) var connections: [Int: String] = [:]
    /// Connections of devices waiting for the computer's user.
    private(set) var waiting: [Int: Request] = [:]
    /// When the pairing secret pairs a new device without asking.
    private var window: PairingWindow
    /// The serial of the last `gesturepad pair` request taken in.
    private var seenRequest: Int?

    /// A desk over `list`; requests a previous run left waiting are dropped (their pages are gone).
    init(settings: PairingSettings, list: DeviceList) {
        self.settings = settings
        self.list = list
        window = PairingWindow(length: settings.windowMilliseconds, seats: settings.devicesPerWindow)
        self.list.devices.removeAll { $0.state != .paired }
        seenRequest = list.pairingRequest?.serial
    }

    /// Whether the pairing secret pairs a new device at `now`: while the window opened by the
    /// code being shown lasts and has seats, or always when the computer's user confirms each one.
    func isOpen(at now: Double) -> Bool {
        settings.confirm || window.isOpen(at: now)
    }

    /// The code was shown (the server started, `gesturepad pair`, the desktop page): pairing
    /// opens for `settings.windowMilliseconds` from `time`, and the devices that waited for it
    /// are paired now, as many as the window has seats (in the order they asked; with `fresh`'s
    /// keys where none was derived) — the rest go on waiting for the next opening.
    mutating func openPairing(at time: PairingTime, fresh: () -> FreshDevice) -> [PairingAction] {
        window.open(at: time.now)
        let waited = waiting.values.filter(\.untilOpen).map(\.device).sorted {
            ($0.paired ?? "", $0.id) < ($1.paired ?? "", $1.id)
        }
        var actions: [PairingAction] = []
        for device in waited where window.isOpen(at: time.now) {
            actions += allow(device.id, key: fresh().key, at: time)
            window.take()
        }
        return actions
    }

    /// Until when pairing stays open (server clock, ms), if it is open at `now` and
    /// `--confirm-pairing` is off (with it, pairing never closes).
    func openUntil(now: Double) -> Double? {
        guard !settings.confirm, window.isOpen(at: now) else { return nil }
        return window.until
    }

    /// Pairing closed by itself: this opening paired as many new devices as it may.
    var windowFull: Bool { !settings.confirm && window.isFull }

    /// Pairing closes now (`gesturepad pair --close`).
    mutating func closePairing() {
        window.close()
    }

    /// The ids of the devices with a connection open now.
    var connectedDevices: Set<String> { Set(connections.values) }

    /// When the next waiting device runs out of time (server clock, ms).
    var nextDeadline: Double? { waiting.values.map(\.deadline).min() }

    /// Connection `connection` was admitted as `admission`; `name` names a new device,
    /// `fresh` its id and key (told to the page, or derived by both sides and never sent),
    /// `kind` what it pairs as.
    /// `client` is who an outside client pairing with `?token=SECRET` is (`DeviceName.client`):
    /// the entry such a pairing made before for the same client is taken again. `browser` is
    /// who a page pairing with the proof handshake is (`BrowserDigest`): the entry the same
    /// browser paired before as the same kind is taken over while it is not connected.
    /// `address`: where the connection comes from, shown to the computer's user with the name
    /// of a device that waits.
    mutating func opened(
        _ connection: Int, as admission: Admission, name: String, at time: PairingTime, fresh: FreshDevice,
        client: String? = nil, kind: DeviceKind = .touchpad, browser: String? = nil, from address: String? = nil
    ) -> [PairingAction] {
        switch admission {
        case .open, .proving:
            return []
        case .device(let id):
            // Forgotten between its handshake and now (the handshake refuses it from then on).
            guard let device = list.device(id), device.state == .paired else {
                return [.close([connection], code: .deviceNotPaired, reason: ForgetCause.computer.closeReason)]
            }
            let first = !connections.values.contains(id)
            connections[connection] = id
            list.update(id) { $0.lastSeen = time.stamp }
            var actions: [PairingAction] = [.greet(connection, device.greeting())]
            if first { actions.append(.announce(.connected(device))) }
            return actions
        case .pairing:
            let open = isOpen(at: time.now)
            guard open || waiting.values.filter(\.untilOpen).count < Self.closedWaitLimit else {
                return [.close([connection], code: .pairingClosed, reason: Self.closedReason)]
            }
            // A key told in `welcome` means `?token=`: never a phone's page, which proves.
            let client = fresh.told ? client : nil
            if let client, open, !settings.confirm, let earlier = tokenEntry(of: client) {
                return repair(earlier, connection: connection, key: fresh.key, at: time)
            }
            if let browser, open, !settings.confirm, let earlier = sameBrowser(browser, kind: kind) {
                let device = takeOver(earlier, connection: connection, credential: fresh.credential, at: time)
                return [.greet(connection, device.greeting(key: fresh.credential.toldKey)), .announce(.replaced(device))]
            }
            guard list.devices.count < DeviceList.maxDevices else {
                return [
                    .close(
                        [connection], code: .deviceLimit,
                        reason: "\(DeviceList.maxDevices) phones are paired, the most: forget one (gesturepad devices forget)")
                ]
            }
            var device = PairedDevice(
                id: fresh.id, name: list.uniqueName(name), state: .paired, paired: time.stamp, lastSeen: time.stamp,
                tokenClient: client, kind: kind, browserSHA256: browser)
            guard settings.confirm || !open else {
                device.adopt(fresh.credential)
                list.devices.append(device)
                connections[connection] = device.id
                window.take()
                return [.greet(connection, device.greeting(key: fresh.credential.toldKey)), .announce(.paired(device))]
            }
            // It waits: for the computer's user (--confirm-pairing), or for pairing to open.
            let untilOpen = !open
            let wait = untilOpen ? settings.closedWaitMilliseconds : settings.timeoutMilliseconds
            device.state = .waiting
            device.lastSeen = nil
            list.devices.append(device)
            waiting[connection] = Request(
                device: device, deadline: time.now + wait, derived: fresh.credential.toldKey == nil ? fresh.credential : nil,
                untilOpen: untilOpen)
            let seconds = Int((wait / 1_000).rounded(.up))
            guard untilOpen else {
                return [
                    .hold(connection, device.greeting(), .confirm),
                    .announce(.waiting(device, seconds: seconds, from: address)),
                ]
            }
            return [
                .hold(connection, device.greeting(), .pairingClosed),
                .announce(.waitingForPairing(device, seconds: seconds, from: address)),
            ]
        }
    }

    /// Why a device that proved the secret while pairing is closed is refused (4412): the
    /// waiting room is full, or pairing stayed closed while it waited.
    static let closedReason = "pairing is closed: open it on the computer (GesturePad's window, or gesturepad pair)"

    /// Connection `connection` closed: its device was last seen now; a waiting device whose
    /// page went away stops waiting.
    mutating func closed(_ connection: Int, at time: PairingTime) -> [PairingAction] {
        if let id = connections.removeValue(forKey: connection) {
            list.update(id) { $0.lastSeen = time.stamp }
            return []
        }
        guard let request = waiting.removeValue(forKey: connection) else { return [] }
        list.remove(request.device.id)
        return [.withdraw(deviceID: request.device.id), .announce(.declined(request.device, reason: "its page went away"))]
    }

    /// Paired device `id` proved a move ticket, or its old shared key together with a key pair
    /// made on the phone: `credential` proves it from now on (what it proved before opens nothing
    /// any more). Its name, id and times stay.
    mutating func rekey(_ id: String, to credential: DeviceCredential) {
        list.update(id) { $0.adopt(credential) }
    }

    /// The computer's user accepted waiting device `id` (or pairing opened while it waited): it
    /// is paired with `key` — or, when the same browser paired before as the same kind and that
    /// entry is not connected, takes that entry over (the waiting entry goes).
    mutating func allow(_ id: String, key: String, at time: PairingTime) -> [PairingAction] {
        guard let connection = waitingConnection(of: id) else { return [] }
        guard list.device(id) != nil else { return deny(id, reason: "was declined on the computer") }
        let request = waiting.removeValue(forKey: connection)
        let credential = request?.derived ?? .key(key, told: true)
        if let waited = request?.device, let browser = waited.browserSHA256,
            let earlier = sameBrowser(browser, kind: waited.kind)
        {
            list.devices.removeAll { $0.id == id }
            let device = takeOver(earlier, connection: connection, credential: credential, at: time)
            return [
                .admit(connection, device.greeting(key: credential.toldKey)), .withdraw(deviceID: id),
                .announce(.replaced(device)),
            ]
        }
        list.update(id) {
            $0.state = .paired
            $0.adopt(credential)
            $0.paired = time.stamp
            $0.lastSeen = time.stamp
        }
        guard let device = list.device(id) else { return [] }
        connections[connection] = id
        return [
            .admit(connection, device.greeting(key: credential.toldKey)), .withdraw(deviceID: id),
            .announce(request?.untilOpen == true ? .paired(device) : .accepted(device)),
        ]
    }

    /// Waiting device `id` is refused (`reason` says why, to the page and the terminal).
    mutating func deny(_ id: String, reason: String) -> [PairingAction] {
        guard let connection = waitingConnection(of: id), let request = waiting.removeValue(forKey: connection) else {
            return []
        }
        list.remove(id)
        return [
            .close([connection], code: .pairingDeclined, reason: "pairing \(reason): reload to ask again"),
            .withdraw(deviceID: id), .announce(.declined(request.device, reason: reason)),
        ]
    }

    /// The waiting devices whose time ran out by `time` are refused: one that waited for the
    /// user's answer with 4401, one that waited for pairing to open with 4412.
    mutating func expire(at time: PairingTime) -> [PairingAction] {
        let due = waiting.filter { $0.value.deadline <= time.now }.sorted { $0.value.device.id < $1.value.device.id }
        var actions: [PairingAction] = []
        for (connection, request) in due {
            guard request.untilOpen else {
                let seconds = Int((settings.timeoutMilliseconds / 1_000).rounded(.up))
                actions += deny(request.device.id, reason: "was not accepted on the computer within \(seconds) s")
                continue
            }
            waiting.removeValue(forKey: connection)
            list.remove(request.device.id)
            actions += [
                .close([connection], code: .pairingClosed, reason: Self.closedReason),
                .withdraw(deviceID: request.device.id),
                .announce(.declined(request.device, reason: "waited, but pairing stayed closed")),
            ]
        }
        return actions
    }

    /// Device `id` is forgotten: its connections close with 4403 (a waiting one is declined).
    mutating func forget(_ id: String, by cause: ForgetCause) -> [PairingAction] {
        if waitingConnection(of: id) != nil { return deny(id, reason: "was declined on the computer") }
        guard let device = list.remove(id) else { return [] }
        return dropConnections(of: device, by: cause)
    }

    /// Device `id` is renamed to `proposed` (the desktop page): its connected pages are told.
    mutating func rename(_ id: String, to proposed: String) throws(DeviceEditError) -> [PairingAction] {
        _ = try list.apply(.rename(id, to: proposed))
        guard let device = list.device(id) else { return [] }
        let renamed = connections.filter { $0.value == id }.keys.sorted()
        return renamed.isEmpty ? [] : [.rename(renamed, device.greeting())]
    }

    /// The page of connection `connection` unpaired its device.
    mutating func unpair(_ connection: Int) -> [PairingAction] {
        guard let id = connections[connection] else { return [] }
        return forget(id, by: .phone)
    }

    /// `devices.json` as it is now (changed by `gesturepad devices`, another server, or by
    /// hand): the desk takes it, and acts on the difference — devices no longer paired lose
    /// their connections, connected devices renamed have their pages told, waiting devices allowed are admitted (with `fresh`'s keys), waiting
    /// devices removed are declined. Requests it does not know (another server's) stay.
    mutating func reload(_ file: DeviceList, at time: PairingTime, fresh: () -> FreshDevice) -> [PairingAction] {
        let old = list
        list = file
        var actions: [PairingAction] = []
        if let request = file.pairingRequest, request.serial != seenRequest {
            seenRequest = request.serial
            if request.open { actions += openPairing(at: time, fresh: fresh) } else { closePairing() }
        }
        for id in Set(connections.values).sorted() {
            guard let device = list.device(id), device.state == .paired else {
                if let device = old.device(id) { actions += dropConnections(of: device, by: .computer) }
                continue
            }
            if device.name != old.device(id)?.name {
                let renamed = connections.filter { $0.value == id }.keys.sorted()
                actions.append(.rename(renamed, device.greeting()))
            }
        }
        for id in waiting.values.map(\.device.id).sorted() {
            switch list.device(id)?.state {
            case .allowed?:
                actions += allow(id, key: fresh().key, at: time)
            case .waiting?:
                break
            case .paired?, nil:
                // Removed (`devices deny` / `forget`), or marked paired by hand without a key.
                actions += deny(id, reason: "was declined on the computer")
            }
        }
        return actions
    }

    // MARK: - Helpers

    /// The paired entry an earlier `?token=` pairing of `client` made (never a phone's: only
    /// entries marked `tokenClient` are looked at).
    private func tokenEntry(of client: String) -> PairedDevice? {
        list.devices.first { $0.state == .paired && $0.tokenClient == client }
    }

    /// `device`, an outside client's entry, is taken again by connection `connection`: its key
    /// becomes `key` (told in `welcome`; the earlier one opens nothing from now on), its name
    /// and when it was paired stay. Its other open connections stay: they were admitted.
    private mutating func repair(
        _ device: PairedDevice, connection: Int, key: String, at time: PairingTime
    ) -> [PairingAction] {
        list.update(device.id) {
            $0.adopt(.key(key, told: true))
            $0.lastSeen = time.stamp
        }
        connections[connection] = device.id
        let current = list.device(device.id) ?? device
        return [.greet(connection, current.greeting(key: key)), .announce(.repaired(current))]
    }

    /// The paired entry of the same kind that the browser with digest `browser` paired before
    /// and that has no connection open now — the one a new pairing of it takes over.
    private func sameBrowser(_ browser: String, kind: DeviceKind) -> PairedDevice? {
        let connected = connectedDevices
        return list.devices.first {
            $0.state == .paired && $0.kind == kind && $0.browserSHA256 == browser && !connected.contains($0.id)
        }
    }

    /// `earlier`, the entry of the browser pairing again on connection `connection`, takes
    /// `credential`: its id and name stay, its earlier key is remembered as forgotten (its page
    /// is told it was removed, 4411), and it counts as paired now.
    private mutating func takeOver(
        _ earlier: PairedDevice, connection: Int, credential: DeviceCredential, at time: PairingTime
    ) -> PairedDevice {
        list.rememberForgotten([earlier])
        list.update(earlier.id) {
            $0.adopt(credential)
            $0.paired = time.stamp
            $0.lastSeen = time.stamp
        }
        connections[connection] = earlier.id
        return list.device(earlier.id) ?? earlier
    }

    private func waitingConnection(of id: String) -> Int? {
        waiting.first { $0.value.device.id == id }?.key
    }

    private mutating func dropConnections(of device: PairedDevice, by cause: ForgetCause) -> [PairingAction] {
        let dropped = connections.filter { $0.value == device.id }.keys.sorted()
        for connection in dropped { connections.removeValue(forKey: connection) }
        var actions: [PairingAction] = []
        if !dropped.isEmpty { actions.append(.close(dropped, code: .deviceNotPaired, reason: cause.closeReason)) }
        actions += [.withdraw(deviceID: device.id), .announce(.forgotten(device, by: cause))]
        return actions
    }
}
