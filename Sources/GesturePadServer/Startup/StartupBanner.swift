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
        tokenNote: String? = nil, notes: [String] = [], qrLines: [String]
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

    /// The addresses to open on the phone and the QR code of the first one: the part of the
    /// banner `gesturepad url` repeats.
    public static func addressLines(urls: [String], qrLines: [String]) -> [String] {
        var lines = ["Open this address on your phone (same network):"]
        lines.append(contentsOf: urls.map { "  \($0)" })
        if !qrLines.isEmpty {
            lines.append("")
            lines.append("Or scan this QR code (\(urls.first ?? "")):")
            lines.append(contentsOf: qrLines)
        }
        return lines
    }
}
