"""Pairing in the real page (docs/server.md "Pairing"), in headless Chromium against a server of
its own: the page opened with the link is paired once and keeps its device key across reloads
(not the secret), shows its name in the settings sheet, shows why when the computer forgot it
(also after a reload), pairs again from a new link, and "Unpair this phone" unpairs it."""
from __future__ import annotations

import json
import os
import subprocess

import pytest

from browser_harness import BIN, Server, no_console_errors, open_pad

LIVE = "window.gesturepad && window.gesturepad.status === 'live'"
REFUSED = "window.gesturepad && window.gesturepad.status === 'refused'"
NOTICE = "document.querySelector('#notice span').textContent"


@pytest.fixture
def own_server():
    server = Server(token="pairing-browser-secret", log_name="browser-pairing-server.log")
    server.start()
    try:
        yield server
    finally:
        server.stop()


def devices(server: Server, *args: str) -> str:
    env = dict(os.environ, XDG_STATE_HOME=server.state_home)
    run = subprocess.run([BIN, "devices", *args], capture_output=True, text=True, env=env, timeout=10)
    assert run.returncode == 0, run.stderr
    return run.stdout


def stored(page, name: str):
    return page.eval(f"localStorage.getItem('gesturepad.{name}')")


def reload(page) -> None:
    page.call("Page.reload", {"ignoreCache": True})


def socket_urls(browser, page) -> list[str]:
    """The URLs of the WebSockets the tab opens from now on (CDP Network.webSocketCreated)."""
    urls: list[str] = []

    def created(msg: dict) -> None:
        if msg.get("sessionId") == page.session and msg.get("method") == "Network.webSocketCreated":
            urls.append(msg["params"]["url"])

    browser.listeners.append(created)
    return urls


def test_page_keeps_its_key_across_reloads_and_shows_the_refusal(browser, own_server):
    """Paired once from the link: the key (not the secret) survives reloads; forgotten on the
    computer, the page says so, after a reload too; a new link pairs it again."""
    page = open_pad(browser, own_server)
    urls = socket_urls(browser, page)
    try:
        device = page.state()["device"]
        assert device["name"] == "Pixel 8 · Chrome" and device["newKey"] is True
        key = stored(page, "deviceKey")
        assert len(key) == 43 and stored(page, "token") is None and page.eval("location.hash") == ""
        assert page.eval("document.getElementById('device-name').textContent") == "Pixel 8 · Chrome"

        reload(page)
        page.wait_for(LIVE, 8)
        again = page.state()["device"]
        assert again == {"id": device["id"], "name": "Pixel 8 · Chrome", "newKey": False}
        assert stored(page, "deviceKey") == key
        assert urls and f"device={key}" in urls[-1] and "token=" not in urls[-1], urls

        devices(own_server, "forget", "Pixel 8 · Chrome")
        page.wait_for(REFUSED, 5)
        assert "removed on the computer" in page.eval(NOTICE)
        assert page.eval("document.getElementById('notice').hidden") is False

        reload(page)
        page.wait_for(REFUSED, 8)
        assert "removed on the computer" in page.eval(NOTICE)
        assert stored(page, "deviceKey") == key

        page.navigate(f"{own_server.origin}/#token={own_server.token}")
        page.wait_for(LIVE, 8)
        assert stored(page, "deviceKey") not in (None, key)
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
