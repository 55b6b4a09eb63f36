import FoundationEssentials
import GesturePadConfig
import GesturePadServer
import GesturePadSettings
import GesturePadSystem
import GestureProtocol
import Glibc

/// `serve`'s third step, once everything has started: the banner on standard output, and the
/// record (`server.json`) by which `gesturepad url` and `gesturepad pair` find this server.
struct ServeAnnouncement {
    /// Draw the QR codes (not `--no-qr`).
    let drawQR: Bool
    /// `--forget-devices`: the banner counts no paired phone.
    let forgetDevices: Bool

    /// The banner, and the record by which `gesturepad url` finds this server.
    /// Returns this process's id and the record of a GesturePad this one replaced, if any.
    func announce(_ plan: ServePlan, _ parts: ServeParts) -> (pid: Int32, replaced: ServerRecord?) {
        let configuration = parts.configuration
        var notes = [plan.configLocation?.bannerLine ?? ConfigLocation.noneLine(environment: plan.environment)]
        if plan.tokenHidden {
            notes.append(
                "--token: other users of this computer could read the pairing secret in the process list while the server started; it is hidden there now (prefer --token-file or GESTUREPAD_TOKEN)."
            )
        }
        if configuration.token != nil {
            notes.insert(Self.pairingLine(parts.pairingSettings), at: 0)
        }
        // Another GesturePad still running keeps its own port: its phones lose nothing.
        let pid = getpid()
        let replaced = ServerRecord.replaced(in: plan.state, by: pid, isRunning: ProcessProbe.isGesturePad)
        if replaced == nil {
            let phones =
                parts.pairing == nil || forgetDevices ? 0 : DeviceStore(directory: plan.state).pairedCount()
            let (moved, unwritten) = LastAddress.started(on: parts.server.port, in: plan.state, pairedDevices: phones)
            if let moved { notes.insert(moved, at: 0) }
            if let unwritten {
                plan.logger.warning(
                    "the next start cannot tell whether the port changed", metadata: ["error": "\(unwritten)"])
            }
        }
        if let recorder = parts.recorder {
            notes.append(
                "Recording every touchpad session into \(recorder.directory) (one file each, at most \(recorder.maxBytes) bytes)."
            )
        }
        printBanner(
            server: parts.server, configuration: configuration, tokenNote: plan.tokenNote, tlsNote: plan.tlsNote,
            controlNote: parts.control.note, notes: notes)
        // `gesturepad url` finds this server (the systemd unit's, say) through the state directory.
        let record = ServerRecord(
            pid: pid, port: parts.server.port, secure: configuration.tls != nil, host: configuration.host,
            token: configuration.token == nil ? .none : (plan.remembered != nil ? .remembered : .given), started: Date(),
            version: GesturePadVersion.current, publicDirectory: configuration.publicDirectory,
            configFile: plan.configLocation?.path)
        parts.keeper.start(record, pairsDevices: parts.server.pairsDevices)
        return (pid, replaced)
    }

    /// The banner's line on pairing.
    static func pairingLine(_ settings: PairingSettings) -> String {
        let confirm =
            settings.confirm
            ? " A new phone waits until you accept it (notification, or gesturepad devices allow NAME)."
            : settings.openAtStart
                ? " The link pairs new phones for \(Int(settings.windowMilliseconds / 60_000)) minutes (gesturepad pair opens it again)."
                : " The service manager started this server: the link pairs no one until gesturepad pair opens pairing."
        return "Paired phones reconnect by themselves; gesturepad devices lists them and forgets one.\(confirm)"
    }

    private func printBanner(
        server: WebServer, configuration: ServerConfiguration, tokenNote: String?, tlsNote: String?,
        controlNote: String?, notes: [String]
    ) {
        let (urls, qr) = LiveAddresses.current(
            host: configuration.host, port: server.port, token: configuration.token, secure: configuration.tls != nil,
            qr: drawQR)
        let trust = configuration.tls?.authority.map {
            StartupBanner.trustLines(pageURLs: urls, fingerprint: $0.fingerprint, qr: drawQR)
        }
        let lines = StartupBanner.lines(
            urls: urls, port: server.port, authenticated: configuration.token != nil,
            publicDirectory: configuration.publicDirectory, control: configuration.control.status,
            controlNote: controlNote, tokenNote: [tokenNote, tlsNote].compactMap { $0 }.joined(separator: "\n"),
            trust: trust ?? [], notes: notes, qrLines: qr)
        FileIO.writeStandardOutput((lines.joined(separator: "\n") + "\n").utf8)
    }
}
