/* GesturePad: ChaCha20-Poly1305 (RFC 8439), the AEAD that seals typed text and keys on the wire
 * (docs/protocol.md "Sealed messages"). The page's own, as sha256.js: no `crypto.subtle` on a
 * plain-http page. Checked in tests/browser against RFC 8439's vectors and the server's
 * swift-crypto `ChaChaPoly`, both ways. Keys are 32 bytes, nonces 12, the tag 16. */

const SIGMA = [0x61707865, 0x3320646e, 0x79622d32, 0x6b206574];

function quarter(s, a, b, c, d) {
  s[a] = (s[a] + s[b]) | 0; s[d] ^= s[a]; s[d] = (s[d] << 16) | (s[d] >>> 16);
  s[c] = (s[c] + s[d]) | 0; s[b] ^= s[c]; s[b] = (s[b] << 12) | (s[b] >>> 20);
  s[a] = (s[a] + s[b]) | 0; s[d] ^= s[a]; s[d] = (s[d] << 8) | (s[d] >>> 24);
  s[c] = (s[c] + s[d]) | 0; s[b] ^= s[c]; s[b] = (s[b] << 7) | (s[b] >>> 25);
}

function word(bytes, at) { return bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16) | (bytes[at + 3] << 24); }

/** One 64-byte ChaCha20 block (RFC 8439 §2.3) for `key`, `counter`, `nonce`. */
export function chachaBlock(key, counter, nonce) {
  const input = new Int32Array(16);
  for (let i = 0; i < 4; i++) input[i] = SIGMA[i];
  for (let i = 0; i < 8; i++) input[4 + i] = word(key, 4 * i);
  input[12] = counter;
  for (let i = 0; i < 3; i++) input[13 + i] = word(nonce, 4 * i);
  const s = input.slice();
  for (let i = 0; i < 10; i++) {
    quarter(s, 0, 4, 8, 12); quarter(s, 1, 5, 9, 13); quarter(s, 2, 6, 10, 14); quarter(s, 3, 7, 11, 15);
    quarter(s, 0, 5, 10, 15); quarter(s, 1, 6, 11, 12); quarter(s, 2, 7, 8, 13); quarter(s, 3, 4, 9, 14);
  }
  const out = new Uint8Array(64);
  for (let i = 0; i < 16; i++) {
    const v = (s[i] + input[i]) | 0;
    out[4 * i] = v; out[4 * i + 1] = v >>> 8; out[4 * i + 2] = v >>> 16; out[4 * i + 3] = v >>> 24;
  }
  return out;
}

/** `data` XORed with the ChaCha20 key stream from block `counter` (RFC 8439 §2.4). */
export function chacha20(key, counter, nonce, data) {
  const out = new Uint8Array(data.length);
  for (let at = 0, block = counter; at < data.length; at += 64, block++) {
    const stream = chachaBlock(key, block, nonce);
    const n = Math.min(64, data.length - at);
    for (let i = 0; i < n; i++) out[at + i] = data[at + i] ^ stream[i];
  }
  return out;
}

/** Poly1305 (RFC 8439 §2.5) of `message` under the 32-byte one-time `key`: 13-bit limbs, so
 * every product fits a double exactly. */
