import ArgumentParser
import FoundationEssentials
import GesturePadSettings
import GesturePadSystem

/// The pairing secret `serve` is given (docs/security.md "The pairing secret"): best in
/// `--token-file` or `GESTUREPAD_TOKEN`, which other users of the computer cannot read. A
/// `--token` on the command line still works, but every local user can see a process's
/// arguments (`ps`, `/proc/PID/cmdline`), so the server overwrites it there as it starts and
/// says so.
struct TokenOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            """
            Pairing secret for /ws (letters, digits, - . _ ~; at least \(AccessToken.minimumBits) bits, e.g. 32 hex digits); \
            other users can see it while the server starts: prefer --token-file or GESTUREPAD_TOKEN. \
            (default: $GESTUREPAD_TOKEN, else a random \(AccessToken.minimumBits)-bit one, remembered)
            """,
            valueName: "token"))
    var token: String?

    @Option(
        name: .customLong("token-file"),
        help: ArgumentHelp(
            "Read the pairing secret from this file's first line (keep it 0600).", valueName: "path"))
    var tokenFile: String?

    func validate() throws {
        if token != nil && tokenFile != nil { throw ValidationError("--token and --token-file: give one of them") }
    }

    /// Whether a secret is given by either option.
    var isGiven: Bool { token != nil || tokenFile != nil }

    /// The secret given by `--token` or read from `--token-file`; nil when neither is given.
    func given() throws -> String? {
        if let token { return token }
        guard let tokenFile else { return nil }
        do {
            let data = try FileIO.readFile(tokenFile)
            let text = String(decoding: data, as: UTF8.self)
            let line = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            return String(line).trimmingWhitespaceAndNewlines()
        } catch {
            throw ValidationError("--token-file \(tokenFile): cannot read it (\(error))")
        }
    }

    /// Overwrites a `--token` value in this process's own arguments, so that other users no
    /// longer see it in the process list; true when there was one.
    func hideFromProcessList() -> Bool {
        guard let token, !token.isEmpty else { return false }
        return CommandLineSecret.hide(token)
    }
}
