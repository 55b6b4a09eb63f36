/// One line of the terminal log's default output: one thing the person did (a tap, a drag, a
/// pinch, typing), or what the server did for them without being asked (the silence rule).
struct ActivityLine: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        /// Touch input: taps, strokes, scrolls, pinches.
        case gesture
        /// A keyboard or button command of the page.
        case command
        /// Something let go by the server (the silence rule), with the reason.
        case release
    }

    var session: String
    var time: WallTime
    var kind: Kind
    var text: String
}
