/* GesturePad: X25519 (RFC 7748 §5), the page's half of each connection's key exchange
 * (docs/protocol.md "Key exchange"): the page makes an ephemeral key per connection, so that a
 * recorded session cannot be opened later with the credential alone. The page may run in an
 * insecure context (plain http on the LAN), where `crypto.subtle` is absent: this is the
 * Montgomery ladder of the RFC over BigInt, checked against Python's `cryptography` and the
 * server's swift-crypto in tests/browser. It also serves the device's own key pair (docs/protocol.md
 * "Device key pairs"), whose private key is used once per connection. BigInt arithmetic is not
 * constant-time, which docs/security.md weighs. No DOM. */

const P = (1n << 255n) - 19n;
const A24 = 121665n;

function mod(a) { const r = a % P; return r < 0n ? r + P : r; }

function power(base, exponent) {
  let result = 1n, b = mod(base), e = exponent;
  while (e > 0n) {
    if (e & 1n) result = result * b % P;
    b = b * b % P;
    e >>= 1n;
  }
  return result;
}

/** Little-endian bytes as a number. */
function toNumber(bytes) {
  let n = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(bytes[i]);
  return n;
}

function toBytes(n) {
  const out = new Uint8Array(32);
  let v = n;
  for (let i = 0; i < 32; i++) { out[i] = Number(v & 255n); v >>= 8n; }
  return out;
}

/** X25519(scalar, u): both 32 bytes; the scalar clamped and the u-coordinate's top bit
 * ignored, as the RFC says. Returns 32 bytes. */
export function x25519(scalar, u) {
  const k = scalar.slice(0, 32);
  k[0] &= 248; k[31] &= 127; k[31] |= 64;
  const n = toNumber(k);
  const point = u.slice(0, 32);
  point[31] &= 127;
  const x1 = mod(toNumber(point));
  let x2 = 1n, z2 = 0n, x3 = x1, z3 = 1n, swap = 0n;
  for (let t = 254n; t >= 0n; t--) {
    const bit = (n >> t) & 1n;
    swap ^= bit;
    if (swap) { [x2, x3] = [x3, x2]; [z2, z3] = [z3, z2]; }
    swap = bit;
    const a = mod(x2 + z2), aa = a * a % P, b = mod(x2 - z2), bb = b * b % P, e = mod(aa - bb);
    const c = mod(x3 + z3), d = mod(x3 - z3), da = d * a % P, cb = c * b % P;
    const sum = mod(da + cb), difference = mod(da - cb);
    x3 = sum * sum % P;
    z3 = x1 * (difference * difference % P) % P;
    x2 = aa * bb % P;
    z2 = e * mod(aa + A24 * e) % P;
  }
  if (swap) { [x2, x3] = [x3, x2]; [z2, z3] = [z3, z2]; }
  return toBytes(x2 * power(z2, P - 2n) % P);
}

const BASE = (() => { const u = new Uint8Array(32); u[0] = 9; return u; })();

/** The public key of `secret` (32 bytes). */
export function publicKey(secret) { return x25519(secret, BASE); }
