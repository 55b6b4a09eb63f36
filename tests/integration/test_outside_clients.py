"""Outside clients that follow PROTOCOL.md (`/ws?token=SECRET`) do not fill the device list
(issue 42; docs/server.md "Outside clients and the device list", docs/security.md "Outside
clients"): the same client pairing again and again with the secret takes the entry it made
before, with a new key, so 100 connections leave one entry; a phone's entry (made by the proof
handshake) is never taken, even with the very same User-Agent; a client that keeps its
`welcome.device.key` reconnects with it and pairs nothing. Real server on a loopback port, real
WebSocket clients, devices.json read from the temp state folder."""
import hashlib
import json
from pathlib import Path

from testkit import PageSeal, Server, eventually, hello, hkdf, recv_json
from test_proof_handshake import b64, prove

SECRET = "outside-client-secret-1-Secret0123456789abcdefZ"
AGENT = "render-bot/2.1 (outside client; +https://example.test)"
CONNECTIONS = 100


def stored(server) -> list[dict]:
    path = Path(server.state_home) / "gesturepad" / "devices.json"
    return json.loads(path.read_text())["devices"] if path.exists() else []


def pair_phone_by_proof(server, agent: str) -> tuple[str, str]:
    """Pairs a 'phone' as the page does (proof of the secret, nothing secret sent); returns
    (its device id, its derived key)."""
    with server.connect(token=None, path="/ws?proof=1", additional_headers={"User-Agent": agent}) as ws:
        _, server_nonce, client = prove(ws, SECRET)
        assert recv_json(ws)["type"] == "authenticated"
        digest = hashlib.sha256(SECRET.encode()).digest()
        welcome = PageSeal(digest, server_nonce, client).hello(ws)
        assert welcome["type"] == "welcome" and "key" not in welcome["device"]
    key = b64(hkdf(digest, server_nonce + client, b"gesturepad/1 device key", 32))
    return welcome["device"]["id"], key


def test_a_hundred_token_connections_leave_one_entry_and_never_touch_a_phone():
    with Server(token=SECRET) as server:
        # A phone with the same User-Agent as the outside client: same name, but paired by proof.
        phone_id, phone_key = pair_phone_by_proof(server, AGENT)
        assert eventually(lambda: len(stored(server)) == 1)
        phone_before = stored(server)[0]
        assert "tokenClient" not in phone_before, "a phone's entry is not marked as an outside client's"

        keys, ids = [], set()
        for _ in range(CONNECTIONS):
            with server.connect(token=SECRET, additional_headers={"User-Agent": AGENT}) as ws:
                welcome = hello(ws)
                assert welcome["type"] == "welcome", welcome
                keys.append(welcome["device"]["key"])
                ids.add(welcome["device"]["id"])
        assert len(ids) == 1 and phone_id not in ids, "one entry, taken again each time, never the phone's"
        assert len(set(keys)) == CONNECTIONS, "a new key each time"
        client_id = ids.pop()

        def settled():
            devices = stored(server)
            return (len(devices) == 2 and
                    any(d["id"] == client_id and d["keySHA256"] == hashlib.sha256(keys[-1].encode()).hexdigest()
                        for d in devices))
        assert eventually(settled), stored(server)
        devices = {d["id"]: d for d in stored(server)}
        outside = [d for d in devices.values() if d.get("tokenClient") is not None]
        assert len(outside) <= 1 and outside[0]["id"] == client_id and outside[0]["tokenClient"] == AGENT
        assert devices[phone_id] == phone_before, "the phone's entry is untouched"

        # The phone still connects with its key; the client's last key works, an earlier one not.
        with server.connect(token=None, path="/ws?proof=1") as ws:
            prove(ws, phone_key, device=phone_id)
            assert recv_json(ws)["type"] == "authenticated"
        with server.connect(token=keys[-1]) as ws:
            welcome = hello(ws)
            assert welcome["device"]["id"] == client_id and "key" not in welcome["device"]
        assert server.refused_upgrade(keys[0]) == 403

        # The recommended way: keep the key and use it as the token — 100 reconnects, no change.
        before = stored(server)
        for _ in range(CONNECTIONS):
            with server.connect(token=keys[-1], additional_headers={"User-Agent": AGENT}) as ws:
                assert hello(ws)["device"]["id"] == client_id
        assert [d["id"] for d in stored(server)] == [d["id"] for d in before]
        assert keys[-1] not in server.stdout() + server.stderr()


def test_another_client_gets_an_entry_of_its_own():
    """Two outside clients (two User-Agents) do not take each other's entry."""
    with Server(token=SECRET) as server:
        for agent in ("client-a/1", "client-b/1", "client-a/1", "client-b/1"):
            with server.connect(token=SECRET, additional_headers={"User-Agent": agent}) as ws:
                assert hello(ws)["type"] == "welcome"
        assert eventually(lambda: sorted(d.get("tokenClient") for d in stored(server)) == ["client-a/1", "client-b/1"]), \
            stored(server)
