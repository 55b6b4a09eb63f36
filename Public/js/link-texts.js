/* GesturePad: what the page says of its connection — the texts of the status and the notice for
 * each close, refusal and pairing answer (docs/page.md "Connection status"), worded for the
 * touchpad ("this phone") or the observer ("this browser"). Pure: no DOM, no I/O. */
import {
  CLOSE_PAIRING_DECLINED as PAIRING_DECLINED, CLOSE_DEVICE_NOT_PAIRED as NOT_PAIRED, CLOSE_SEAL_BROKEN as SEAL_BROKEN,
  CLOSE_MOVED_TO_TLS as MOVED_TO_TLS
} from './wire.js';

/** Why the server closed a connection, by close code (the reason otherwise). */
export const CLOSE_REASONS = {
  1001: 'server going away', 1003: 'binary data refused', 1007: 'invalid text', 1008: 'policy violation (rate or error limit)',
  1009: 'message too big', 1011: 'server error', [SEAL_BROKEN]: 'a sealed message did not open',
  [MOVED_TO_TLS]: 'the computer speaks HTTPS now'
};
/** Said while the page goes to the https address of a computer that speaks HTTPS now. */
export const MOVING_TEXT = 'This computer uses a secure (HTTPS) address now. This phone keeps its pairing: ' +
  'if it does not trust the computer’s certificate yet, trust it once (the first button), then open the secure page.';
/* Pairing (docs/protocol.md "Pairing"): these closes of a live connection are answers, not
 * accidents; the page says why and waits for the person (a new link, a reload) instead of
 * trying again. */
const REMOVED_TEXT = 'This phone was removed on the computer: scan the code again to pair it.';
const PAIRING_TEXT = {
  [NOT_PAIRED]: REMOVED_TEXT,
  [PAIRING_DECLINED]: 'The computer did not accept this phone: reload the page to ask again.'
};
/** Said when the touchpad page of a browser paired from the observer page (to watch the gestures,
 * docs/protocol.md "Pairing": close 4415) says it is a touchpad. */
export const OBSERVER_ONLY_TEXT = 'This browser was paired to watch the gestures (the observer page), not as a touchpad. ' +
  'To use it as a touchpad, open the pairing link the computer prints (it ends in #token=…) in it again.';
/** Said once this phone unpaired itself. */
export const UNPAIRED_TEXT = 'This phone is not paired any more: scan the code on the computer to pair it again.';
/** A refused observer is a browser, often a desktop's, not a phone: the texts say so. */
export const OBSERVER_NONE = 'This browser is not paired with the computer. Open the observer address the computer ' +
  'printed (gesturepad pair prints it again and opens pairing; it ends in #token=…).';
/* A refused proof closes the connection with a code that says why (docs/protocol.md "Proof
 * handshake"); a refused upgrade (no credential in it: too many tries, another origin, no
 * room) hides its status from the browser, so the page asks `GET /pairing` whether its
 * address has tries left. */
export const REFUSAL_TEXT = {
  none: 'This phone is not paired yet. Open the link the computer printed (it ends in #token=…) or scan its QR code.',
  revoked: REMOVED_TEXT,
  unknownKey: 'This computer does not know this phone (its pairings were reset, or it is another computer): scan the code again to pair it.',
  unknownSecret: 'This pairing link (#token=…) is not valid, or no longer: open the link the computer prints now, or scan its QR code.',
  limited: 'Too many refused attempts from this phone’s address: trying again in a minute.',
  pairingClosed: 'Pairing stayed closed on the computer: open it there (GesturePad in the applications menu, or gesturepad pair), then reload this page.',
  deviceLimit: 'The computer has as many phones paired as it keeps: forget one there (gesturepad devices forget NAME), then scan the code again.',
  moveFailed: 'Moving this phone’s pairing to the secure address took too long: open the old (http://) address ' +
    'again to move it, or scan the computer’s code to pair it again.',
  fakeServer: 'The computer’s answer did not prove it knows this phone: not connecting (another device on the network may be pretending to be it).',
  other: 'The server refused the connection, though this phone may connect: another origin, or too many connections.'
};

/** `text` as the observer says it ("this browser"), or as it is. */
export function forRole(text, role) {
  return role === 'observer' ? text.replace(/This phone/g, 'This browser').replace(/this phone/g, 'this browser') : text;
}

/** The text of a pairing close (4403, 4401), said once: the page's own for a removed device;
 * the server's reason (which says why it declined) for a declined one. */
export function pairingClosed(code, reason, role) {
  if (code === PAIRING_DECLINED && reason) return forRole(reason.charAt(0).toUpperCase() + reason.slice(1) + '.', role);
  return forRole(PAIRING_TEXT[code], role);
}

/** Whether a welcome says that this connection drives the computer (CONTROL.md). */
export function controlActive(welcome) { return !!(welcome && welcome.control && welcome.control.active === true); }

/** What the status pill says of a live connection: the computer and what drives it. */
export function liveDetail(welcome, role) {
  const host = typeof welcome.host === 'string' ? welcome.host : '';
  const what = role === 'observer' ? 'all sessions'
    : (controlActive(welcome) ? String(welcome.control.backend || '') : 'gestures only');
  return [host, what].filter(Boolean).join(' · ');
}

/** What the page says while the computer's user has not accepted it yet (--confirm-pairing). */
export function waitingText(m) {
  const name = m.device && typeof m.device.name === 'string' ? m.device.name : 'this phone';
  if (m.state === 'closed') {
    return 'Pairing is closed on the computer. Open it there — GesturePad in the applications menu, its notification, ' +
      'or gesturepad pair — and this phone pairs by itself: no need to scan again.';
  }
  return 'Accept “' + name + '” on the computer (its notification, or gesturepad devices allow).';
}
