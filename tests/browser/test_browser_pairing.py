"""Pairing in the real page (docs/server.md "Pairing"), in headless Chromium against a server of
its own: the page opened with the link is paired once and keeps its device key across reloads
(not the secret) — the key both sides derived, never sent: every upgrade is `/ws?proof=1` and
the page proves the key (docs/protocol.md "Proof handshake") —, shows its name in the settings
sheet, shows why when the computer forgot it (also after a reload: the proof is refused with
4411), pairs again from a new link, says so when its key is unknown here (4410) or it has no
token, waits for the computer's user with `--confirm-pairing`, and "Unpair this phone" unpairs
it."""
from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import subprocess
import time
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

from browser_harness import BIN, UNPAIR, Server, no_console_errors, open_pad

LIVE = "window.gesturepad && window.gesturepad.status === 'live'"
REFUSED = "window.gesturepad && window.gesturepad.status === 'refused'"
NOTICE = "document.querySelector('#notice span').textContent"


@pytest.fixture
def own_server():
    server = Server(token="pairing-browser-secret-Secret0123456789abcdefZ", log_name="browser-pairing-server.log")
    server.start()
    try:
        yield server
    finally:
        server.stop()


def wait_stored(server: Server, name: str, within: float = 10.0) -> None:
    """Waits until the server's devices.json holds `name`: the server writes it from a thread of
    its own, right after the pairing (docs/server.md "The state directory")."""
    path = os.path.join(server.state_home, "gesturepad", "devices.json")
    deadline = time.monotonic() + within
    while True:
        try:
            with open(path) as file:
                if any(d.get("name") == name for d in json.load(file).get("devices", [])):
                    return
        except (OSError, ValueError):
            pass
        assert time.monotonic() < deadline, f"{name!r} was not written to {path}"
        time.sleep(0.02)


def devices(server: Server, *args: str) -> str:
    env = dict(os.environ, XDG_STATE_HOME=server.state_home)
    run = subprocess.run([BIN, "devices", *args], capture_output=True, text=True, env=env, timeout=10)
    assert run.returncode == 0, run.stderr
    return run.stdout


def stored(page, name: str):
    return page.eval(f"localStorage.getItem('gesturepad.{name}')")


def public_key_of(private: str) -> str:
    """The X25519 public key (base64url) of the page's device private key (`cryptography`)."""
    key = X25519PrivateKey.from_private_bytes(base64.urlsafe_b64decode(private + "=" * (-len(private) % 4)))
    raw = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def stored_public_keys(server: Server, expected: list[str] | None = None, within: float = 10.0) -> list[str]:
    """The device public keys devices.json keeps (docs/protocol.md "Device key pairs"; None for
    an entry with none) — once they are `expected`, when given: the server writes the file from
    its state thread, right after the change. An entry that keeps a key digest fails."""
    path = Path(server.state_home) / "gesturepad" / "devices.json"
    deadline = time.monotonic() + within
    while True:
        try:
            entries = json.loads(path.read_text())["devices"]
            assert not any("keySHA256" in d for d in entries), entries
            digests = [d.get("publicKey") for d in entries]
        except (OSError, ValueError, KeyError):
            digests = []
        if expected is None or digests == expected or time.monotonic() > deadline:
            return digests
        time.sleep(0.02)


def reload(page) -> None:
    page.call("Page.reload", {"ignoreCache": True})


