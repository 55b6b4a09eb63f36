/// The `type` of a page → server message (PROTOCOL.md "Page → server").
public enum MessageType: String, Sendable, Hashable, CaseIterable {
    case hello
    case down
    case move
    case up
    case cancel
    case leave
    case resize
    case ping
    /// CONTROL.md: type text, press a key, press a button of the page's bar.
    case text
    case key
    case button
    /// Additive (docs/protocol.md): the page's pointer settings for this connection.
    case settings
    /// Additive (docs/protocol.md "Pairing"): the page's device asks to be forgotten.
    case unpair
    /// Additive (docs/protocol.md "Media"): a command for the computer's media players.
    case media
    /// Additive (docs/protocol.md "Spotlight"): show or hide the ring around the pointer.
    case spotlight

    /// The protocol's name, e.g. `"move"`.
    public var name: String { rawValue }
}
