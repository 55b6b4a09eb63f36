"""The proof handshake and sealing (docs/protocol.md "Proof handshake", "Sealed messages")
against the real server, from a client written with Python's own hashlib / hmac — an
implementation independent of the page's and the server's: the key both sides derive is the one
whose digest the server keeps, a device's later proof connects it, a wrong or replayed proof is
refused with its close code (and no secret or key ever goes on the wire), a plain `text` is
refused `seal_required`, a forged sealed message closes with 4413, and `?token=` still works
from this computer."""
from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
from pathlib import Path

from testkit import PageSeal, Server, close_code, eventually, hello, hkdf, recv_json

SECRET = "proof-integration-" + os.urandom(8).hex()


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))




def mac(key: bytes, label: str, server: bytes, client: bytes) -> bytes:
    return hmac.new(key, label.encode() + b"\0" + server + client, hashlib.sha256).digest()


def prove(ws, credential: str, device: str | None = None, client: bytes | None = None) -> tuple[dict, bytes, bytes]:
    """Answers the challenge: returns (the auth message sent, the server nonce, the client nonce)."""
    challenge = recv_json(ws)
    assert challenge["type"] == "challenge" and challenge["protocol"] == 1
    return answer_challenge(ws, challenge, credential, "device" if device else "secret", device, client)


def answer_challenge(ws, challenge: dict, credential: str, kind: str, device: str | None = None,
                     client: bytes | None = None, extra: dict | None = None) -> tuple[dict, bytes, bytes]:
    """Sends the `auth` of `kind` ("secret", "device", "ticket") keyed by `credential` to
    `challenge`, with the `extra` fields (a pairing's `model`, `kind`): returns (the auth
    message sent, the server nonce, the client nonce)."""
    server_nonce, client = unb64(challenge["nonce"]), client or os.urandom(32)
    assert len(server_nonce) == 32
    digest = hashlib.sha256(credential.encode()).digest()
    auth = {"type": "auth", "with": kind, "nonce": b64(client),
            "proof": b64(mac(digest, "gesturepad/1 client proof", server_nonce, client)), **(extra or {})}
    if device:
        auth["device"] = device
    ws.send(json.dumps(auth))
    return auth, server_nonce, client


def stored_digests(server: Server) -> list[str]:
    """The key digests in devices.json once the new device is there (the server's state thread
    writes it right after the pairing)."""
    path = Path(server.state_home) / "gesturepad" / "devices.json"
    eventually(lambda: path.exists() and json.loads(path.read_text())["devices"])
    data = json.loads(path.read_text())
    return [d["keySHA256"] for d in data["devices"]]


