/// The computer's media players as the server reaches them (docs/control.md "Media players"):
/// what they do, told as it changes, and the pages' commands carried out. The MPRIS bridge
/// (`MediaPlayers`) is the real one; tests give their own.
public protocol MediaRemote: AnyObject, Sendable {
    /// Calls `observer` (on the remote's own thread) with every new snapshot, the first one as
    /// soon as it is known.
    func observe(_ observer: @escaping @Sendable (MediaSnapshot) -> Void)
    /// Carries out a page's command (queued: the call returns at once).
    func perform(_ command: MediaCommand)
    /// Stops watching the players.
    func stop()
}
