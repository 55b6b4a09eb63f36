"""The key exchange (docs/protocol.md "Key exchange") against the real server, from a client
written with Python's hashlib / hmac and `cryptography`'s X25519 (OpenSSL) — independent of the
page's code and of the server's swift-crypto: the challenge carries the server's ephemeral key,
a client that answers with its own gets the server's proof and sealed replies under keys that
mix in the shared secret; what a listener recorded of it cannot be opened afterwards with the
secret and `devices.json` (a test does exactly that), nor does the recorded pairing give the
device's key; an exchange key of small order is refused."""
from __future__ import annotations

import hashlib
import json
import os

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey

from testkit import PageSeal, Server, close_code, eventually, hkdf, recv_json
from test_proof_handshake import b64, mac, unb64

SECRET = "key-exchange-" + os.urandom(8).hex()
RAW = (serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def exchange_answer(ws, credential: str, kind: str, device: str | None = None, public: bytes | None = None):
    """Reads the challenge and answers it with an exchange: (challenge, auth sent, the
    connection's key, the transcript after the server's nonce)."""
    challenge = recv_json(ws)
    server_nonce, theirs = unb64(challenge["nonce"]), unb64(challenge["kx"])
    assert len(theirs) == 32
    mine = X25519PrivateKey.generate()
    mine_public = public if public is not None else mine.public_key().public_bytes(*RAW)
    nonce = os.urandom(32)
    client = nonce + theirs + mine_public
    key = b""
    if public is None:
        shared = mine.exchange(X25519PublicKey.from_public_bytes(theirs))
        digest = hashlib.sha256(credential.encode()).digest()
        key = hkdf(digest + shared, server_nonce + client, b"gesturepad/1 exchange", 32)
    auth = {"type": "auth", "with": kind, "nonce": b64(nonce), "kx": b64(mine_public),
            "proof": b64(mac(key or os.urandom(32), "gesturepad/1 client proof", server_nonce, client))}
    if device:
        auth["device"] = device
    ws.send(json.dumps(auth))
    return challenge, auth, key, client


def test_the_exchange_keys_the_session_and_a_recording_stays_closed(tmp_path):
    with Server(token=SECRET, env={"XDG_STATE_HOME": str(tmp_path)}) as server:
        recorded: list[str] = []  # what a listener on the path keeps, the page's frames
        with server.connect(token=None, path="/ws?proof=1") as ws:
            challenge, auth, key, client = exchange_answer(ws, SECRET, "secret")
            server_nonce = unb64(challenge["nonce"])
            recorded.append(json.dumps(auth))
            authenticated = recv_json(ws)
            assert authenticated == {"type": "authenticated",
                                     "proof": b64(mac(key, "gesturepad/1 server proof", server_nonce, client))}
            seal = PageSeal(key, server_nonce, client)
            hello = seal.seal({"type": "hello", "protocol": 1, "role": "touchpad", "width": 390, "height": 844})
            ws.send(hello)
            recorded.append(hello)
            welcome = seal.recv(ws)
            assert welcome["type"] == "welcome"
            typed = seal.seal({"type": "text", "text": "a password typed"})
            ws.send(typed)
            recorded.append(typed)
            device = welcome["device"]
        device_key = b64(hkdf(key, server_nonce + client, b"gesturepad/1 device key", 32))
        path = tmp_path / "gesturepad" / "devices.json"

        def stored_now() -> list[dict]:
            return json.loads(path.read_text())["devices"] if path.exists() else []

        # The state thread writes devices.json right after the pairing.
        expected = [hashlib.sha256(device_key.encode()).hexdigest()]
        assert eventually(lambda: [d["keySHA256"] for d in stored_now()] == expected), stored_now()
        stored = stored_now()

        # A thief with the secret and devices.json, and the recording: the first handshake's
        # derivations (no exchange) open nothing, and the recorded pairing does not give the key.
        digest = hashlib.sha256(SECRET.encode()).digest()
        nonce = unb64(auth["nonce"])
        for salt_client in (nonce, client):
            thief = PageSeal(digest, server_nonce, salt_client)
            assert thief.open_from_page(recorded[1]) is None
            guessed = b64(hkdf(digest, server_nonce + salt_client, b"gesturepad/1 device key", 32))
            assert hashlib.sha256(guessed.encode()).hexdigest() != stored[0]["keySHA256"]
        # The endpoint's own key opens it (the recording is real).
        mine = PageSeal(key, server_nonce, client)
        assert json.loads(mine.open_from_page(recorded[1]))["type"] == "hello"
        assert "a password typed" in mine.open_from_page(recorded[2])

        # The device reconnects with an exchange too.
        with server.connect(token=None, path="/ws?proof=1") as ws:
            challenge, _, key, client = exchange_answer(ws, device_key, "device", device["id"])
            assert recv_json(ws)["type"] == "authenticated"
            assert PageSeal(key, unb64(challenge["nonce"]), client).hello(ws)["device"] == device


def test_an_exchange_key_of_small_order_or_the_wrong_size_is_refused():
    with Server(token=SECRET) as server:
        for public in (bytes(32), bytes([1]) + bytes(31)):
            with server.connect(token=None, path="/ws?proof=1") as ws:
                exchange_answer(ws, SECRET, "secret", public=public)
                assert close_code(ws) == 1008, public.hex()
        with server.connect(token=None, path="/ws?proof=1") as ws:
            challenge = recv_json(ws)
            ws.send(json.dumps({"type": "auth", "with": "secret", "nonce": b64(os.urandom(32)),
                                "kx": b64(os.urandom(31)), "proof": b64(os.urandom(32))}))
            assert close_code(ws) == 1008