def test_pairing_and_reconnecting_by_proof():
    with Server(token=SECRET) as server:
        with server.connect(token=None, path="/ws?proof=1") as ws:
            _, server_nonce, client = prove(ws, SECRET)
            digest = hashlib.sha256(SECRET.encode()).digest()
            answer = recv_json(ws)
            assert answer == {"type": "authenticated",
                              "proof": b64(mac(digest, "gesturepad/1 server proof", server_nonce, client))}
            seal = PageSeal(digest, server_nonce, client)
            # After the proof everything is sealed, both ways: a plain hello is refused.
            ws.send(json.dumps({"type": "hello", "protocol": 1, "role": "touchpad", "width": 1, "height": 1}))
            assert seal.recv(ws)["code"] == "seal_required"
            welcome = seal.hello(ws)
            assert welcome["type"] == "welcome" and "key" not in welcome["device"]
            device_id = welcome["device"]["id"]
        # The key derived here is the one the server keeps the digest of.
        key = b64(hkdf(digest, server_nonce + client, b"gesturepad/1 device key", 32))
        assert stored_digests(server) == [hashlib.sha256(key.encode()).hexdigest()]

        with server.connect(token=None, path="/ws?proof=1") as ws:
            _, server_nonce, client = prove(ws, key, device=device_id)
            assert recv_json(ws)["type"] == "authenticated"
            seal = PageSeal(hashlib.sha256(key.encode()).digest(), server_nonce, client)
            assert seal.hello(ws)["device"] == {"id": device_id, "name": welcome["device"]["name"]}
            # Every message must come sealed: a plain text, click or unpair is refused, does
            # nothing, and the refusal itself goes sealed.
            for plain in ({"type": "text", "text": "injected"}, {"type": "unpair"},
                          [{"type": "down", "id": 1, "x": 5, "y": 5, "t": 1, "pointerType": "mouse", "buttons": 1},
                           {"type": "up", "id": 1, "x": 5, "y": 5, "t": 2, "pointerType": "mouse"}]):
                ws.send(json.dumps(plain))
                frame = ws.recv(timeout=3)
                assert json.loads(frame)["type"] == "sealed"
                refused = seal.open(frame)
                assert refused["type"] == "error" and refused["code"] == "seal_required"
            # A sealed ping is answered, sealed.
            ws.send(seal.seal({"type": "ping", "t": 7}))
            pong = seal.recv(ws)
            assert pong["type"] == "pong" and pong["t"] == 7
            # Sealed is one exact shape (the page's); spelled otherwise it is a plain frame.
            ws.send(json.dumps({"type": "sealed", "box": b64(os.urandom(40))}))
            assert seal.recv(ws)["code"] == "seal_required"
            # A forged sealed message closes the connection.
            ws.send(json.dumps({"type": "sealed", "box": b64(os.urandom(40))}, separators=(",", ":")))
            assert close_code(ws) == 4413

        # A wrong key for the device, and a replayed answer, are refused after the upgrade.
        with server.connect(token=None, path="/ws?proof=1") as ws:
            recorded, _, _ = prove(ws, "s" * 43, device=device_id)
            assert close_code(ws) == 4410
        with server.connect(token=None, path="/ws?proof=1") as ws:
            first, _, _ = prove(ws, key, device=device_id)
            assert recv_json(ws)["type"] == "authenticated"
        with server.connect(token=None, path="/ws?proof=1") as ws:
            assert recv_json(ws)["type"] == "challenge"
            ws.send(json.dumps(first))  # the earlier connection's answer, byte for byte
            assert close_code(ws) == 4410


def test_a_forgotten_device_and_a_malformed_answer():
    with Server(token=SECRET) as server:
        with server.connect(token=None, path="/ws?proof=1") as ws:
            _, server_nonce, client = prove(ws, SECRET)
            recv_json(ws)
            device_id = PageSeal(hashlib.sha256(SECRET.encode()).digest(), server_nonce, client).hello(ws)["device"]["id"]
        key = b64(hkdf(hashlib.sha256(SECRET.encode()).digest(), server_nonce + client, b"gesturepad/1 device key", 32))
        with server.connect(token=None, path="/ws?proof=1") as ws:
            _, server_nonce, client = prove(ws, key, device=device_id)
            recv_json(ws)
            seal = PageSeal(hashlib.sha256(key.encode()).digest(), server_nonce, client)
            seal.hello(ws)
            ws.send(seal.seal({"type": "unpair"}))
            assert close_code(ws) == 4403
        with server.connect(token=None, path="/ws?proof=1") as ws:
            prove(ws, key, device=device_id)
            assert close_code(ws) == 4411
        with server.connect(token=None, path="/ws?proof=1") as ws:
            recv_json(ws)
            ws.send(json.dumps({"type": "hello", "protocol": 1, "role": "touchpad", "width": 1, "height": 1}))
            assert close_code(ws) == 1008


def test_a_token_in_the_address_from_this_computer():
    """PROTOCOL.md's `?token=`, from loopback: it pairs, and its welcome hands the key."""
    with Server(token=SECRET) as server:
        with server.connect() as ws:
            device = hello(ws)["device"]
            assert len(device["key"]) == 43
            assert stored_digests(server) == [hashlib.sha256(device["key"].encode()).hexdigest()]


def test_no_auth_asks_for_no_proof():
    with Server(token=None, extra=["--no-auth"]) as server:
        with server.connect(token=None, path="/ws?proof=1") as ws:
            assert recv_json(ws) == {"type": "challenge", "protocol": 1, "auth": False}
            assert hello(ws)["type"] == "welcome"


