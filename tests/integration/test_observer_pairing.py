"""Issue 42, "Devices", against the real server, from a client written with Python's hashlib /
hmac (docs/protocol.md "Proof handshake", docs/server.md "Observers are paired as observers",
"The same browser pairing again"):

- a pairing whose `auth` says `"kind":"observer"` (the observer page's) pairs an observer:
  `devices.json` keeps `kind`, the name says "Watching · …", `gesturepad devices` has a KIND
  column, and the device's key opens observers only — a touchpad `hello` of it is closed with
  4415; a pairing without `kind` is a touchpad as before; an unknown kind is refused (1008);
- a browser that paired before (the same User-Agent, model and address) pairs again and takes
  its entry over — the same id and (given) name, a new key, the old key told it was removed
  (4411) — only while that entry is not connected and only an entry of the same kind.
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from testkit import PageSeal, Server, close_code, eventually, hkdf, recv_json, stored_devices
from test_devices import devices, listed
from test_proof_handshake import answer_challenge, b64

SECRET = "observer-pairing-" + os.urandom(8).hex()
DESKTOP = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
PIXEL = ("Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) "
         "Chrome/131.0.0.0 Mobile Safari/537.36")


class Proven:
    """A proven connection: its socket, its sealing, and the key a pairing derived."""

    def __init__(self, ws, seal: PageSeal, key: str | None):
        self.ws, self.seal, self.key = ws, seal, key

    def hello(self, role: str = "touchpad") -> dict:
        return self.seal.hello(self.ws, role=role)


def prove(server: Server, credential: str, device: str | None = None, agent: str = DESKTOP,
          **extra) -> Proven:
    """Opens `/ws?proof=1` as a browser with `agent`, proves `credential` (the secret, or the key
    of `device`) with the `extra` auth fields, and reads `authenticated`."""
    ws = server.connect(token=None, path="/ws?proof=1", additional_headers={"User-Agent": agent})
    challenge = recv_json(ws)
    _, server_nonce, client = answer_challenge(ws, challenge, credential, "device" if device else "secret",
                                               device, extra=extra)
    digest = hashlib.sha256(credential.encode()).digest()
    answer = recv_json(ws)
    assert answer["type"] == "authenticated", answer
    key = None if device else b64(hkdf(digest, server_nonce + client, b"gesturepad/1 device key", 32))
    return Proven(ws, PageSeal(digest, server_nonce, client), key)


def stored(server: Server) -> list[dict]:
    return stored_devices(server)


def browser_digest(agent: str, model: str, address: str = "127.0.0.1") -> str:
    return hashlib.sha256(f"gesturepad/1 browser\0{agent}\0{model}\0{address}\0".encode()).hexdigest()


def test_an_observer_pairs_as_an_observer_and_cannot_be_a_touchpad():
    with Server(token=SECRET) as server:
        watcher = prove(server, SECRET, kind="observer")
        welcome = watcher.hello("observer")
        assert welcome["type"] == "welcome" and welcome["device"]["name"] == "Watching · Linux · Chrome", welcome
        device_id = welcome["device"]["id"]
        assert eventually(lambda: len(stored(server)) == 1)
        [entry] = stored(server)
        assert entry["kind"] == "observer" and entry["name"] == "Watching · Linux · Chrome"
        assert entry["keySHA256"] == hashlib.sha256(watcher.key.encode()).hexdigest()
        assert entry["browserSHA256"] == browser_digest(DESKTOP, "")
        assert eventually(lambda: "paired a new observer" in server.stderr()), server.stderr()[-2000:]
        # `gesturepad devices`: the KIND column, and the kind in --json.
        table = devices(server).stdout.splitlines()
        assert table[0].split() == ["NAME", "KIND", "PAIRED", "LAST", "SEEN", "CONNECTED"]
        assert table[1].startswith("Watching · Linux · Chrome") and " observer " in table[1]
        assert [d["kind"] for d in listed(server)] == ["observer"]
        watcher.ws.close()

        # Its key opens an observer as before; a touchpad hello of it is closed with 4415.
        again = prove(server, watcher.key, device=device_id)
        assert again.hello("observer")["device"] == {"id": device_id, "name": "Watching · Linux · Chrome"}
        again.ws.close()
        pad = prove(server, watcher.key, device=device_id)
        pad.ws.send(pad.seal.seal({"type": "hello", "protocol": 1, "role": "touchpad", "width": 390, "height": 844}))
        assert close_code(pad.ws) == 4415
        assert listed(server)[0]["kind"] == "observer", "the device stays paired, as an observer"


def test_a_pairing_without_kind_is_a_touchpad_and_an_unknown_kind_is_refused():
    with Server(token=SECRET) as server:
        phone = prove(server, SECRET, agent=PIXEL, model="Pixel 8")
        assert phone.hello()["device"]["name"] == "Pixel 8 · Chrome"
        assert eventually(lambda: len(stored(server)) == 1)
        assert stored(server)[0]["kind"] == "touchpad"
        ws = server.connect(token=None, path="/ws?proof=1")
        answer_challenge(ws, recv_json(ws), SECRET, "secret", extra={"kind": "desk"})
        assert close_code(ws) == 1008
        assert len(stored(server)) == 1


def test_the_same_browser_pairing_again_takes_its_entry_over():
    with Server(token=SECRET) as server:
        first = prove(server, SECRET, agent=PIXEL, model="Pixel 8")
        device = first.hello()["device"]
        assert eventually(lambda: len(stored(server)) == 1)
        first.ws.close()
        devices(server, "rename", device["name"], "Kitchen phone")

        # Its storage lost (or a new link scanned): the same browser pairs again.
        second = prove(server, SECRET, agent=PIXEL, model="Pixel 8")
        assert second.hello()["device"] == {"id": device["id"], "name": "Kitchen phone"}
        new_digest = hashlib.sha256(second.key.encode()).hexdigest()
        assert eventually(lambda: [d.get("keySHA256") for d in stored(server)] == [new_digest]), stored(server)
        data = json.loads((Path(server.state_home) / "gesturepad" / "devices.json").read_text())
        assert hashlib.sha256(first.key.encode()).hexdigest() in data["forgottenKeys"]
        assert eventually(lambda: "paired again" in server.stderr()), server.stderr()[-2000:]
        # The old key is told it was removed; the new one connects.
        old = server.connect(token=None, path="/ws?proof=1")
        answer_challenge(old, recv_json(old), first.key, "device", device["id"])
        assert close_code(old) == 4411

        # While its entry is connected (the second is open), a third pairing of it is an entry of
        # its own; so is the same browser pairing as an observer.
        third = prove(server, SECRET, agent=PIXEL, model="Pixel 8")
        assert third.hello()["device"]["name"] == "Pixel 8 · Chrome"
        watching = prove(server, SECRET, agent=PIXEL, model="Pixel 8", kind="observer")
        assert watching.hello("observer")["device"]["name"] == "Watching · Pixel 8 · Chrome"
        assert eventually(lambda: len(stored(server)) == 3), stored(server)
        assert sorted((d["name"], d["kind"]) for d in listed(server)) == [
            ("Kitchen phone", "touchpad"), ("Pixel 8 · Chrome", "touchpad"), ("Watching · Pixel 8 · Chrome", "observer")]
        # Another model is another browser.
        other = prove(server, SECRET, agent=PIXEL, model="Pixel 9")
        assert other.hello()["device"]["name"] == "Pixel 9 · Chrome"
        for proven in (second, third, watching, other):
            proven.ws.close()
