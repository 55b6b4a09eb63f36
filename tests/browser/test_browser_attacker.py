"""An attacker on the path, not just a listener (issue 40; docs/security.md "An attacker on the
path"): the real page in Chromium, Firefox and WebKit pairs with the real server through a
proxy (wire_capture.py) that rewrites one of the server's handshake messages on the way — the
challenge turned into one that asks no proof (`auth: false`), the server's proof replaced by a
welcome carrying a key of the attacker's, a second challenge in place of the proof, or the
server's identity key stripped or swapped (docs/protocol.md "Device key pairs"). The
page must hang up, say that the computer did not prove itself, keep no key and send nothing
more — above all no input in clear. The genuine welcome crosses sealed: there is none to put a
key in, and the page pairs with the key it derived itself."""
from __future__ import annotations

import base64
import json
import os

import pytest

from browser_harness import Server
from wire_capture import behind_proxy, client_view

EVIL_KEY = "attacker-chosen-key-" + "A" * 23
REFUSED = "window.gesturepad && window.gesturepad.status === 'refused'"
LIVE = "window.gesturepad && window.gesturepad.status === 'live'"


def rewrite(kind: str, change):
    """alter_down for the proxy: the first server frame whose message (or a batch's message) is
    of type `kind` becomes change(message) → the message(s) sent in its place."""
    def alter(payload: bytes) -> bytes | None:
        try:
            data = json.loads(payload)
        except ValueError:
            return None
        messages = data if isinstance(data, list) else [data]
        if not any(isinstance(m, dict) and m.get("type") == kind for m in messages):
            return None
        out = []
        for m in messages:
            out += change(m) if isinstance(m, dict) and m.get("type") == kind else [m]
        return json.dumps(out if len(out) != 1 else out[0], separators=(",", ":")).encode()
    return alter


ATTACKS = {
    # A stripped handshake: the server "needs no proof", so the page would keep no seal.
    "no proof asked": ("challenge", lambda m: [{"type": "challenge", "auth": False}]),
    # The server's proof dropped, a welcome with the attacker's key in its place.
    "welcome before the proof": ("authenticated", lambda m: [
        {"type": "welcome", "session": 1, "host": "evil", "device": {"id": "evil", "name": "evil", "key": EVIL_KEY}}]),
    # The handshake again, out of order.
    "a second challenge": ("authenticated", lambda m: [{"type": "challenge", "nonce": "AAAAAAAAAAAAAAAAAAAAAA"}]),
    # The server's identity key stripped (docs/protocol.md "Device key pairs"): the page makes
    # no key pair it could not bind to this computer.
    "no identity key": ("challenge", lambda m: [{k: v for k, v in m.items() if k != "sk"}]),
}


