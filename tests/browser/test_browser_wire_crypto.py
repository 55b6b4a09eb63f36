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

import pytest

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


def hkdf(ikm: bytes, salt: bytes, info: bytes, length: int) -> bytes:
    prk = hmac.new(salt or bytes(32), ikm, hashlib.sha256).digest()
    out, block, counter = b"", b"", 1
    while len(out) < length:
        block = hmac.new(prk, block + info + bytes([counter]), hashlib.sha256).digest()
        out += block
        counter += 1
    return out[:length]


def test_rfc_vectors(page):
    """RFC 6234 (SHA-256 'abc', the two-block message, a million 'a'), RFC 4231 cases 1, 2 and
    6 (a key longer than a block), RFC 5869 cases 1 and 3, RFC 8439 §2.3.2, §2.5.2, §2.8.2."""
    got = run(page, """
      const u = (t) => new TextEncoder().encode(t);
      return {
        abc: S.toHex(S.sha256(u('abc'))),
        two: S.toHex(S.sha256(u('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq'))),
        million: S.toHex(S.sha256(new Uint8Array(1000000).fill(97))),
        hmac1: S.toHex(S.hmac(hex('0b'.repeat(20)), u('Hi There'))),
        hmac2: S.toHex(S.hmac(u('Jefe'), u('what do ya want for nothing?'))),
        hmac6: S.toHex(S.hmac(hex('aa'.repeat(131)), u('Test Using Larger Than Block-Size Key - Hash Key First'))),
        hkdf1: S.toHex(S.hkdf(hex('0b'.repeat(22)), hex('000102030405060708090a0b0c'), hex('f0f1f2f3f4f5f6f7f8f9'), 42)),
        hkdf3: S.toHex(S.hkdf(hex('0b'.repeat(22)), new Uint8Array(0), new Uint8Array(0), 42)),
        block: S.toHex(A.chachaBlock(hex('000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f'), 1,
                                     hex('000000090000004a00000000'))),
        poly: S.toHex(A.poly1305(hex('85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b'),
                                 u('Cryptographic Forum Research Group'))),
        aead: S.toHex(A.seal(hex('808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f'),
                             hex('070000004041424344454647'),
                             u("Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it."),
                             hex('50515253c0c1c2c3c4c5c6c7')))
      };""")
    assert got["abc"] == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    assert got["two"] == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    assert got["million"] == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
    assert got["hmac1"] == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
    assert got["hmac2"] == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
    assert got["hmac6"] == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
    assert got["hkdf1"] == ("3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf"
                            "34007208d5b887185865")
    assert got["hkdf3"] == ("8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d"
                            "9d201395faa4b61a96c8")
    assert got["block"] == ("10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
                            "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e")
    assert got["poly"] == "a8061dc1305136c6c22b8baf0c0127a9"
    aead = got["aead"]
    assert aead.startswith("d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d6")
    assert aead.endswith("1ae10b594f09e26a7e902ecbd0600691")


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
