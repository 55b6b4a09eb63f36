import FoundationEssentials
import Glibc

/// The addresses of a server on this machine as they are now (every interface that is up),
/// and the QR code of the first: what the start-up banner and `gesturepad url` both print,
/// computed in one place so they never differ.
public enum LiveAddresses {
    /// The URLs (see `ServerURLs.urls`) and, when `qr` is set, the terminal drawing of the first.
    public static func current(
        host: String?, port: Int, token: String?, secure: Bool, qr: Bool, ansi: Bool = stdoutIsColorTerminal
    ) -> (urls: [String], qrLines: [String]) {
        let urls = ServerURLs.urls(
            host: host, port: port, token: token, interfaces: InterfaceList.current(), secure: secure)
        let qrLines = qr ? urls.first.map { TerminalQRCode.lines(for: $0, ansi: ansi) } ?? [] : []
        return (urls, qrLines)
    }

    /// Whether the QR code may be drawn with ANSI colours: stdout is a terminal that is not `dumb`.
    public static var stdoutIsColorTerminal: Bool {
        isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    }
}
