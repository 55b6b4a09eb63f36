"""A phone paired over plain HTTP keeps its pairing when the server starts speaking TLS
(docs/protocol.md "Moving to HTTPS"), in real headless Chromium: the page open on http://
reconnects to the restarted `serve --tls`, is told (sealed) to move, goes to the https address
by itself once the certificate is trusted, and is live there as the same device — one entry in
devices.json, with a new key. A browser that does not trust the certificate yet stays on the
http page with a notice that offers the trust page and the secure page."""
from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest

from browser_cdp import Browser
from browser_harness import Server, open_pad
from test_browser_pairing import public_key_of
from test_browser_tls import ca_of, trusting_browser

CERTUTIL = shutil.which("certutil")
pytestmark = pytest.mark.skipif(
    CERTUTIL is None and not os.environ.get("GESTUREPAD_REQUIRE_BROWSER"),
    reason="certutil (Debian libnss3-tools) is needed to give Chromium the CA")

LIVE = "window.gesturepad && window.gesturepad.status === 'live'"


def devices_of(server: Server) -> list[dict]:
    return json.loads((Path(server.state_home) / "gesturepad" / "devices.json").read_text())["devices"]


def stored(page, name: str):
    return page.eval(f"localStorage.getItem('gesturepad.{name}')")


def written_down(server: Server, device_id: str) -> dict:
    """The device's entry once devices.json has it: the page keeps its id at `welcome`, and the
    server's state thread writes the file just after (a server killed in between, as `stop`
    kills it, would forget the pairing)."""
    deadline = time.monotonic() + 10
    while True:
        try:
            found = [d for d in devices_of(server) if d["id"] == device_id]
        except (OSError, ValueError, KeyError):
            found = []
        if found or time.monotonic() > deadline:
            assert found, f"devices.json never listed {device_id}"
            return found[0]
        time.sleep(0.02)


def restarted_with_tls(server: Server) -> None:
    server.stop()
    server.extra = ["--tls"]
    server.start()


@pytest.fixture
def moving_server():
    """A server whose CA exists (made by one start with --tls, as a user who tried HTTPS once),
    now running on plain HTTP."""
    server = Server(token="move-browser-secret-Secret0123456789abcdefZ", log_name="browser-move-server.log")
    server.extra = ["--tls"]
    server.start()
    ca = ca_of(server)
    server.stop()
    server.extra = []
    server.start()
    try:
        yield server, ca
    finally:
        server.stop()


def test_a_page_paired_over_http_moves_to_https_as_the_same_device(moving_server):
    server, ca = moving_server
    browser = trusting_browser(ca)
    try:
        page = open_pad(browser, server)
        device_id = page.wait_for("localStorage.getItem('gesturepad.deviceId')", 10)
        old_key = stored(page, "deviceKey")
        paired = written_down(server, device_id)
        assert len(devices_of(server)) == 1
        restarted_with_tls(server)
        # The open page reconnects on its own, is told to move, and goes to https by itself.
        page.wait_for("location.protocol === 'https:'", 30)
        page.wait_for(LIVE, 15)
        assert page.eval("window.isSecureContext") is True
        assert "move=" not in page.eval("location.href"), "the ticket is taken out of the address"
        assert stored(page, "deviceId") == device_id
        new_key = page.wait_for("localStorage.getItem('gesturepad.deviceKey')", 5)
        assert new_key and new_key != old_key
        assert stored(page, "move") in (None, ""), "the used ticket is forgotten"
        # The state thread writes devices.json right after the move.
        deadline = time.monotonic() + 10
        while devices_of(server)[0]["publicKey"] == paired["publicKey"] and time.monotonic() < deadline:
            time.sleep(0.02)
        [moved] = devices_of(server)
        assert moved["id"] == paired["id"] and moved["name"] == paired["name"]
        # The https page made a key pair of its own (its origin cannot read the plain page's).
        assert moved["publicKey"] == public_key_of(new_key) and "keySHA256" not in moved
        # Reloaded, the https page connects with its own key (no ticket any more).
        page.call("Page.reload", {"ignoreCache": True})
        page.wait_for(LIVE, 15)
        assert len(devices_of(server)) == 1
    finally:
        browser.close()


def test_a_browser_not_trusting_the_certificate_yet_is_shown_the_way(moving_server):
    server, _ = moving_server
    browser = Browser()
    try:
        page = open_pad(browser, server)
        written_down(server, page.wait_for("localStorage.getItem('gesturepad.deviceId')", 10))
        restarted_with_tls(server)
        try:
            page.wait_for("window.gesturepad.status === 'moving'", 30)
            page.wait_for("!document.querySelector('#notice .actions').hidden", 10)
        except Exception as waited:
            state = page.state() or {}
            raise AssertionError(f"the page did not offer the way: {state.get('status')!r} {state.get('detail')!r} "
                                 f"closes {state.get('closes')}; server log: {Path(server.log_path).read_text()[-2000:]}") \
                from waited
        links = page.eval("Array.from(document.querySelectorAll('#notice .actions a')).map(a => a.href)")
        assert f"http://127.0.0.1:{server.port}/trust" in links, links
        secure = [link for link in links if link.startswith("https://")]
        assert secure and "#move=" in secure[0], links
        assert page.eval("location.protocol") == "http:", "an untrusted certificate is never gone through"
        assert len(devices_of(server)) == 1
    finally:
        browser.close()
