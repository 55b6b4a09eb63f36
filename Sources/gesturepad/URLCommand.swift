import ArgumentParser

/// `gesturepad url`: the address and QR code of the server already running for this user — the
/// same lines as the start-up banner. It only reads: opening pairing for a new phone is
/// `gesturepad pair` (issue 43).
struct URLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "url",
        abstract: "Print the address and QR code of the running server, and its observer's address.",
        discussion: """
            For a server started elsewhere (systemctl --user start gesturepad): reads server.json \
            and the remembered token in the state directory ($XDG_STATE_HOME/gesturepad, by default \
            ~/.local/state/gesturepad). It changes nothing: paired phones connect with this address; \
            a new phone pairs while pairing is open, which gesturepad pair does (it shows the same \
            code). Exit status 1 when no server is running.
            """)

    @Flag(name: .customLong("no-qr"), help: "Do not draw the QR code.")
    var noQR = false

    func run() throws {
        let report = try RunningServerReport.read(qr: !noQR)
        let pairing =
            report.pairsPhones
            ? "A new phone pairs only while pairing is open: gesturepad pair opens it for "
                + "\(PairCommand.windowMinutes) minutes and shows this code."
            : nil
        print(report.text(pairing: pairing))
    }
}
