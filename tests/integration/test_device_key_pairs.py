"""Device key pairs (docs/protocol.md "Device key pairs") against the real server, from a client
written with Python's hashlib / hmac and `cryptography`'s X25519 — independent of the page's
code and of the server's swift-crypto. A phone pairs with a key pair made on its side and the
server keeps only the public half; a copy of `devices.json` taken after a recorded session
neither opens that session nor connects (a test does exactly that, with the pairing secret
too); a phone of the shared-key era moves over by proving its old key once; a client that
mixes in an identity key other than the server's gets no proof."""
from __future__ import annotations

import hashlib
import json
import os
import shutil

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey

from testkit import PageSeal, Server, close_code, eventually, hkdf, recv_json
from test_proof_handshake import b64, mac, unb64

SECRET = "key-pairs-" + os.urandom(8).hex()
RAW = (serialization.Encoding.Raw, serialization.PublicFormat.Raw)
PRIVATE_RAW = (serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption())


def public(key: X25519PrivateKey) -> bytes:
    return key.public_key().public_bytes(*RAW)


def key_pair_answer(ws, kind: str, device: X25519PrivateKey, shared_text: str | None,
                    device_id: str | None = None, pinned: bytes | None = None,
                    claimed: bytes | None = None):
    """Reads the challenge and answers it as a phone with key pair `device`: the identity key
    mixed in is `pinned` (a paired phone's) or the challenge's `sk` (a pairing); `shared_text` is
    the secret or old key also proved, if any; `claimed` is the public key sent as `dk` (a thief
    claims a stored one). Returns (challenge, auth, the connection's key, the transcript after
    the server's nonce)."""
    challenge = recv_json(ws)
    server_nonce, theirs = unb64(challenge["nonce"]), unb64(challenge["kx"])
    identity = pinned if pinned is not None else unb64(challenge["sk"])
    ephemeral = X25519PrivateKey.generate()
    nonce = os.urandom(32)
    dk = claimed if claimed is not None else public(device)
    client = nonce + theirs + public(ephemeral) + identity + dk
    shared = (ephemeral.exchange(X25519PublicKey.from_public_bytes(theirs))
              + device.exchange(X25519PublicKey.from_public_bytes(theirs))
              + ephemeral.exchange(X25519PublicKey.from_public_bytes(identity)))
    digest = hashlib.sha256(shared_text.encode()).digest() if shared_text is not None else b""
    key = hkdf(digest + shared, server_nonce + client, b"gesturepad/1 exchange", 32)
    auth = {"type": "auth", "with": kind, "nonce": b64(nonce), "kx": b64(public(ephemeral)), "dk": b64(dk),
            "proof": b64(mac(key, "gesturepad/1 client proof", server_nonce, client))}
    if device_id:
        auth["device"] = device_id
    ws.send(json.dumps(auth))
    return challenge, auth, key, client


def stored(server_state, predicate) -> list[dict]:
    path = server_state / "gesturepad" / "devices.json"
    read = lambda: json.loads(path.read_text())["devices"] if path.exists() else []  # noqa: E731
    assert eventually(lambda: predicate(read())), read()
    return read()


