"""The page's own SHA-256, HMAC-SHA256, HKDF-SHA256 (js/sha256.js) and ChaCha20-Poly1305
(js/aead.js), as the browser runs them: against the RFCs' vectors (RFC 6234 / 4231 / 5869 /
8439), against Python's hashlib / hmac on random inputs of every length around the block
boundaries, and sealed boxes that fail to open when anything about them is wrong. (The
server's side, swift-crypto, is met for real in test_browser_wire_proof.py: the key both
derive, the proofs, the sealed typing.)"""
from __future__ import annotations

import hashlib
import hmac
import json
import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from testkit import hkdf  # noqa: E402  (tests/testkit.py: Python's own HKDF, the reference)

from crypto_vectors import VECTORS_JS, check_vectors

MODULES = ("const S = await import('/js/sha256.js'); const A = await import('/js/aead.js');"
           "const hex = (s) => Uint8Array.from((s.match(/../g) || []).map((b) => parseInt(b, 16)));")


@pytest.fixture
def page(browser, server):
    tab = browser.new_page()
    tab.navigate(f"{server.origin}/manifest.json")
    tab.wait_for("document.readyState === 'complete'")
    try:
        yield tab
    finally:
        tab.close()


def run(page, body: str):
    return page.eval(f"(async () => {{ {MODULES} {body} }})()")




def test_rfc_vectors(page):
    """RFC 6234 (SHA-256 'abc', the two-block message, a million 'a'), RFC 4231 cases 1, 2 and
    6 (a key longer than a block), RFC 5869 cases 1 and 3, RFC 8439 §2.3.2, §2.5.2, §2.8.2,
    RFC 7748 §5.2 and §6.1 (the same in every engine: test_browser_engines.py)."""
    check_vectors(page.eval(VECTORS_JS))


def test_against_python_on_random_inputs(page):
    """Every length from 0 to 200 bytes (the padding's edge at 55/56/64 among them): the page's
    SHA-256, HMAC and HKDF give what hashlib / hmac give."""
    cases = [(os.urandom(n), os.urandom(n % 70), os.urandom(n % 13), 1 + n % 90) for n in range(201)]
    data = json.dumps([[m.hex(), k.hex(), i.hex(), length] for m, k, i, length in cases])
    got = run(page, f"""
      return {data}.map(([m, k, i, n]) => [S.toHex(S.sha256(hex(m))), S.toHex(S.hmac(hex(k), hex(m))),
                                          S.toHex(S.hkdf(hex(m), hex(k), hex(i), n))]);""")
    for (message, key, info, length), (digest, mac, okm) in zip(cases, got, strict=True):
        assert digest == hashlib.sha256(message).hexdigest()
        assert mac == hmac.new(key, message, hashlib.sha256).hexdigest()
        assert okm == hkdf(message, key, info, length).hex()


def test_x25519_against_python_on_random_keys(page):
    """The page's X25519 gives what `cryptography`'s gives (OpenSSL's), for 40 random key pairs
    both ways — public keys, and the shared secret each side computes — and for u-coordinates
    with the top bit set (which the RFC says to ignore)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey

    raw = (serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    cases = []
    for _ in range(40):
        mine, theirs = X25519PrivateKey.generate(), X25519PrivateKey.generate()
        mine_bytes = mine.private_bytes(serialization.Encoding.Raw, serialization.PrivateFormat.Raw,
                                        serialization.NoEncryption())
        their_public = theirs.public_key().public_bytes(*raw)
        cases.append((mine_bytes, their_public, mine.public_key().public_bytes(*raw),
                       mine.exchange(X25519PublicKey.from_public_bytes(their_public))))
    data = json.dumps([[k.hex(), u.hex()] for k, u, _, _ in cases])
    got = page.eval(f"""import('/js/x25519.js').then(function (X) {{
      const hex = (s) => Uint8Array.from((s.match(/../g) || []).map((b) => parseInt(b, 16)));
      const toHex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
      return {data}.map(([k, u]) => {{
        const high = hex(u); high[31] |= 128;
        return [toHex(X.publicKey(hex(k))), toHex(X.x25519(hex(k), hex(u))), toHex(X.x25519(hex(k), high))];
      }});
    }})""")
    for (_, _, public, shared), (page_public, page_shared, page_high) in zip(cases, got, strict=True):
        assert page_public == public.hex()
        assert page_shared == shared.hex() and page_high == shared.hex()


def test_sealed_boxes_open_only_unaltered(page):
    """A box opens with its key, nonce and data, back to its text, at every length up to 300
    bytes; with one bit flipped anywhere, another nonce, another key or a cut tag it does not."""
    got = run(page, """
      const key = crypto.getRandomValues(new Uint8Array(32)), nonce = crypto.getRandomValues(new Uint8Array(12));
      const results = [];
      for (let n = 0; n <= 300; n += 7) {
        const text = crypto.getRandomValues(new Uint8Array(n));
        const box = A.seal(key, nonce, text);
        const back = A.open(key, nonce, box);
        const flipped = box.slice(); flipped[(n * 5) % box.length] ^= 1;
        const nonce2 = nonce.slice(); nonce2[11] ^= 1;
        const key2 = key.slice(); key2[0] ^= 1;
        results.push([back !== null && S.toHex(back) === S.toHex(text), A.open(key, nonce, flipped),
                      A.open(key, nonce2, box), A.open(key2, nonce, box), A.open(key, nonce, box.slice(0, -1))]);
      }
      return results;""")
    assert len(got) == 43
    for opened, *refused in got:
        assert opened is True
        assert refused == [None, None, None, None]
