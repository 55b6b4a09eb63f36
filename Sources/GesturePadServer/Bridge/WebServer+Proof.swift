import GesturePadSystem
import GestureProtocol

/// The proof handshake's verdicts, and the warning about a credential in clear, on the service thread (docs/protocol.md "Proof handshake"):
/// `AdmissionDesk` judges; this carries out what it decided — a refusal (logged, the connection
/// closed with a code that says why), or a proof accepted: the connection's seal, then its move
/// to https or pairing's turn, then what it sent meanwhile.
extension WebServer {
    /// The answer of connection `id` to its challenge (the hub's `judgeProof`, carried out in
    /// the middle of a batch: the verdict's inputs reach the hub after it, in order).
    func judgeProof(_ id: Int, answer message: [UInt8]) {
        let now = MonotonicClock.nowMilliseconds()
        let credentials = AdmissionDesk.Credentials(
            secret: configuration.token ?? "", devices: pairing?.devices, tickets: pairing?.ticketDigests(now: now) ?? [:],
            desktopKey: configuration.desktopKey, pairs: pairing != nil)
        switch admission.answer(id, message: message, credentials: credentials, now: now) {
        case nil:
            return
        case .refused(let input, let reason, let address)?:
            logger.notice("refused proof: \(reason)", metadata: ["ws.connection.id": "\(id)", "ws.peer": "\(address)"])
            submit(input)
        case .proven(let input, let then)?:
            submit(input)
            switch then {
            case .move(let device, let address):
                // Proven, so the page can believe it: the same address over https (a paired
                // device with a ticket that proves it there once); nothing else happens here.
                let ticket = device.flatMap { pairing?.moveTicket(for: $0, now: now) }
                logger.info(
                    "told a plain-HTTP page to move to HTTPS", metadata: ["ws.connection.id": "\(id)", "ws.peer": "\(address)"])
                submit(.move(id, ticket: ticket, now: now))
            case .open(let device):
                if let device, let pairing {
                    apply(
                        pairing.opened(
                            id, as: device.admission, name: device.name, now: now, derivedKey: device.derivedKey,
                            publicKey: device.publicKey, moved: device.moved, rekeyed: device.rekeyed, kind: device.kind,
                            browser: device.browser, from: device.address))
                }
                submit(.release(id, now: now))
            }
        }
    }

    /// Whether a credential in the address is safe from listeners: TLS, or a loopback peer.
    func trustsTransport(of address: String) -> Bool {
        configuration.tls != nil || LoopbackAddress.isPeer(address)
    }

    /// A credential came in the address over plain HTTP from another machine: PROTOCOL.md
    /// "Connecting" lets a client connect with `/ws?token=TOKEN` from anywhere, and the server
    /// follows the contract, but says so — once per address (`AdmissionDesk` remembers whom it
    /// warned); the page never does this: it proves its credential instead (docs/security.md
    /// "Outside clients").
    func warnClearCredential(from address: String) {
        logger.notice(
            "a client at \(address) connected with its credential in the address (?token=) over plain HTTP, as the protocol allows outside clients: anyone on its network can read it; the page proves its credential instead (?proof=1), or run with --tls",
            metadata: ["http.peer": "\(address)"])
    }
}
