"""Nothing secret on the wire (issue 32; docs/protocol.md "Proof handshake", "Sealed messages";
docs/security.md): the real page in headless Chromium and the real server driving a private
Xvfb, with a recording TCP proxy between them (wire_capture.py) that keeps every byte — the
page's files, its pairing, a reconnect, and "correct horse battery staple" typed on the soft
keyboard. The capture is read as a listener would: the HTTP requests and every WebSocket frame,
the page's unmasked. Neither the pairing secret, nor the device key, nor the typed text is in
it; the recorded handshake replayed to the server is refused; a sealed message altered on the
way closes the connection and types nothing."""
from __future__ import annotations

import hashlib
import json
import os
import socket
import time
from pathlib import Path

import pytest

from browser_harness import Server, key_event, no_console_errors, tap_element
from sealing import PageSeal, unb64
from wire_capture import behind_proxy, client_view, parse_frames, server_frames, split_head

TYPED = "correct horse battery staple"
LIVE = ("window.gesturepad && window.gesturepad.status === 'live' && !!window.gesturepad.settings")


@pytest.fixture
def wired(xserver):
    """A server with its own secret that drives the private X display, behind the proxy."""
    secret = "wire-proof-" + os.urandom(12).hex()
    yield from behind_proxy(
        Server(token=secret, control="x11", env={"DISPLAY": xserver.name}, log_name="browser-wire-proof.log"))


def open_keyboard(page) -> None:
    tap_element(page, "#keyboard")
    page.wait_for("window.gesturepad.keyboard && window.gesturepad.keyboard.open && document.activeElement.id === 'kbd-input'")


def type_and_see(page, x, text: str) -> str:
    """Types `text` on the soft keyboard; what the X window got."""
    from x11_harness import typed

    mark = x.mark()
    page.call("Input.insertText", {"text": text})
    x.wait_for(lambda ev: len(typed(ev)) >= len(text), mark, timeout=5)
    return typed(x.wait_quiet(mark, quiet=0.2))


def listener_sees(recordings) -> bytes:
    """Everything a listener on the path reads: both directions as they went, and the page's
    WebSocket payloads unmasked."""
    seen = bytearray()
    for recording in recordings:
        seen += recording.to_server + recording.to_client
        heads, frames = client_view(recording)
        for head in heads:
            seen += head
        for frame in frames + server_frames(recording):
            seen += frame.payload
    return bytes(seen)


def upgrades_with_frames(recordings):
    """The WebSocket connections of the capture: (request head, the page's messages, batches
    flattened)."""
    out = []
    for recording in recordings:
        heads, frames = client_view(recording)
        if frames:
            messages = []
            for data in (json.loads(f.payload) for f in frames if f.opcode == 1):
                messages += data if isinstance(data, list) else [data]
            out.append((heads[-1], messages))
    return out


def close_code(frames) -> int | None:
    for frame in frames:
        if frame.opcode == 8 and len(frame.payload) >= 2:
            return int.from_bytes(frame.payload[:2], "big")
    return None


