/// What the connection holds on the computer, for its page (the `held` message,
/// docs/protocol.md): read cheaply, without allocating on the hot path. A reader keeps the
/// `heldVersion` it last saw and writes a snapshot only when it changed (a change may still
/// leave the snapshot as it was: a click is a press and a release).
extension ControlMapper {
    /// Writes what is held into `snapshot` (its storage reused): every button and key this
    /// connection holds, whoever holds it, and `until` when the touch gestures' button goes
    /// up by itself at a deadline (a tap's wait for a drag, a drag lock) and nothing else
    /// holds that button. With `routing` `.contacts` (the `touchpad` backend) the fingers on
    /// the native touchpad are not listed: the desktop holds its buttons itself.
    public func writeHeld(into snapshot: inout HeldSnapshot) {
        snapshot.removeAll()
        held.write(into: &snapshot)
        switch touchButton {
        case .tapHeld(let button, let deadline), .locked(let button, let deadline):
            if held.owners(of: .button(button)) == .touch { snapshot.until = deadline }
        case .idle, .dragging:
            break
        }
    }
}