def attacker_identity() -> str:
    """A real X25519 public key, the attacker's, as base64url."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

    raw = X25519PrivateKey.generate().public_key().public_bytes(
        serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


@pytest.fixture
def attacked():
    """A server of its own behind a proxy that can rewrite what the page receives."""
    yield from behind_proxy(Server(token="attacked--Secret0123456789abcdefZ" + os.urandom(12).hex(), log_name="browser-attacker.log"))


def page_messages(proxy) -> list[dict]:
    """Every message the page sent over WebSocket through the proxy, batches flattened."""
    out: list[dict] = []
    for recording in proxy.snapshot():
        for frame in client_view(recording)[1]:
            if frame.opcode == 1:
                data = json.loads(frame.payload)
                out += data if isinstance(data, list) else [data]
    return out


@pytest.mark.parametrize("attack", list(ATTACKS))
def test_a_rewritten_handshake_is_refused(engine, attacked, attack):
    server, proxy = attacked
    kind, change = ATTACKS[attack]
    proxy.alter_down = rewrite(kind, change)
    page = engine.page()
    try:
        page.open(f"http://127.0.0.1:{proxy.port}/#token={server.token}")
        page.wait_for(REFUSED, 10)
        assert proxy.alter_down is None, "the rewritten message never came"
        assert "did not prove it knows this phone" in page.eval("window.gesturepad.detail")
        assert page.eval("localStorage.getItem('gesturepad.deviceKey')") in (None, "")
        assert page.eval("window.gesturepad.device") is None
        sent = page_messages(proxy)
        # At most the proof of the secret and the (sealed) hello that goes with it; no input,
        # no text, nothing in clear.
        assert [m.get("type") for m in sent] in ([], ["auth", "sealed"]), sent
        assert page.eval("window.gesturepad.closes.length") <= 1
        assert page.console_errors() == []
    finally:
        page.close()


def test_the_welcome_is_out_of_the_attackers_reach(engine, attacked):
    """The welcome goes sealed: there is no plain one to put a key in, and the page keeps the
    key it derived."""
    server, proxy = attacked
    proxy.alter_down = rewrite("welcome", lambda m: [
        dict(m, device=dict(m.get("device") or {}, key=EVIL_KEY))])
    page = engine.page()
    try:
        page.open(f"http://127.0.0.1:{proxy.port}/#token={server.token}")
        page.wait_for(LIVE, 10)
        assert proxy.alter_down is not None, "a plain welcome crossed the wire"
        key = page.wait_for("localStorage.getItem('gesturepad.deviceKey')")
        assert key != EVIL_KEY and len(key) == 43
        sent = page_messages(proxy)
        assert sent[0]["type"] == "auth" and all(m.get("type") == "sealed" for m in sent[1:]), sent
        assert page.console_errors() == []
    finally:
        page.close()


def test_a_swapped_identity_key_pins_nothing(engine, attacked):
    """The challenge's identity key replaced by the attacker's while the page pairs: the page's
    proof binds the key it was given, the real server's does not match it and refuses the
    proof, and the page pins no identity and keeps no key pair — it sends nothing but its proof
    and the sealed hello that goes with it."""
    server, proxy = attacked
    proxy.alter_down = rewrite("challenge", lambda m: [dict(m, sk=attacker_identity())])
    page = engine.page()
    try:
        page.open(f"http://127.0.0.1:{proxy.port}/#token={server.token}")
        page.wait_for(REFUSED, 10)
        assert proxy.alter_down is None, "the rewritten challenge never came"
        assert page.eval("window.gesturepad.closes")[0] == 4410
        for name in ("deviceKey", "serverKey", "deviceId"):
            assert page.eval(f"localStorage.getItem('gesturepad.{name}')") in (None, ""), name
        sent = page_messages(proxy)
        assert [m.get("type") for m in sent] in (["auth"], ["auth", "sealed"]), sent
        assert page.console_errors() == []
    finally:
        page.close()


def test_plain_messages_after_the_proof_are_not_believed(engine, attacked):
    """After the server proved itself, everything it says comes sealed but the gesture feed: a
    plain `control`, `held`, `media`, `error` or a second `welcome` slipped in by the attacker —
    here batched with the genuine sealed welcome — is not believed, and the page goes live on
    the genuine one."""
    server, proxy = attacked
    injected = [
        {"type": "control", "active": False, "reason": "injected by the attacker"},
        {"type": "held", "buttons": ["left"], "keys": ["Shift"]},
        {"type": "media", "available": True, "title": "injected by the attacker", "players": []},
        {"type": "error", "code": "bad_field", "message": "injected by the attacker"},
        {"type": "welcome", "session": 99, "host": "evil", "device": {"id": "evil", "name": "evil", "key": EVIL_KEY}},
    ]

    def slip_in(payload: bytes) -> bytes | None:
        if not payload.startswith(b'{"type":"sealed"'):
            return None
        return b"[" + payload + b"," + b",".join(json.dumps(m).encode() for m in injected) + b"]"

    proxy.alter_down = slip_in
    page = engine.page()
    try:
        page.open(f"http://127.0.0.1:{proxy.port}/#token={server.token}")
        page.wait_for(LIVE, 10)
        assert proxy.alter_down is None, "no sealed frame came to slip the messages in with"
        received = page.eval("JSON.stringify(window.gesturepad.received)")
        assert "injected by the attacker" not in received and '"evil"' not in received, received
        assert page.eval("window.gesturepad.session") != 99
        key = page.wait_for("localStorage.getItem('gesturepad.deviceKey')")
        assert key != EVIL_KEY
        assert page.console_errors() == []
    finally:
        page.close()