export function poly1305(key, message) {
  const r = new Uint16Array(10), h = new Uint16Array(10), pad = new Uint16Array(8), c = new Uint16Array(10);
  const t = [];
  for (let i = 0; i < 8; i++) t[i] = key[2 * i] | (key[2 * i + 1] << 8);
  r[0] = t[0] & 0x1fff;
  r[1] = ((t[0] >>> 13) | (t[1] << 3)) & 0x1fff;
  r[2] = ((t[1] >>> 10) | (t[2] << 6)) & 0x1f03;
  r[3] = ((t[2] >>> 7) | (t[3] << 9)) & 0x1fff;
  r[4] = ((t[3] >>> 4) | (t[4] << 12)) & 0x00ff;
  r[5] = (t[4] >>> 1) & 0x1ffe;
  r[6] = ((t[4] >>> 14) | (t[5] << 2)) & 0x1fff;
  r[7] = ((t[5] >>> 11) | (t[6] << 5)) & 0x1f81;
  r[8] = ((t[6] >>> 8) | (t[7] << 8)) & 0x1fff;
  r[9] = (t[7] >>> 5) & 0x007f;
  for (let i = 0; i < 8; i++) pad[i] = key[16 + 2 * i] | (key[16 + 2 * i + 1] << 8);
  const d = new Array(10);
  for (let at = 0; at < message.length; at += 16) {
    const block = new Uint8Array(17);
    const n = Math.min(16, message.length - at);
    block.set(message.subarray(at, at + n));
    block[n] = 1;
    const m = [];
    for (let i = 0; i < 9; i++) m[i] = block[2 * i] | (block[2 * i + 1] << 8);
    h[0] += m[0] & 0x1fff;
    h[1] += ((m[0] >>> 13) | (m[1] << 3)) & 0x1fff;
    h[2] += ((m[1] >>> 10) | (m[2] << 6)) & 0x1fff;
    h[3] += ((m[2] >>> 7) | (m[3] << 9)) & 0x1fff;
    h[4] += ((m[3] >>> 4) | (m[4] << 12)) & 0x1fff;
    h[5] += (m[4] >>> 1) & 0x1fff;
    h[6] += ((m[4] >>> 14) | (m[5] << 2)) & 0x1fff;
    h[7] += ((m[5] >>> 11) | (m[6] << 5)) & 0x1fff;
    h[8] += ((m[6] >>> 8) | (m[7] << 8)) & 0x1fff;
    h[9] += ((m[7] >>> 5) | (m[8] << 11)) & 0x1fff;
    let carry = 0;
    for (let i = 0; i < 10; i++) {
      let sum = carry;
      for (let j = 0; j < 10; j++) sum += h[j] * (j <= i ? r[i - j] : 5 * r[i + 10 - j]);
      carry = Math.floor(sum / 8192);
      d[i] = sum % 8192;
    }
    carry = ((carry << 2) + carry) | 0;
    carry += d[0];
    d[0] = carry & 0x1fff;
    carry >>>= 13;
    d[1] += carry;
    for (let i = 0; i < 10; i++) h[i] = d[i];
  }
  // Full carry, then h − p chosen in constant shape.
  let carry = h[1] >>> 13;
  h[1] &= 0x1fff;
  for (let i = 2; i < 10; i++) { h[i] += carry; carry = h[i] >>> 13; h[i] &= 0x1fff; }
  h[0] += carry * 5; carry = h[0] >>> 13; h[0] &= 0x1fff;
  h[1] += carry; carry = h[1] >>> 13; h[1] &= 0x1fff;
  h[2] += carry;
  c[0] = h[0] + 5; carry = c[0] >>> 13; c[0] &= 0x1fff;
  for (let i = 1; i < 10; i++) { c[i] = h[i] + carry; carry = c[i] >>> 13; c[i] &= 0x1fff; }
  c[9] -= 1 << 13;
  let mask = (carry ^ 1) - 1;
  for (let i = 0; i < 10; i++) c[i] &= mask;
  mask = ~mask;
  for (let i = 0; i < 10; i++) h[i] = (h[i] & mask) | c[i];
  const packed = new Uint16Array(8);
  packed[0] = (h[0] | (h[1] << 13)) & 0xffff;
  packed[1] = ((h[1] >>> 3) | (h[2] << 10)) & 0xffff;
  packed[2] = ((h[2] >>> 6) | (h[3] << 7)) & 0xffff;
  packed[3] = ((h[3] >>> 9) | (h[4] << 4)) & 0xffff;
  packed[4] = ((h[4] >>> 12) | (h[5] << 1) | (h[6] << 14)) & 0xffff;
  packed[5] = ((h[6] >>> 2) | (h[7] << 11)) & 0xffff;
  packed[6] = ((h[7] >>> 5) | (h[8] << 8)) & 0xffff;
  packed[7] = ((h[8] >>> 8) | (h[9] << 5)) & 0xffff;
  const tag = new Uint8Array(16);
  let f = packed[0] + pad[0];
  tag[0] = f; tag[1] = f >>> 8;
  for (let i = 1; i < 8; i++) {
    f = (((packed[i] + pad[i]) | 0) + (f >>> 16)) | 0;
    tag[2 * i] = f; tag[2 * i + 1] = f >>> 8;
  }
  return tag;
}

function padTo16(length) { return new Uint8Array((16 - (length % 16)) % 16); }

function lengths(aad, text) {
  const out = new Uint8Array(16);
  const view = new DataView(out.buffer);
  view.setUint32(0, aad.length, true);
  view.setUint32(8, text.length, true);
  return out;
}

function macData(aad, ciphertext) {
  const parts = [aad, padTo16(aad.length), ciphertext, padTo16(ciphertext.length), lengths(aad, ciphertext)];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

/** Seals `plaintext` (RFC 8439 §2.8): ciphertext followed by the 16-byte tag. */
export function seal(key, nonce, plaintext, aad = new Uint8Array(0)) {
  const oneTime = chachaBlock(key, 0, nonce).subarray(0, 32);
  const ciphertext = chacha20(key, 1, nonce, plaintext);
  const tag = poly1305(oneTime, macData(aad, ciphertext));
  const out = new Uint8Array(ciphertext.length + 16);
  out.set(ciphertext);
  out.set(tag, ciphertext.length);
  return out;
}

/** Opens a sealed box (ciphertext and tag); null when it was not sealed with this key, nonce
 * and `aad` — altered, forged, or out of place. */
export function open(key, nonce, box, aad = new Uint8Array(0)) {
  if (box.length < 16) return null;
  const ciphertext = box.subarray(0, box.length - 16);
  const tag = poly1305(chachaBlock(key, 0, nonce).subarray(0, 32), macData(aad, ciphertext));
  let diff = 0;
  for (let i = 0; i < 16; i++) diff |= tag[i] ^ box[box.length - 16 + i];
  return diff === 0 ? chacha20(key, 1, nonce, ciphertext) : null;
}
