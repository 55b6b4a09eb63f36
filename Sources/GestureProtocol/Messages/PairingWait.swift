/// What a new device that proved the pairing secret waits for (additive, docs/protocol.md
/// "Pairing"): its `{"type":"pairing","state":…}` notice says which.
public enum PairingWait: String, Sendable, Hashable, CaseIterable {
    /// The computer's user accepts or refuses it (`serve --confirm-pairing`): `"waiting"`.
    case confirm = "waiting"
    /// Pairing is closed on the computer: the device pairs as soon as it opens (the desktop
    /// page, `gesturepad pair`, the notification's Pair button): `"closed"`.
    case pairingClosed = "closed"
}
