import GesturePadSettings
import GestureProtocol
import Logging

/// The action keys of the notifications (org.freedesktop.Notifications `ActionInvoked`).
enum NoticeKey {
    static let forget = "forget"
    static let allow = "allow"
    static let deny = "deny"
}

/// How the computer's user hears of pairing: one terminal line for every event, and a desktop
/// notification for those `PairingSettings.notify` asks for (`PairingService` hands it the
/// desk's `announce` and `withdraw` actions).
struct PairingAnnouncer {
    private let notifier: (any PairingNotifier)?
    private let logger: Logger

    init(notifier: (any PairingNotifier)?, logger: Logger) {
        self.notifier = notifier
        self.logger = logger
    }

    /// Withdraws the notification about device `id`, if one shows.
    func withdraw(_ id: String) {
        notifier?.withdraw(tag: id)
    }

    /// `setting`: which events the user wants a desktop notification of.
    func announce(_ event: PairingEvent, notifying setting: PairingSettings.Notify) {
        switch event {
        case .paired(let device):
            logger.notice(
                "paired a new \(Self.noun(device.kind)): \(device.name) (gesturepad devices forget \(quoted(device.name)) removes it)",
                metadata: ["device.id": "\(device.id)"])
            notify(
                device, "\(device.name) paired", Self.mayFromNow(device.kind), [(NoticeKey.forget, "Forget")], when: .pairing,
                under: setting)
        case .replaced(let device):
            logger.notice(
                "\(device.name) paired again (the same browser, not connected): it keeps its entry, with a new key; its earlier key no longer works",
                metadata: ["device.id": "\(device.id)"])
            notify(
                device, "\(device.name) paired again",
                "The same browser paired again and keeps its name; its earlier pairing no longer works. "
                    + Self.mayFromNow(device.kind),
                [(NoticeKey.forget, "Forget")], when: .pairing, under: setting)
        case .repaired(let device):
            // No desktop notification: the computer's user was told when this client first paired.
            logger.notice(
                "an outside client paired again with the secret (?token=): \(device.name) keeps its entry, with a new key; its earlier key no longer works",
                metadata: ["device.id": "\(device.id)"])
        case .connected(let device):
            logger.info("device connected: \(device.name)", metadata: ["device.id": "\(device.id)"])
            let doing =
                device.kind == .observer ? "It is watching the gestures." : "It is using this computer as a touchpad."
            notify(device, "\(device.name) connected", doing, [(NoticeKey.forget, "Forget")], when: .connections, under: setting)
        case .waiting(let device, let seconds, let address):
            ask(
                device, seconds: seconds,
                line: "asks to pair\(Self.origin(address)): gesturepad devices allow \(quoted(device.name)) (or deny)",
                summary: "asks to pair",
                body: "\(Self.claim(device, from: address)) Allow it to \(Self.use(device.kind))?", buttons: ("Allow", "Deny"),
                under: setting)
        case .waitingForPairing(let device, let seconds, let address):
            ask(
                device, seconds: seconds,
                line:
                    "waits to pair\(Self.origin(address)), but pairing is closed: gesturepad pair pairs it (or devices allow / deny it)",
                summary: "waits to pair",
                body: "\(Self.claim(device, from: address)) Pairing is closed. Pair it to let it \(Self.use(device.kind))?",
                buttons: ("Pair", "Ignore"), under: setting)
        case .accepted(let device):
            logger.notice("accepted and paired: \(device.name)", metadata: ["device.id": "\(device.id)"])
        case .declined(let device, let reason):
            logger.notice("pairing refused: \(device.name) \(reason)", metadata: ["device.id": "\(device.id)"])
        case .forgotten(let device, let cause):
            let how = cause == .phone ? "unpaired on the phone" : "forgotten"
            logger.notice("\(how): \(device.name)", metadata: ["device.id": "\(device.id)"])
        }
    }

    /// What a device of `kind` is called on the terminal.
    static func noun(_ kind: DeviceKind) -> String {
        kind == .observer ? "observer (a browser that watches the gestures)" : "device"
    }

    /// What a device of `kind` may do once paired: an observer watches, it drives nothing.
    static func use(_ kind: DeviceKind) -> String {
        kind == .observer ? "watch the gestures (not use this computer as a touchpad)" : "use this computer as a touchpad"
    }

    /// The notification's body for a device of `kind` just paired.
    static func mayFromNow(_ kind: DeviceKind) -> String {
        switch kind {
        case .touchpad: "It can use this computer as a touchpad from now on."
        case .observer: "This browser can now watch the gestures. It cannot use this computer as a touchpad."
        }
    }

    /// A device waits for an answer within `seconds`: a terminal line, and a notification whose
    /// buttons allow or refuse it.
    /// " from ADDRESS" for a terminal line, or nothing.
    static func origin(_ address: String?) -> String {
        address.map { " from \($0)" } ?? ""
    }

    /// What the notification says of a waiting device: its name is its own claim (the browser's
    /// user agent and model), and where it connects from.
    static func claim(_ device: PairedDevice, from address: String?) -> String {
        let place = address.map { LoopbackAddress.isPeer($0) ? "this computer" : $0 } ?? "an unknown address"
        return "It calls itself \u{201C}\(device.name)\u{201D} and connects from \(place)."
    }

    private func ask(
        _ device: PairedDevice, seconds: Int, line: String, summary: String, body: String, buttons: (String, String),
        under setting: PairingSettings.Notify
    ) {
        logger.notice("\(device.name) \(line) within \(seconds) s", metadata: ["device.id": "\(device.id)"])
        notify(
            device, "\(device.name) \(summary)", body, [(NoticeKey.allow, buttons.0), (NoticeKey.deny, buttons.1)],
            when: .pairing, under: setting, timeoutMilliseconds: Int32(clamping: seconds * 1_000))
    }

    private func notify(
        _ device: PairedDevice, _ summary: String, _ body: String, _ actions: [(String, String)],
        when level: PairingSettings.Notify, under setting: PairingSettings.Notify, timeoutMilliseconds: Int32 = -1
    ) {
        guard let notifier, Self.shows(level, under: setting) else { return }
        notifier.show(
            tag: device.id, summary: summary, body: body, buttons: actions.map { (key: $0.0, label: $0.1) },
            timeoutMilliseconds: timeoutMilliseconds)
    }

    /// Whether an event of `level` is shown when the user asked for `setting`.
    static func shows(_ level: PairingSettings.Notify, under setting: PairingSettings.Notify) -> Bool {
        switch (level, setting) {
        case (_, .off), (.off, _): false
        case (.pairing, _): true
        case (.connections, .connections): true
        case (.connections, .pairing): false
        }
    }

    private func quoted(_ name: String) -> String {
        "'" + name.replacing("'", with: "'\\''") + "'"
    }
}