def test_a_stolen_devices_json_neither_opens_a_recorded_session_nor_connects(tmp_path):
    with Server(token=SECRET, env={"XDG_STATE_HOME": str(tmp_path)}) as server:
        phone = X25519PrivateKey.generate()
        recorded: list[tuple[str, bytes, bytes]] = []  # (frame, server nonce, client transcript)
        with server.connect(token=None, path="/ws?proof=1") as ws:
            challenge, auth, key, client = key_pair_answer(ws, "secret", phone, SECRET)
            identity = unb64(challenge["sk"])
            server_nonce = unb64(challenge["nonce"])
            assert recv_json(ws) == {"type": "authenticated",
                                     "proof": b64(mac(key, "gesturepad/1 server proof", server_nonce, client))}
            seal = PageSeal(key, server_nonce, client)
            welcome = seal.hello(ws)
            assert "key" not in welcome["device"]  # nothing to keep comes from the wire
            device_id = welcome["device"]["id"]
            typed = seal.seal({"type": "text", "text": "a password typed"})
            ws.send(typed)
            recorded.append((typed, server_nonce, client))
            pairing_key = key
        # devices.json keeps the phone's public key, and no key or digest of one.
        devices = stored(tmp_path, lambda d: len(d) == 1)
        assert devices[0]["publicKey"] == b64(public(phone)) and "keySHA256" not in devices[0]
        assert oct((tmp_path / "gesturepad" / "devices.json").stat().st_mode & 0o777) == "0o600"

        # The phone reconnects with its private key and the identity it pinned.
        with server.connect(token=None, path="/ws?proof=1") as ws:
            challenge, _, key, client = key_pair_answer(ws, "device", phone, None, device_id, pinned=identity)
            assert recv_json(ws)["type"] == "authenticated"
            seal = PageSeal(key, unb64(challenge["nonce"]), client)
            assert seal.hello(ws)["device"]["id"] == device_id
            # A plain frame on the proven connection is refused whole.
            ws.send(json.dumps({"type": "text", "text": "plain"}))
            assert seal.recv(ws)["code"] == "seal_required"

        stolen = tmp_path / "stolen.json"
        shutil.copy(tmp_path / "gesturepad" / "devices.json", stolen)
        entry = json.loads(stolen.read_text())["devices"][0]
        stored_text = entry["publicKey"]

        def opener(key: bytes, server_nonce: bytes, client: bytes) -> PageSeal:
            seal = PageSeal(key, server_nonce, client)
            seal.sent = 1  # the typed frame was the page's second, after its hello
            return seal

        # The thief, with the file and the secret, tries every key the recording and the file
        # suggest: none opens the typed frame.
        frame, server_nonce, client = recorded[0]
        candidates = [hashlib.sha256(SECRET.encode()).digest(), hashlib.sha256(stored_text.encode()).digest(),
                      unb64(stored_text)]
        for candidate in candidates:
            for salt in (client, client[:32]):
                assert opener(candidate, server_nonce, salt).open_from_page(frame) is None
        # The connection's own key opens it: the recording is real.
        assert "a password typed" in opener(pairing_key, server_nonce, client).open_from_page(frame)

        # The thief connects as the phone: claiming its public key with another private key,
        # or proving the stored text as a shared key (with and without the exchange).
        with server.connect(token=None, path="/ws?proof=1") as ws:
            key_pair_answer(ws, "device", X25519PrivateKey.generate(), None, device_id, pinned=identity,
                            claimed=unb64(stored_text))
            assert close_code(ws) == 4410
        with server.connect(token=None, path="/ws?proof=1") as ws:
            challenge = recv_json(ws)
            nonce = os.urandom(32)
            digest = hashlib.sha256(stored_text.encode()).digest()
            ws.send(json.dumps({"type": "auth", "with": "device", "device": device_id, "nonce": b64(nonce),
                                "proof": b64(mac(digest, "gesturepad/1 client proof", unb64(challenge["nonce"]),
                                                 nonce))}))
            assert close_code(ws) == 4410
        # Nor does the file let anyone pose as the computer to the phone: the phone's proof,
        # keyed with the identity it pinned, does not verify for a server with another key.
        impostor = X25519PrivateKey.generate()
        with server.connect(token=None, path="/ws?proof=1") as ws:
            key_pair_answer(ws, "device", phone, None, device_id, pinned=public(impostor))
            assert close_code(ws) == 4410


def test_a_shared_key_phone_moves_over_to_a_key_pair(tmp_path):
    with Server(token=SECRET, env={"XDG_STATE_HOME": str(tmp_path)}) as server:
        # A phone of the shared-key era: paired by the first handshake (no key pair), which
        # derives the key on both sides; the server keeps its digest.
        with server.connect(token=None, path="/ws?proof=1") as ws:
            challenge = recv_json(ws)
            server_nonce, nonce = unb64(challenge["nonce"]), os.urandom(32)
            digest = hashlib.sha256(SECRET.encode()).digest()
            ws.send(json.dumps({"type": "auth", "with": "secret", "nonce": b64(nonce),
                                "proof": b64(mac(digest, "gesturepad/1 client proof", server_nonce, nonce))}))
            assert recv_json(ws)["type"] == "authenticated"
            device_id = PageSeal(digest, server_nonce, nonce).hello(ws)["device"]["id"]
        old = b64(hkdf(digest, server_nonce + nonce, b"gesturepad/1 device key", 32))
        assert stored(tmp_path, lambda d: len(d) == 1)[0]["keySHA256"] == hashlib.sha256(old.encode()).hexdigest()

        # Its next connection proves the old key with a key pair of its own: it is let in as
        # itself, and devices.json keeps the public key in place of the digest.
        phone = X25519PrivateKey.generate()
        with server.connect(token=None, path="/ws?proof=1") as ws:
            challenge, _, key, client = key_pair_answer(ws, "device", phone, old, device_id)
            identity = unb64(challenge["sk"])
            assert recv_json(ws)["type"] == "authenticated"
            assert PageSeal(key, unb64(challenge["nonce"]), client).hello(ws)["device"]["id"] == device_id
        devices = stored(tmp_path, lambda d: d and "publicKey" in d[0])
        assert devices[0]["publicKey"] == b64(public(phone)) and "keySHA256" not in devices[0]
        assert devices[0]["id"] == device_id

        # From then on the key pair connects, and the old key opens nothing.
        with server.connect(token=None, path="/ws?proof=1") as ws:
            key_pair_answer(ws, "device", phone, None, device_id, pinned=identity)
            assert recv_json(ws)["type"] == "authenticated"
        with server.connect(token=None, path="/ws?proof=1") as ws:
            key_pair_answer(ws, "device", X25519PrivateKey.generate(), old, device_id)
            assert close_code(ws) == 4410


def test_the_identity_key_is_kept_private_and_stable(tmp_path):
    identities = []
    for _ in range(2):
        with Server(token=SECRET, env={"XDG_STATE_HOME": str(tmp_path)}) as server:
            with server.connect(token=None, path="/ws?proof=1") as ws:
                identities.append(recv_json(ws)["sk"])
            log = server.stdout() + server.stderr()
    path = tmp_path / "gesturepad" / "identity-key"
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    private = X25519PrivateKey.from_private_bytes(unb64(path.read_text().strip()))
    assert identities[0] == identities[1] == b64(public(private))
    assert path.read_text().strip() not in log
