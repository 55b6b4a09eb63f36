import GestureControl

/// Something a touchpad session did for the person besides recognizing gestures, for the
/// terminal log: a page command carried out, or what the silence rule let go of (and why).
public enum SessionNote: Sendable, Hashable {
    /// A `text`, `key` or `button` message of the page, handed to the computer.
    case command(ControlCommand)
    /// The connection held buttons or keys and sent nothing for `silence` ms (at least
    /// `releaseAfterSilence`): `released` are the actions that let go of them.
    case releasedAfterSilence(silence: Double, released: [HostAction])
}
