"""The RFCs' vectors for the page's own SHA-256, HMAC-SHA256, HKDF-SHA256, ChaCha20-Poly1305 and
X25519 (js/sha256.js, js/aead.js, js/x25519.js): one expression for any engine (it imports the modules itself), and
the check of its result. Used by test_browser_wire_crypto.py (Chromium) and
test_browser_engines.py (every engine)."""
from __future__ import annotations

VECTORS_JS = """Promise.all([import('/js/sha256.js'), import('/js/aead.js'), import('/js/x25519.js')]).then(function (m) {
  const S = m[0], A = m[1], X = m[2];
  const hex = (s) => Uint8Array.from((s.match(/../g) || []).map((b) => parseInt(b, 16)));
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
                         hex('50515253c0c1c2c3c4c5c6c7'))),
    x25519: S.toHex(X.x25519(hex('a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4'),
                             hex('e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c'))),
    alice: S.toHex(X.publicKey(hex('77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a'))),
    bob: S.toHex(X.publicKey(hex('5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb'))),
    shared: S.toHex(X.x25519(hex('77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a'),
                             hex('de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f')))
  };
})"""


def check_vectors(got: dict) -> None:
    """The values the RFCs give."""
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


    # RFC 7748 §5.2 (the first vector) and §6.1 (Alice and Bob).
    assert got["x25519"] == "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552"
    assert got["alice"] == "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a"
    assert got["bob"] == "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f"
    assert got["shared"] == "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742"
