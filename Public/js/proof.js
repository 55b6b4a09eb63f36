/* GesturePad: the page's half of the proof handshake and of sealing (docs/protocol.md "Proof
 * handshake", "Key exchange", "Device key pairs", "Sealed messages"). No credential crosses the
 * wire: the page answers the server's `challenge` with an HMAC over both nonces and the
 * exchange's public keys, keyed by a mix of X25519 shared secrets — with its device's own key
 * pair and the server's identity key it pinned when it paired — and, while it pairs (or moves
 * over), the SHA-256 of the secret it holds. The device's key pair is made here and its private
 * half never leaves this browser; everything after the proof goes sealed (ChaCha20-Poly1305)
 * with keys derived the same way. No DOM. */
import { concat, fromBase64Url, hkdf, hmac, randomBytes, sha256, toBase64Url, utf8 } from './sha256.js';
import { open, seal } from './aead.js';
import { publicKey, x25519 } from './x25519.js';

const LABEL = {
  clientProof: 'gesturepad/1 client proof',
  serverProof: 'gesturepad/1 server proof',
  deviceKey: 'gesturepad/1 device key',
  sessionKeys: 'gesturepad/1 session keys',
  exchange: 'gesturepad/1 exchange'
};
const NONCE_BYTES = 32;

/** The messages that go in a sealed frame of their own, never batched (every frame is sealed
 * on a proven connection; these also keep their place between batches): what is typed, the
 * buttons, and the media commands. */
export const SEALED_TYPES = { text: 1, key: 1, button: 1, media: 1 };

function transcript(label, server, client) { return concat(utf8(label), Uint8Array.of(0), server, client); }

/** The length a plaintext of `count` bytes is padded to: 64, 128, 256, 512 or 1,024 bytes, then
 * the next multiple of 1,024 (the server pads the same way, SealedChannel.paddedLength). */
export function paddedLength(count) {
  let size = 64;
  while (size < count && size < 1024) size *= 2;
  return count <= size ? size : Math.ceil(count / 1024) * 1024;
}

/** The nonce of message `n` of one direction: four zero bytes, then `n` as 8 bytes LE. */
export function sealNonce(n) {
  const nonce = new Uint8Array(12);
  let value = n;
  for (let i = 4; i < 12; i++) { nonce[i] = value % 256; value = Math.floor(value / 256); }
  return nonce;
}

/** A proven connection's sealing: one key and one count per direction. */
export class Seal {
  constructor(toServer, toPage) {
    this.toServer = toServer; this.toPage = toPage;
    this.sent = 0; this.received = 0;
  }

  /** The frame that carries `message` (one message or a batch) sealed, its text padded with
   * spaces to a size class (`paddedLength`): a frame's length does not tell what it holds. */
  seal(message) {
    const bytes = utf8(JSON.stringify(message));
    const plain = new Uint8Array(paddedLength(bytes.length)).fill(32); // spaces after the JSON
    plain.set(bytes);
    const box = seal(this.toServer, sealNonce(this.sent++), plain);
    return '{"type":"sealed","box":"' + toBase64Url(box) + '"}';
  }

  /** The message inside a sealed frame from the server, or null when it does not open. */
  open(box) {
    const bytes = fromBase64Url(box);
    const plain = bytes && open(this.toPage, sealNonce(this.received), bytes);
    if (!plain) return null;
    this.received++;
    try { return JSON.parse(new TextDecoder().decode(plain)); } catch (e) { return null; }
  }
}

