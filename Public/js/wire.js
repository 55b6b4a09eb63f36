/* GesturePad: values the server defines, for the page. Generated from the server's types
 * (GestureProtocol's PageModule): do not edit. `swift test` fails when this file differs
 * from them; GESTUREPAD_WRITE_PAGE_MODULE=1 swift test --filter PageModule writes it anew. */

/** Close codes of a live connection that are answers, not accidents (docs/protocol.md
 * "Pairing"): the computer did not accept a new phone; the phone is no longer paired. */
export const CLOSE_PAIRING_DECLINED = 4401;
export const CLOSE_DEVICE_NOT_PAIRED = 4403;

/** Close codes of the proof handshake and of sealing (docs/protocol.md "Proof handshake"):
 * no credential of the computer gives the proof; the proof of a removed phone; pairing is
 * closed; a sealed message did not open; the computer has as many phones as it keeps. */
export const CLOSE_PROOF_UNKNOWN = 4410;
export const CLOSE_PROOF_REVOKED = 4411;
export const CLOSE_PAIRING_CLOSED = 4412;
export const CLOSE_SEAL_BROKEN = 4413;
export const CLOSE_DEVICE_LIMIT = 4414;

/** The connection's device was paired to watch (the observer page), and it said it is a
 * touchpad (docs/protocol.md "Pairing"). */
export const CLOSE_OBSERVER_ONLY = 4415;

/** The computer speaks TLS now: a plain connection was told, sealed, to move to https
 * (docs/protocol.md "Moving to HTTPS"). */
export const CLOSE_MOVED_TO_TLS = 4426;

/** The settings sheet's numbers: [least, most] the server takes (docs/protocol.md "settings"). */
export const BOUNDS = {
  speed: [0.1, 10],
  scrollSpeed: [0.1, 10]
};
