/// Why the server could not start, with the message the user is shown.
public enum ServerStartError: Error, CustomStringConvertible {
    /// The port is held by another program (perhaps another GesturePad: the caller can tell).
    case portInUse(host: String?, port: Int, problem: String)
    /// The address cannot be listened on for another reason (`problem`, when the probe knows).
    case cannotListen(host: String?, port: Int, problem: String?)
    /// libwebsockets could not set itself up.
    case noContext

    public var portInUse: Bool {
        if case .portInUse = self { true } else { false }
    }

    public var description: String {
        switch self {
        case .portInUse(let host, let port, let problem), .cannotListen(let host, let port, let problem?):
            "cannot listen on \(host ?? "all interfaces") port \(port): \(problem)"
        case .cannotListen(let host, let port, nil):
            "cannot listen on \(host ?? "all interfaces") port \(port) (in use, or not an address of this machine?)"
        case .noContext:
            "libwebsockets could not create its context"
        }
    }
}
