/// `gesturepad pair` asks the running server to open pairing (or, with `--close`, to close it),
/// through `devices.json` and SIGUSR1 like `gesturepad devices`: the server opens its window at
/// its own clock's now when it sees a serial it has not seen.
public struct PairingRequest: Codable, Sendable, Hashable {
    /// One more than the last request's.
    public var serial: Int
    /// Open (true) or close pairing.
    public var open: Bool

    public init(serial: Int, open: Bool) {
        self.serial = serial
        self.open = open
    }

    /// The request after `previous`.
    public static func next(after previous: PairingRequest?, open: Bool) -> PairingRequest {
        PairingRequest(serial: (previous?.serial ?? 0) + 1, open: open)
    }
}