class Traffic:
    """What the tab does on the network from now on (CDP): the URLs of the WebSockets it opens,
    the HTTP status each upgrade got (101, or the refusal's), the frames it received, and the
    URLs and statuses of its `GET /pairing` requests."""

    def __init__(self, browser, page) -> None:
        self.sockets: list[str] = []
        self.upgrades: list[int] = []
        self.frames = 0
        self.status_asked: list[str] = []
        self.status_answers: list[int] = []
        self.session = page.session
        browser.listeners.append(self._event)

    def _event(self, msg: dict) -> None:
        if msg.get("sessionId") != self.session:
            return
        method, params = msg.get("method"), msg.get("params", {})
        if method == "Network.webSocketCreated":
            self.sockets.append(params["url"])
        elif method == "Network.webSocketHandshakeResponseReceived":
            self.upgrades.append(params["response"]["status"])
        elif method == "Network.webSocketFrameError":
            # A refused upgrade: Chromium reports no handshake response, only this error.
            refused = re.search(r"handshake: Unexpected response code: (\d+)", params.get("errorMessage", ""))
            if refused:
                self.upgrades.append(int(refused.group(1)))
        elif method == "Network.webSocketFrameReceived":
            self.frames += 1
        elif method == "Network.requestWillBeSent" and re.search(r"/pairing(\?|$)", params["request"]["url"]):
            self.status_asked.append(params["request"]["url"])
        elif method == "Network.responseReceived" and re.search(r"/pairing(\?|$)", params["response"]["url"]):
            self.status_answers.append(params["response"]["status"])

    def clear(self) -> None:
        for name in ("sockets", "upgrades", "status_asked", "status_answers"):
            getattr(self, name).clear()
        self.frames = 0


def test_page_keeps_its_key_across_reloads_and_shows_the_refusal(browser, own_server):
    """Paired once from the link: the key the page derived is the one whose digest the server
    keeps (never sent), survives reloads (not the secret) and proves every connection, none of
    which names a credential; forgotten on the computer, the page says so (the live
    connection's 4403), and after a reload too — its proof is refused with 4411; a new link
    pairs it again."""
    page = open_pad(browser, own_server)
    traffic = Traffic(browser, page)
    try:
        device = page.state()["device"]
        assert device["name"] == "Pixel 8 · Chrome" and device["newKey"] is True
        key = stored(page, "deviceKey")
        assert len(key) == 43 and stored(page, "token") is None and page.eval("location.hash") == ""
        # The computer keeps the public half of the key pair the page made; the private half
        # never left the page.
        public = [public_key_of(key)]
        assert stored_public_keys(own_server, public) == public
        assert stored(page, "deviceId") == device["id"]
        assert page.eval("document.getElementById('device-name').textContent") == "Pixel 8 · Chrome"

        reload(page)
        page.wait_for(LIVE, 8)
        again = page.state()["device"]
        assert again == {"id": device["id"], "name": "Pixel 8 · Chrome", "newKey": False}
        assert stored(page, "deviceKey") == key
        assert traffic.sockets == [f"ws://127.0.0.1:{own_server.port}/ws?proof=1"], traffic.sockets

        wait_stored(own_server, "Pixel 8 · Chrome")
        devices(own_server, "forget", "Pixel 8 · Chrome")
        page.wait_for(REFUSED, 5)
        assert "removed on the computer" in page.eval(NOTICE)
        assert page.eval("document.getElementById('notice').hidden") is False

        traffic.clear()
        reload(page)
        page.wait_for(REFUSED, 8)
        assert "removed on the computer" in page.eval(NOTICE)
        assert stored(page, "deviceKey") == key
        assert traffic.sockets == [f"ws://127.0.0.1:{own_server.port}/ws?proof=1"]
        assert traffic.upgrades == [101] and page.state()["closes"] == [4411] and traffic.status_asked == []
        assert key not in page.eval("document.body.innerText + location.href")

        page.navigate(f"{own_server.origin}/#token={own_server.token}")
        page.wait_for(LIVE, 8)
        assert stored(page, "deviceKey") not in (None, key) and stored(page, "token") is None
        assert [d["name"] for d in json.loads(devices(own_server, "list", "--json"))["devices"]] == ["Pixel 8 · Chrome"]
        no_console_errors(page)
    finally:
        page.close()


def test_unpair_this_phone(browser, own_server):
    """"Unpair this phone" (two taps): the computer forgets the phone, the phone its key, and the page says it is not paired."""
    page = open_pad(browser, own_server)
    try:
        button = "document.querySelector('#sheet [data-action=\"unpair\"]')"
        page.eval(f"{button}.click()")
        assert page.eval(f"{button}.textContent") == "Tap again to unpair"
        assert page.state()["status"] == "live"
        page.eval(f"{button}.click()")
        page.wait_for(REFUSED, 5)
        assert "not paired any more" in page.eval(NOTICE)
        assert stored(page, "deviceKey") is None
        assert page.eval("document.getElementById('device-name').textContent") == "not paired"
        assert json.loads(devices(own_server, "list", "--json"))["devices"] == []
        no_console_errors(page)
    finally:
        page.close()


