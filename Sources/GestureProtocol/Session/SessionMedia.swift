import GestureControl

/// What one connection knows of the computer's media players (docs/protocol.md "Media"):
/// whether a player is followed (a `media` command without one is answered
/// `media_unavailable`), whether its page asked to hear them (`media` `watch`: no page hears
/// them unasked), and the cover it was last sent (each is sent once).
struct SessionMedia: Sendable {
    private(set) var available = false
    /// The computer's own volume can be set (its sound server answered).
    private(set) var computerAvailable = false
    private(set) var watched = false
    private var artSent: String?

    /// The page asked to hear the players from now on.
    mutating func watch() { watched = true }

    /// Whether `command` has something to act on: a followed player, or the computer's sound
    /// server for its own volume.
    func canCarryOut(_ command: MediaCommand) -> Bool {
        command.isComputer ? computerAvailable : available
    }

    /// The players changed (or the page just asked): a page that asked is told `snapshot` at
    /// `now`, after the new cover if it has one (`role` touchpad: observers get no covers).
    mutating func tell(_ snapshot: MediaSnapshot, role: ConnectionRole?, now: Double, into frames: inout FrameBuffer) {
        available = snapshot.unavailable == nil
        computerAvailable = snapshot.computer != nil
        guard let role, watched else { return }
        if role == .touchpad, let art = snapshot.art, art.key != artSent {
            artSent = art.key
            frames.append(.reply) { MessageEncoder.appendMediaArt(art, to: &$0) }
        }
        frames.append(.reply) { MessageEncoder.appendMedia(snapshot, now: now, to: &$0) }
    }
}
