/// The bus side of the portal's thread: what arrives on the sd-bus connection (the session's
/// Request responses and Closed signals, the portal's name changing owner, refused calls)
/// goes to the session state machine, whose answer `apply` carries out.
extension PortalLoop {
    /// Reads and writes what is pending and handles what arrived, until nothing is left.
    func pumpBus() {
        while let bus {
            if let error = bus.process() {
                lose(error.message)
                return
            }
            let incoming = bus.takeInbox()
            if incoming.isEmpty { return }
            for message in incoming { handle(message) }
        }
    }

    private func handle(_ message: SDBusIncoming) {
        switch message {
        case .signal(let signal) where signal.interface == PortalBus.request && signal.member == "Response":
            let code = signal.arguments.first?.uint32 ?? 2
            let results = signal.arguments.count > 1 ? signal.arguments[1].entries : [:]
            apply(session.handle(.response(path: signal.path, code: code, results: results, at: clock.now)))
        case .signal(let signal) where signal.interface == PortalBus.session && signal.member == "Closed":
            apply(session.handle(.sessionClosed(path: signal.path)))
        case .signal(let signal) where signal.member == "NameOwnerChanged":
            // (name, old owner, new owner): an old owner that is gone or replaced took its sessions.
            let owners = signal.arguments.compactMap(\.text)
            if owners.count == 3, owners[0] == PortalBus.service, !owners[1].isEmpty {
                apply(session.handle(.portalGone))
            }
        case .signal:
            break
        case .callFailed(let text):
            refused(text)
        }
    }

    func refused(_ text: String) {
        refusedCalls += 1
        if refusedCalls == 1 || refusedCalls.isMultiple(of: 1000) {
            logger.warning("control: the portal refused a call (\(refusedCalls) so far): \(text)")
        }
    }

    private func lose(_ message: String) {
        bus?.close()
        bus = nil
        apply(session.handle(.connectionLost(message)))
    }
}