def test_an_unknown_key_and_no_token_say_why(browser, own_server):
    """A key this computer never gave (another computer's, or its pairings were reset) is
    refused by its proof (4410) and the page says so and stops;
    a phone with no token at all is told it is not paired yet, a desktop browser on the observer
    that it is not paired."""
    page = browser.new_page()
    page.phone()
    stranger = "s" * 43
    page.call("Page.addScriptToEvaluateOnNewDocument",
              {"source": f"localStorage.setItem('gesturepad.deviceKey', '{stranger}');"
                         "localStorage.setItem('gesturepad.deviceId', '0123456789ab');"})
    traffic = Traffic(browser, page)
    try:
        page.navigate(f"{own_server.origin}/")
        page.wait_for(REFUSED, 8)
        assert "does not know this phone" in page.eval(NOTICE)
        assert traffic.upgrades == [101] and page.state()["closes"] == [4410] and traffic.status_asked == []
        assert page.eval("window.gesturepad.detail") == page.eval(NOTICE)
        no_console_errors(page)
    finally:
        page.close()
    page = browser.new_page()
    page.desktop()
    page.call("Page.addScriptToEvaluateOnNewDocument", {"source": UNPAIR})
    try:
        page.navigate(f"{own_server.origin}/watch.html")
        page.wait_for(REFUSED, 8)
        # The observer is a browser, often a desktop's: it is not called a phone.
        text = page.eval("window.gesturepad.detail")
        assert text.startswith("This browser is not paired with the computer"), text
        assert "phone" not in text and "gesturepad pair" in text
    finally:
        page.close()


def test_confirm_pairing_waits_for_the_computer(browser):
    """--confirm-pairing: the page, upgraded with the secret, says it waits for the computer;
    allowed with `gesturepad devices allow`, it goes live with its own key."""
    server = Server(token="pairing-confirm-secret-Secret0123456789abcdefZ", extra=["--confirm-pairing"], log_name="browser-confirm-server.log")
    server.start()
    page = open_pad(browser, server, wait_live=False, unpaired=True)
    try:
        page.wait_for("window.gesturepad && window.gesturepad.status === 'waiting'", 8)
        assert "Accept “Pixel 8 · Chrome” on the computer" in page.eval(NOTICE)
        assert page.eval("document.querySelector('#notice b').textContent") == "Waiting for the computer…"
        wait_stored(server, "Pixel 8 · Chrome")
        devices(server, "allow", "Pixel 8 · Chrome")
        page.wait_for(LIVE, 8)
        key = stored(page, "deviceKey")
        assert len(key) == 43 and stored(page, "token") is None
        # The key pair made as it asked is the one allowed (its private half never sent).
        public = [public_key_of(key)]
        assert stored_public_keys(server, public) == public
        no_console_errors(page)
    finally:
        page.close()
        server.stop()


