/// What a paired device was paired as (docs/protocol.md "Proof handshake": the `auth` message's
/// additive `kind`): a touchpad — a phone, the default — or an observer, a browser that only
/// watches the gestures (`watch.html`). An observer's connections may watch; one that says it is
/// a touchpad is closed with `CloseCode.observerOnly` (4415).
public enum DeviceKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// A touchpad (a phone's page): it may drive the computer, and watch too. What a device is
    /// when nothing says otherwise.
    case touchpad
    /// An observer (`watch.html`): it watches the gestures only.
    case observer
}
