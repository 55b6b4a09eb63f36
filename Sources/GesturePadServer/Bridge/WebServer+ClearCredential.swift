/// PROTOCOL.md "Connecting" lets a client connect with `/ws?token=TOKEN`, from anywhere; over
/// plain HTTP from another machine that credential crosses the network readable (the page
/// never does this: it proves its credential instead). The server follows the contract and
/// says so once per address (docs/security.md "Outside clients").
extension WebServer {
    /// Once per address (`AdmissionDesk` remembers whom it warned).
    func warnClearCredential(from address: String) {
        logger.notice(
            "a client at \(address) connected with its credential in the address (?token=) over plain HTTP, as the protocol allows outside clients: anyone on its network can read it; the page proves its credential instead (?proof=1), or run with --tls",
            metadata: ["http.peer": "\(address)"])
    }
}