def test_nothing_secret_on_the_wire(browser, wired, x):
    server, proxy = wired
    origin = f"http://127.0.0.1:{proxy.port}"
    page = browser.new_page()
    page.phone()  # the proxy's port is an origin of its own: nothing stored for it yet
    try:
        # Pairing, through the proxy, with the link a phone scans.
        page.navigate(f"{origin}/#token={server.token}")
        page.wait_for(LIVE, 10)
        key = page.eval("localStorage.getItem('gesturepad.deviceKey')")
        assert len(key) == 43
        # A reconnect: the page loaded again proves its device key.
        page.call("Page.reload", {"ignoreCache": True})
        page.wait_for(LIVE, 10)
        assert page.eval("localStorage.getItem('gesturepad.deviceKey')") == key
        open_keyboard(page)
        assert type_and_see(page, x, TYPED) == TYPED
        key_event(page, "Enter", "Enter", 13)
        page.wait_for("window.gesturepad.received.some((m) => m.type === 'command' && m.key === 'Enter')", 5)
        recordings = proxy.snapshot()

        # The capture is real: the page's frames were read unmasked — its proofs, the second
        # with the device key, and the sealed typing.
        sockets = upgrades_with_frames(recordings)
        assert len(sockets) == 2, [head for head, _ in sockets]
        for head, messages in sockets:
            assert head.startswith(b"GET /ws?proof=1 HTTP/1.1\r\n"), head
            # After the proof, nothing the page sends is plain: the hello, every batch of
            # moves, the pings, the typing — all sealed.
            assert messages[0]["type"] == "auth" and len(messages) >= 3
            assert all(m.get("type") == "sealed" for m in messages[1:]), [m.get("type") for m in messages]
        assert [messages[0]["with"] for _, messages in sockets] == ["secret", "device"]
        # The server's replies after its proof (welcome, pong, held …) are sealed too.
        for recording in recordings:
            replies = [json.loads(f.payload) for f in server_frames(recording) if f.opcode == 1]
            after = [m for m in replies if isinstance(m, dict) and m.get("type") not in ("challenge", "authenticated")]
            assert all(m.get("type") in ("sealed", "gesture") for m in after), [m.get("type") for m in after]
        page_load = [h for r in recordings for h in client_view(r)[0] if h.startswith(b"GET / ")]
        assert page_load and all(server.token.encode() not in h for h in page_load)

        seen = listener_sees(recordings)
        assert b'"type":"auth"' in seen and b'"type":"sealed"' in seen
        for secret in (server.token, key, TYPED, "horse battery", "staple", '"key":"Enter"', '"characters":'):
            assert secret.encode() not in seen, f"{secret!r} crossed the wire"
        # Forward secrecy (docs/protocol.md "Key exchange"): every proof carried the page's
        # ephemeral key and its device's public key (docs/protocol.md "Device key pairs"), and a
        # thief holding the secret, devices.json — which keeps that public key and no key or
        # digest — and even the phone's private key opens none of the recorded sealed frames.
        assert all(len(messages[0]["kx"]) == 43 and len(messages[0]["dk"]) == 43 for _, messages in sockets)
        stored = json.loads((Path(server.state_home) / "gesturepad" / "devices.json").read_text())["devices"]
        assert "keySHA256" not in stored[0] and stored[0]["publicKey"] == sockets[0][1][0]["dk"]
        assert sockets[1][1][0]["dk"] == stored[0]["publicKey"]
        credentials = [hashlib.sha256(server.token.encode()).digest(), unb64(stored[0]["publicKey"]),
                       hashlib.sha256(stored[0]["publicKey"].encode()).digest(), unb64(key),
                       hashlib.sha256(key.encode()).digest()]
        challenges = [m for r in recordings for m in (json.loads(f.payload) for f in server_frames(r) if f.opcode == 1)
                      if isinstance(m, dict) and m.get("type") == "challenge"]
        opened = 0
        for (_, messages), challenge in zip(sockets, challenges):
            server_nonce = unb64(challenge["nonce"])
            for digest in credentials:
                exchanged = unb64(messages[0]["nonce"]) + unb64(challenge["kx"]) + unb64(messages[0]["kx"])
                for client in (unb64(messages[0]["nonce"]), exchanged,
                               exchanged + unb64(challenge["sk"]) + unb64(messages[0]["dk"])):
                    thief = PageSeal(digest, server_nonce, client)
                    opened += thief.open_from_page(json.dumps(messages[1], separators=(",", ":"))) is not None
        assert opened == 0, "a recorded frame opened with what a thief could hold"

        # Replayed: the second connection's bytes, as recorded, straight to the server.
        recorded = bytes(recordings[[i for i, r in enumerate(recordings) if client_view(r)[1]][1]].to_server)
        mark = x.mark()
        answer = replay(server.port, recorded)
        assert answer.startswith(b"HTTP/1.1 101"), answer[:80]
        frames = parse_frames(split_head(answer)[1])[0]
        assert close_code(frames) == 4410, frames
        assert typed_nothing(x, mark)

        # Altered on the way: one character of the next sealed box.
        def alter(payload: bytes) -> bytes | None:
            start = b'{"type":"sealed","box":"'
            if not payload.startswith(start):
                return None
            at = len(start) + 5
            swapped = b"A" if payload[at:at + 1] != b"A" else b"B"
            return payload[:at] + swapped + payload[at + 1:]

        proxy.alter = alter
        closes = len(page.state()["closes"])
        mark = x.mark()
        page.call("Input.insertText", {"text": "forged"})
        page.wait_for(f"window.gesturepad.closes.length > {closes}", 5)
        assert page.state()["closes"][-1] == 4413
        assert typed_nothing(x, mark)
        # The page connects again by itself, and types again.
        page.wait_for(LIVE, 10)
        open_keyboard(page)
        assert type_and_see(page, x, "ok") == "ok"
        no_console_errors(page)
    finally:
        page.close()


def typed_nothing(x, mark: int) -> bool:
    from x11_harness import typed

    return typed(x.wait_quiet(mark, quiet=0.3)) == ""


def replay(port: int, recorded: bytes) -> bytes:
    """Sends `recorded` (an upgrade and its frames) to the server; what it answers until it
    closes (or 5 s)."""
    sock = socket.create_connection(("127.0.0.1", port))
    sock.settimeout(5)
    sock.sendall(recorded)
    answer = b""
    deadline = time.monotonic() + 5
    try:
        while time.monotonic() < deadline:
            chunk = sock.recv(65536)
            if not chunk:
                break
            answer += chunk
            if close_code(parse_frames(split_head(answer)[1])[0]) is not None:
                break
    except socket.timeout:
        pass
    finally:
        sock.close()
    return answer


@pytest.fixture
def proxied():
    """A server of its own (no control), behind the proxy."""
    yield from behind_proxy(Server(token="wire-fake--Secret0123456789abcdefZ" + os.urandom(8).hex(), log_name="browser-wire-fake.log"))


def test_a_server_that_cannot_prove_the_secret_is_left(browser, proxied):
    """The server's proof (`authenticated`) changed on the way — as a fake server that does not
    hold the secret would have to give one: the page hangs up, says so, keeps no key and does
    not try again by itself."""
    server, proxy = proxied

    def forge(payload: bytes) -> bytes | None:
        start = b'{"type":"authenticated","proof":"'
        if not payload.startswith(start):
            return None
        at = len(start) + 3
        return payload[:at] + (b"A" if payload[at:at + 1] != b"A" else b"B") + payload[at + 1:]

    proxy.alter_down = forge
    page = browser.new_page()
    page.phone()
    try:
        page.navigate(f"http://127.0.0.1:{proxy.port}/#token={server.token}")
        page.wait_for("window.gesturepad && window.gesturepad.status === 'refused'", 8)
        assert "did not prove it knows this phone" in page.eval("window.gesturepad.detail")
        assert page.eval("localStorage.getItem('gesturepad.deviceKey')") is None
        assert proxy.alter_down is None, "the server's proof was not seen"
        assert page.state()["status"] == "refused"
    finally:
        page.close()
