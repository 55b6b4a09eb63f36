import GestureControl

/// The page's one module of values the server defines (`Public/js/wire.js`): the close codes
/// that answer a live connection, and the bounds of the settings sheet's numbers — generated
/// from the server's own types, so the page holds no second copy to drift. A test compares the
/// committed file with `text` (and writes it anew when asked: docs/testing.md).
public enum PageModule {
    /// Where the module is, from the repository's root.
    public static let path = "Public/js/wire.js"

    /// The module's whole text.
    public static var text: String {
        """
        /* GesturePad: values the server defines, for the page. Generated from the server's types
         * (GestureProtocol's PageModule): do not edit. `swift test` fails when this file differs
         * from them; GESTUREPAD_WRITE_PAGE_MODULE=1 swift test --filter PageModule writes it anew. */

        /** Close codes of a live connection that are answers, not accidents (docs/protocol.md
         * "Pairing"): the computer did not accept a new phone; the phone is no longer paired. */
        export const CLOSE_PAIRING_DECLINED = \(CloseCode.pairingDeclined.rawValue);
        export const CLOSE_DEVICE_NOT_PAIRED = \(CloseCode.deviceNotPaired.rawValue);

        /** Close codes of the proof handshake and of sealing (docs/protocol.md "Proof handshake"):
         * no credential of the computer gives the proof; the proof of a removed phone; pairing is
         * closed; a sealed message did not open; the computer has as many phones as it keeps. */
        export const CLOSE_PROOF_UNKNOWN = \(CloseCode.proofUnknown.rawValue);
        export const CLOSE_PROOF_REVOKED = \(CloseCode.proofRevoked.rawValue);
        export const CLOSE_PAIRING_CLOSED = \(CloseCode.pairingClosed.rawValue);
        export const CLOSE_SEAL_BROKEN = \(CloseCode.sealBroken.rawValue);
        export const CLOSE_DEVICE_LIMIT = \(CloseCode.deviceLimit.rawValue);

        /** The connection's device was paired to watch (the observer page), and it said it is a
         * touchpad (docs/protocol.md "Pairing"). */
        export const CLOSE_OBSERVER_ONLY = \(CloseCode.observerOnly.rawValue);

        /** The computer speaks TLS now: a plain connection was told, sealed, to move to https
         * (docs/protocol.md "Moving to HTTPS"). */
        export const CLOSE_MOVED_TO_TLS = \(CloseCode.movedToTLS.rawValue);

        /** The settings sheet's numbers: [least, most] the server takes (docs/protocol.md "settings"). */
        export const BOUNDS = {
          speed: \(range(ControlSettings.speedBound)),
          scrollSpeed: \(range(ControlSettings.scrollSpeedBound))
        };

        """
    }

    private static func range(_ bound: NumberBound) -> String {
        "[\(number(bound.lower)), \(number(bound.upper ?? bound.lower))]"
    }

    /// A JavaScript number: whole values without a fraction.
    private static func number(_ value: Double) -> String {
        value.rounded() == value && value.magnitude < 1e15 ? String(Int(value)) : "\(value)"
    }
}
