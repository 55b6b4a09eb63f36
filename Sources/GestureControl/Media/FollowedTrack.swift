/// What tells one track of a snapshot from another: the followed player and the track's tags.
/// The length is not part of it — it may come later than the title (`TrackLoading` waits for
/// it; `MediaEvent` does not count its coming as a new track).
struct FollowedTrack: Equatable, Sendable {
    var player: String?
    var title: String?
    var artist: String?
    var album: String?

    init(_ snapshot: MediaSnapshot) {
        player = snapshot.unavailable == nil ? snapshot.player : nil
        title = snapshot.title
        artist = snapshot.artist
        album = snapshot.album
    }
}
