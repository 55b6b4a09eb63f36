import GesturePadServer

/// Why a command stops on something of this machine — not a usage mistake (those are
/// ArgumentParser's, exit status 64): printed as `Error: …`, exit status 1. One case per kind
/// of cause, each with what the user is told.
enum CommandFailure: Error, CustomStringConvertible {
    /// An option's value (given as a flag, or by the configuration file) cannot be used here:
    /// `--control x11: no X display …`, `--log-json: …`, `--host …`.
    case option(String, String)
    /// A file the command needs (the TLS certificate, the device list, the recordings' folder,
    /// the page folder) is missing or not what it must be.
    case file(String)
    /// The pairing secret could not be read or kept in the state directory.
    case secret(String)
    /// The server could not start (its port, libwebsockets), explained.
    case start(String)
    /// Something the command talks to is not there: no server running, one that did not answer.
    case noServer(String)

    var description: String {
        switch self {
        case .option(let option, let reason): "\(option): \(reason)"
        case .file(let message), .secret(let message), .start(let message), .noServer(let message): message
        }
    }
}
