import GestureProtocol

/// What `gesturepad serve` prints once it listens: the addresses to open (token included),
/// a QR code of the first one, and how to stop. Plain lines, ready for stdout.
/// `gesturepad url` prints the same address block for a server already running.
public enum StartupBanner {
    /// The banner's lines. `qrLines` is the drawing of `urls.first` (empty: no QR code);
    /// `notes` (configuration file, recording, …) come after the control line.
    public static func lines(
        urls: [String], port: Int, authenticated: Bool, publicDirectory: String,
        control: ControlContext.Status = .inactive(reason: "control is off"), controlNote: String? = nil,
        tokenNote: String? = nil, trust: [String] = [], notes: [String] = [], qrLines: [String]
    ) -> [String] {
        var lines = ["GesturePad is listening on port \(port), serving \(publicDirectory)"]
        if !authenticated {
            lines.append("WARNING: authentication is off (--no-auth): anyone who can reach this port can send gestures.")
        }
        lines.append(contentsOf: addressLines(urls: urls, qrLines: qrLines))
        lines.append("")
        if authenticated {
            lines.append("The address carries the pairing secret; keep it private.")
            if let tokenNote { lines.append(tokenNote) }
        }
        if !trust.isEmpty {
            lines.append("")
            lines.append(contentsOf: trust)
            lines.append("")
        }
        switch control {
        case .active(let backend):
            lines.append("The phone drives this computer's pointer and keyboard through \(backend) (--control off to stop).")
        case .inactive(let reason):
            lines.append("The phone does not drive this computer: \(reason).")
        }
        if let controlNote { lines.append(controlNote) }
        lines.append(contentsOf: notes)
        lines.append("Press Ctrl-C to stop.")
        return lines
    }

    /// The addresses to open on the phone, the QR code of the first one and the observer's
    /// address (the first one's `/watch.html`): the part of the banner `gesturepad url` repeats.
    public static func addressLines(urls: [String], qrLines: [String]) -> [String] {
        var lines = ["Open this address on your phone (same network):"]
        lines.append(contentsOf: urls.map { "  \($0)" })
        if !qrLines.isEmpty {
            lines.append("")
            lines.append("Or scan this QR code (\(urls.first ?? "")):")
            lines.append(contentsOf: qrLines)
        }
        if let first = urls.first {
            lines.append("")
            lines.append("To watch the gestures on another screen, open the observer view:")
            lines.append("  \(ServerURLs.replacingPath(of: first, with: "/watch.html"))")
        }
        return lines
    }

    /// `--tls` with GesturePad's own certificate authority: the trust block for the first of the
    /// page's addresses, its QR code drawn when `qr` is set (none without an address).
    public static func trustLines(pageURLs: [String], fingerprint: String, qr: Bool) -> [String] {
        guard let first = pageURLs.first else { return [] }
        let url = ServerURLs.trustURL(of: first)
        let qrLines = qr ? TerminalQRCode.lines(for: url, ansi: LiveAddresses.stdoutIsColorTerminal) : []
        return trustLines(url: url, qrLines: qrLines, fingerprint: fingerprint)
    }

    /// The trust block: the `/trust` address `url` in full (no token: the page is public), the
    /// QR code of it, and the fingerprint to compare.
    public static func trustLines(url: String, qrLines: [String], fingerprint: String) -> [String] {
        var lines = ["Trust GesturePad's certificate once on each phone: open"]
        lines.append("  \(url)")
        if !qrLines.isEmpty {
            lines.append("or scan this QR code:")
            lines.append(contentsOf: qrLines)
        }
        lines.append("and check that it shows this fingerprint (SHA-256):")
        lines.append("  \(fingerprint)")
        return lines
    }
}