def lan_address() -> str | None:
    """This machine's address on its first network (not loopback), if it has one."""
    import socket
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # no packet is sent: only the route is looked up
        address = probe.getsockname()[0]
    except OSError:
        return None
    finally:
        probe.close()
    return None if address.startswith("127.") else address


def test_a_token_in_the_address_from_another_machine_as_the_contract_says():
    """From an address that is not this computer's loopback, on a plain server, `?token=` is
    taken as PROTOCOL.md "Connecting" says — with one notice in the log that it crossed in
    clear — but pairs no device (no key in its welcome: issue 40), while `GET /pairing?token=`
    (additive) is refused with 403; the proof handshake pairs from there without sending
    anything reusable."""
    import urllib.error
    import urllib.request

    import pytest
    from websockets.sync.client import connect

    address = lan_address()
    if address is None:
        pytest.skip("no network address besides loopback")
    with Server(token=SECRET, extra=["--host", "0.0.0.0"]) as server:
        for _ in range(2):
            with connect(f"ws://{address}:{server.port}/ws?token={SECRET}", open_timeout=5, proxy=None) as ws:
                welcome = hello(ws)
                # Connected, not paired: no device, so no device key crossing in clear.
                assert welcome["type"] == "welcome" and "device" not in welcome, welcome
        warnings = [line for line in server.stderr().splitlines() if "over plain HTTP, as the protocol allows outside clients" in line]
        assert len(warnings) == 1 and SECRET not in warnings[0], warnings
        with pytest.raises(urllib.error.HTTPError) as status:
            urllib.request.build_opener(urllib.request.ProxyHandler({})).open(
                f"http://{address}:{server.port}/pairing?token={SECRET}", timeout=5)
        assert status.value.code == 403
        with connect(f"ws://{address}:{server.port}/ws?proof=1", open_timeout=5, proxy=None) as ws:
            _, server_nonce, client = prove(ws, SECRET)
            assert recv_json(ws)["type"] == "authenticated"
            assert PageSeal(hashlib.sha256(SECRET.encode()).digest(), server_nonce, client).hello(ws)["device"]["id"]


def test_the_desktop_key_proves_a_watcher_from_this_computer_only():
    """The desktop page's feed (docs/server.md "The desktop page") proves the desktop key
    (`with` "desktop"): from this computer it is connected, sealed, and pairs nothing; the
    same proof from the network, or a wrong key, is refused (4410)."""
    import pytest
    from websockets.sync.client import connect

    with Server(token=SECRET) as server:
        path = Path(server.state_home) / "gesturepad" / "desktop-key"
        eventually(path.exists)
        key = path.read_text().strip()
        with server.connect(token=None, path="/ws?proof=1") as ws:
            challenge = recv_json(ws)
            _, server_nonce, client = answer_challenge(ws, challenge, key, "desktop")
            assert recv_json(ws)["type"] == "authenticated"
            seal = PageSeal(hashlib.sha256(key.encode()).digest(), server_nonce, client)
            welcome = seal.hello(ws, role="observer")
            assert welcome["type"] == "welcome" and "device" not in welcome, welcome
        with server.connect(token=None, path="/ws?proof=1") as ws:
            answer_challenge(ws, recv_json(ws), "A" * 43, "desktop")
            assert close_code(ws) == 4410
        devices_file = Path(server.state_home) / "gesturepad" / "devices.json"
        assert not devices_file.exists() or json.loads(devices_file.read_text())["devices"] == []
        address = lan_address()
        if address is None:
            pytest.skip("no network address besides loopback")
    with Server(token=SECRET, extra=["--host", "0.0.0.0"]) as server:
        key = (Path(server.state_home) / "gesturepad" / "desktop-key").read_text().strip()
        with connect(f"ws://{address}:{server.port}/ws?proof=1", open_timeout=5, proxy=None) as ws:
            answer_challenge(ws, recv_json(ws), key, "desktop")
            assert close_code(ws) == 4410