def test_a_phone_waits_while_pairing_is_closed_and_pairs_when_it_opens(browser, own_server):
    """Pairing that waits (docs/server.md "Pairing is a moment"): after `gesturepad pair
    --close` the right secret pairs nobody at once — the new phone is told, kindly, that
    pairing is closed, keeps no key and waits on its open connection — while a paired phone
    still connects; `gesturepad pair` opens pairing, and the waiting phone is paired within
    2 s, with no reload and no second scan."""
    env = dict(os.environ, XDG_STATE_HOME=own_server.state_home)

    def pair(*args: str) -> str:
        run = subprocess.run([BIN, "pair", "--no-qr", *args], capture_output=True, text=True, env=env, timeout=10)
        assert run.returncode == 0, run.stderr
        return run.stdout

    paired = open_pad(browser, own_server)
    try:
        first_id = paired.state()["device"]["id"]
        assert "Pairing is closed" in pair("--close")
        reload(paired)
        paired.wait_for(LIVE, 8)
    finally:
        paired.close()
    page = open_pad(browser, own_server, wait_live=False, unpaired=True)
    try:
        page.wait_for("window.gesturepad && window.gesturepad.status === 'waiting'", 8)
        assert "pairs by itself" in page.eval(NOTICE)
        assert page.state()["closes"] == [] and stored(page, "deviceKey") is None
        listed = json.loads(devices(own_server, "list", "--json"))["devices"]
        assert [(d["name"], d["state"]) for d in listed if d["state"] == "paired"] == [("Pixel 8 · Chrome", "paired")]
        # Opening pairing on the computer pairs the waiting phone, on the connection it has.
        pair()
        opened = time.monotonic()
        page.wait_for(LIVE, 2)
        assert time.monotonic() - opened <= 2
        assert len(stored(page, "deviceKey")) == 43 and page.state()["connects"] == 1
        # It is the same browser as the first phone (its storage removed), whose entry is not
        # connected: it takes that entry over instead of adding one (docs/server.md "The same
        # browser pairing again").
        paired_now = [d for d in json.loads(devices(own_server, "list", "--json"))["devices"] if d["state"] == "paired"]
        assert [(d["id"], d["name"]) for d in paired_now] == [(first_id, "Pixel 8 · Chrome")]
        assert page.state()["device"]["id"] == first_id
        no_console_errors(page)
    finally:
        page.close()


def test_a_phone_paired_with_a_shared_key_moves_over_to_a_key_pair(browser):
    """A phone paired before device key pairs keeps a key the computer shares (devices.json
    holds its digest). Its next connection proves that key once with a key pair made on the
    page (docs/protocol.md "Device key pairs"): the phone stays the same device without pairing
    again, devices.json keeps the public key in place of the digest, and the page pins the
    server's identity key and proves its key pair from then on."""
    server = Server(token="moving-over-secret-Secret0123456789abcdefZ", log_name="browser-move-over-server.log")
    legacy = base64.urlsafe_b64encode(os.urandom(32)).rstrip(b"=").decode()
    folder = Path(server.state_home) / "gesturepad"
    folder.mkdir(parents=True, exist_ok=True)
    entry = {"id": "0123456789ab", "name": "Old phone", "state": "paired", "paired": "2026-01-01T00:00:00Z",
             "keySHA256": hashlib.sha256(legacy.encode()).hexdigest()}
    (folder / "devices.json").write_text(json.dumps({"version": 1, "devices": [entry], "forgottenKeys": []}))
    os.chmod(folder / "devices.json", 0o600)
    server.start()
    try:
        old = browser.new_page()
        old.phone()
        script = old.call("Page.addScriptToEvaluateOnNewDocument", {"source": (
            f"localStorage.setItem('gesturepad.deviceKey', '{legacy}');"
            "localStorage.setItem('gesturepad.deviceId', '0123456789ab');"
            "localStorage.removeItem('gesturepad.serverKey'); localStorage.removeItem('gesturepad.token');")})
        old.navigate(f"{server.origin}/")
        old.wait_for(LIVE, 8)
        old.call("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script["identifier"]})
        assert old.state()["device"]["id"] == "0123456789ab"
        key = old.wait_for("localStorage.getItem('gesturepad.serverKey') && localStorage.getItem('gesturepad.deviceKey')", 5)
        assert key != legacy
        identity = X25519PrivateKey.from_private_bytes(base64.urlsafe_b64decode(
            (folder / "identity-key").read_text().strip() + "="))
        pinned = base64.urlsafe_b64encode(identity.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw)).rstrip(b"=").decode()
        assert stored(old, "serverKey") == pinned
        assert stored_public_keys(server, [public_key_of(key)]) == [public_key_of(key)]
        old.close()
        # A new tab of the same browser (the same storage) proves the key pair.
        again = browser.new_page()
        again.phone()
        again.navigate(f"{server.origin}/")
        again.wait_for(LIVE, 8)
        assert again.state()["device"]["id"] == "0123456789ab" and stored(again, "deviceKey") == key
        assert "now proves itself with a key pair of its own" in Path(server.log_path).read_text()
        no_console_errors(again)
        again.close()
    finally:
        server.stop()