/**
 * The answer to `challenge` (`{type:'challenge', nonce, kx, sk}`) for what the page holds:
 * `credential` = { token, key, id, ticket, desktop, serverKey } (address.js: the device's
 * private key, its id and the server's identity key pinned with it — or, from before key
 * pairs, a shared device key with no `serverKey`; a move ticket and the device's id; or the
 * pairing secret; desktop-feed.js: the desktop key). Returns { message, handshake }: the `auth`
 * message to send, and what to keep — `serverProof` to expect in `authenticated`, the `seal`,
 * and `deviceKey`, `{ secret, server }`: the key pair made for a device this connection pairs,
 * moves or moves over from a shared key, with the server's identity key to pin (kept once
 * `welcome` says so). `kind` is what a pairing (the secret) pairs this browser as: 'observer'
 * from the observer page (the `auth` message's `kind`), else nothing (a touchpad). Null when
 * the challenge is malformed, or lacks a key the page needs (an attacker may have stripped it).
 */
export function answerChallenge(challenge, credential, model, kind) {
  const server = fromBase64Url(challenge && challenge.nonce);
  if (!server || server.length !== NONCE_BYTES) return null;
  // The key exchange (docs/protocol.md "Key exchange"): a server that asks a proof always sends
  // its ephemeral key; one without it may be an attacker stripping it, so the page answers nothing.
  const theirs = fromBase64Url(typeof challenge.kx === 'string' ? challenge.kx : '');
  if (!theirs || theirs.length !== 32) return null;
  const ephemeral = randomBytes(32);
  const mine = publicKey(ephemeral);
  const shared = x25519(ephemeral, theirs);
  if (shared.every((b) => b === 0)) return null;
  const nonce = randomBytes(NONCE_BYTES);
  // What follows the server's nonce in every transcript and salt: the page's nonce, both
  // ephemeral public keys, then — with a device key pair — the server's identity key and the
  // device's public key.
  let client = concat(nonce, theirs, mine);
  let material = shared;
  let pair = null;
  // A device key pair: the one this browser keeps (a paired device, with the identity key it
  // pinned), or a fresh one for a device this connection pairs, moves or moves over.
  const paired = credential.key && credential.serverKey;
  if (!credential.desktop) {
    const identity = fromBase64Url(paired ? credential.serverKey : typeof challenge.sk === 'string' ? challenge.sk : '');
    if (!identity || identity.length !== 32) return null;
    const secret = paired ? fromBase64Url(credential.token) : randomBytes(32);
    if (!secret || secret.length !== 32) return null;
    const device = publicKey(secret);
    const deviceTerm = x25519(secret, theirs), identityTerm = x25519(ephemeral, identity);
    if (deviceTerm.every((b) => b === 0) || identityTerm.every((b) => b === 0)) return null;
    client = concat(client, identity, device);
    material = concat(shared, deviceTerm, identityTerm);
    pair = { device, secret: toBase64Url(secret), server: toBase64Url(identity) };
  }
  // A paired key pair proves itself through the exchanges alone; anything else also by the
  // SHA-256 of the secret it holds.
  const ikm = paired ? material : concat(sha256(utf8(credential.token)), material);
  const digest = hkdf(ikm, concat(server, client), utf8(LABEL.exchange), 32);
  const message = {
    type: 'auth', with: credential.key ? 'device' : credential.ticket ? 'ticket' : credential.desktop ? 'desktop' : 'secret',
    nonce: toBase64Url(nonce), kx: toBase64Url(mine),
    proof: toBase64Url(hmac(digest, transcript(LABEL.clientProof, server, client)))
  };
  if (pair) message.dk = toBase64Url(pair.device);
  if (credential.key || credential.ticket) message.device = credential.id;
  else if (!credential.desktop) {
    if (model) message.model = model;
    if (kind === 'observer') message.kind = kind;
  }
  const keys = hkdf(digest, concat(server, client), utf8(LABEL.sessionKeys), 64);
  const handshake = {
    serverProof: toBase64Url(hmac(digest, transcript(LABEL.serverProof, server, client))),
    seal: new Seal(keys.slice(0, 32), keys.slice(32, 64)),
    deviceKey: pair && !paired ? { secret: pair.secret, server: pair.server } : '',
    // For the tests' reading of the wire (tests/sealing.py): the connection's key and transcript.
    exchange: { key: toBase64Url(digest), client: toBase64Url(client) }
  };
  return { message, handshake };
}
