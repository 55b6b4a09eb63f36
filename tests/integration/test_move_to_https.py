"""Moving a paired phone to HTTPS (docs/protocol.md "Moving to HTTPS") against the real server,
from a client written with Python's hashlib / hmac / `cryptography`: a phone paired over plain
HTTP, then the server restarted with `--tls` on the same port and state. Its plain proof is
answered with a challenge that says `https`, a sealed `move` with a one-time ticket and close
4426; the ticket proves the device once over wss and gives it a new key (same id, same name,
one entry in devices.json); the old key, a reused ticket and a ticket over plain HTTP open
nothing; the pairing secret over plain HTTP is told to move with no ticket and pairs nothing."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import ssl
from pathlib import Path

import pytest
from websockets.sync.client import connect

from testkit import PageSeal, Server, close_code, eventually, free_port, hkdf, recv_json
from test_proof_handshake import answer_challenge, b64, prove

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is needed by the TLS tests")

SECRET = "move-to-https-" + os.urandom(8).hex()


def insecure() -> ssl.SSLContext:
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


def wss(port: int):
    return connect(f"wss://127.0.0.1:{port}/ws?proof=1", ssl=insecure(), open_timeout=5, close_timeout=3,
                   compression=None, proxy=None)


def answer(ws, credential: str, kind: str, device: str | None) -> tuple[dict, bytes, bytes]:
    """Reads the challenge and answers it keyed by `credential`: (challenge, server, client nonce)."""
    challenge = recv_json(ws)
    assert challenge["type"] == "challenge", challenge
    _, server_nonce, client = answer_challenge(ws, challenge, credential, kind, device)
    return challenge, server_nonce, client


def devices(state_home: Path) -> list[dict]:
    return json.loads((state_home / "gesturepad" / "devices.json").read_text())["devices"]


def derived_key(credential: str, server_nonce: bytes, client: bytes) -> str:
    digest = hashlib.sha256(credential.encode()).digest()
    return b64(hkdf(digest, server_nonce + client, b"gesturepad/1 device key", 32))


def test_a_phone_paired_over_http_moves_to_https_and_keeps_its_pairing(tmp_path):
    state = tmp_path / "state"
    port = free_port()
    env = {"XDG_STATE_HOME": str(state)}
    with Server(token=SECRET, port=port, env=env) as server:
        with server.connect(token=None, path="/ws?proof=1") as ws:
            _, server_nonce, client = prove(ws, SECRET)
            assert recv_json(ws)["type"] == "authenticated"
            seal = PageSeal(hashlib.sha256(SECRET.encode()).digest(), server_nonce, client)
            device = seal.hello(ws)["device"]
        key = derived_key(SECRET, server_nonce, client)
    [paired] = devices(state)
    assert paired["keySHA256"] == hashlib.sha256(key.encode()).hexdigest()

    with Server(token=SECRET, port=port, env=env, extra=["--tls"]) as server:
        # The page still on http://: its proof is the device's, and the answer is only "move".
        with server.connect(token=None, path="/ws?proof=1") as ws:
            challenge, server_nonce, client = answer(ws, key, "device", device["id"])
            assert challenge.get("https") is True
            assert recv_json(ws)["type"] == "authenticated"
            seal = PageSeal(hashlib.sha256(key.encode()).digest(), server_nonce, client)
            frame = ws.recv(timeout=3)
            assert json.loads(frame)["type"] == "sealed", "the move is sealed: an attacker cannot forge one"
            move = seal.open(frame)
            assert move["type"] == "move" and move["to"] == "https" and len(move["ticket"]) == 43, move
            assert close_code(ws) == 4426
        ticket = move["ticket"]
        assert ticket not in server.stderr(), "a ticket is never logged"

        # A ticket is for https only: proved over plain HTTP it is refused, and stays good.
        with server.connect(token=None, path="/ws?proof=1") as ws:
            answer(ws, ticket, "ticket", device["id"])
            assert close_code(ws) == 4410

        # On https the ticket proves the device once: same id and name, a new key.
        with wss(port) as ws:
            challenge, server_nonce, client = answer(ws, ticket, "ticket", device["id"])
            assert "https" not in challenge
            assert recv_json(ws)["type"] == "authenticated"
            welcome = PageSeal(hashlib.sha256(ticket.encode()).digest(), server_nonce, client).hello(ws)
            assert welcome["type"] == "welcome" and welcome["device"] == device, welcome
        new_key = derived_key(ticket, server_nonce, client)
        # The state thread writes devices.json right after the move.
        new_digest = hashlib.sha256(new_key.encode()).hexdigest()
        assert eventually(lambda: [d["keySHA256"] for d in devices(state)] == [new_digest]), devices(state)
        [moved] = devices(state)
        assert moved["id"] == device["id"] and moved["name"] == device["name"]

        # The new key connects over https; the old key and the used ticket open nothing.
        with wss(port) as ws:
            answer(ws, new_key, "device", device["id"])
            assert recv_json(ws)["type"] == "authenticated"
        with wss(port) as ws:
            answer(ws, key, "device", device["id"])
            assert close_code(ws) == 4410
        with wss(port) as ws:
            answer(ws, ticket, "ticket", device["id"])
            assert close_code(ws) == 4410
        assert len(devices(state)) == 1


def test_the_secret_over_plain_http_is_told_to_move_and_pairs_nothing(tmp_path):
    with Server(token=SECRET, env={"XDG_STATE_HOME": str(tmp_path)}, extra=["--tls"]) as server:
        with server.connect(token=None, path="/ws?proof=1") as ws:
            challenge, server_nonce, client = answer(ws, SECRET, "secret", None)
            assert challenge.get("https") is True
            assert recv_json(ws)["type"] == "authenticated"
            move = PageSeal(hashlib.sha256(SECRET.encode()).digest(), server_nonce, client).recv(ws)
            assert move == {"type": "move", "to": "https"}, move
            assert close_code(ws) == 4426
        # A wrong secret over plain HTTP is refused like anywhere else.
        with server.connect(token=None, path="/ws?proof=1") as ws:
            answer(ws, "not-the-secret", "secret", None)
            assert close_code(ws) == 4410
        devices_file = tmp_path / "gesturepad" / "devices.json"
        assert not devices_file.exists() or devices(tmp_path) == []
