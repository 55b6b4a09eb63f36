"""The desktop page (docs/server.md "The desktop page", issue 42), in real Chromium against the
real server: `gesturepad open --print` gives its address (the desktop key in the fragment); the
page shows the QR code and the link, opens pairing with its button — a phone that waited while
pairing was closed is paired within 2 s, no reload — and renames and forgets phones by click,
as `gesturepad devices` then lists them; its feed shows every phone's gestures live, by the
phone's name, without pairing the desktop browser. Its requests are refused without the key,
from a foreign Host, or with the key of another server; the key is never logged."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from browser_harness import BIN, UNPAIR, Server, no_console_errors, open_pad, tap_and_drag

LIVE = "window.gesturepad && window.gesturepad.status === 'live'"
STATE = "window.gesturepadDesktop && window.gesturepadDesktop.state"


@pytest.fixture
def desk_server():
    server = Server(token="desktop-page-secret-Secret0123456789abcdefZ", log_name="browser-desktop-server.log")
    server.start()
    try:
        yield server
    finally:
        server.stop()


def run(server: Server, *args: str) -> str:
    env = dict(os.environ, XDG_STATE_HOME=server.state_home)
    done = subprocess.run([BIN, *args], capture_output=True, text=True, env=env, timeout=15)
    assert done.returncode == 0, done.stderr
    return done.stdout


def device_list(server: Server) -> list[dict]:
    return json.loads(run(server, "devices", "list", "--json"))["devices"]


def open_desktop(browser, server: Server):
    address = run(server, "open", "--print").strip()
    key = (Path(server.state_home) / "gesturepad" / "desktop-key").read_text().strip()
    assert address == f"http://127.0.0.1:{server.port}/desktop.html#key={key}"
    assert oct((Path(server.state_home) / "gesturepad" / "desktop-key").stat().st_mode & 0o777) == "0o600"
    page = browser.new_page()
    page.desktop()
    page.navigate(address)
    page.wait_for(STATE, 8)
    # The key left the address bar (and the history) at once.
    assert "key=" not in page.eval("location.href")
    return page, key


@contextlib.contextmanager
def desktop_session(browser, server: Server):
    """The desktop page opened, and a slot for the phone a test opens (`phones`): both closed
    after the test, which must then find the key nowhere in the server's log."""
    page, key = open_desktop(browser, server)
    phones: list = []
    try:
        yield page, key, phones
        no_console_errors(page)
    finally:
        for phone in phones:
            phone.close()
        page.close()
    assert key not in Path(server.log_path).read_text()


def click(page, selector: str) -> None:
    page.eval(f"document.querySelector({selector!r}).click(), 1")


def test_the_desktop_page_pairs_a_waiting_phone_renames_and_forgets(browser, desk_server):
    with desktop_session(browser, desk_server) as (page, key, phones):
        state = page.eval(STATE)
        assert state["pairing"]["open"] and 0 < state["pairing"]["secondsLeft"] <= 300
        assert state["pairing"]["link"].endswith(f"#token={desk_server.token}")
        assert page.eval("document.getElementById('link').textContent") == state["pairing"]["link"]
        # The QR code is drawn: dark modules on the white canvas.
        dark = page.eval("(function(){var c=document.getElementById('qr');var d=c.getContext('2d').getImageData(0,0,c.width,c.height).data;"
                         "var n=0;for(var i=0;i<d.length;i+=4){if(d[i]<64)n++;}return n;})()")
        assert dark > 2000
        # Close pairing with the button; a phone that opens the link now waits.
        click(page, "#pairing-toggle")
        page.wait_for(STATE + ".pairing.open === false", 3)
        assert "closed" in page.eval("document.getElementById('pairing-state').textContent")
        phone = open_pad(browser, desk_server, wait_live=False, unpaired=True)
        phones.append(phone)
        phone.wait_for("window.gesturepad && window.gesturepad.status === 'waiting'", 8)
        page.wait_for(STATE + ".devices.some(function(d){return d.state === 'waiting';})", 4)
        # Open pairing on the desktop page: the phone pairs on its open connection.
        click(page, "#pairing-toggle")
        opened = time.monotonic()
        phone.wait_for(LIVE, 2)
        assert time.monotonic() - opened <= 2 and phone.state()["connects"] == 1
        page.wait_for(STATE + ".devices.some(function(d){return d.connected;})", 4)
        assert page.eval("document.querySelector('#devices td.state').textContent") == "connected"
        # Rename by click: the phone hears its new name at once.
        click(page, "#devices button.rename")
        page.eval("(function(i){i.value='Kitchen phone';})(document.querySelector('#devices td.name input')), 1")
        click(page, "#devices button.save")
        page.wait_for(STATE + ".devices[0].name === 'Kitchen phone'", 4)
        assert [d["name"] for d in device_list(desk_server)] == ["Kitchen phone"]
        phone.wait_for("window.gesturepad.device && window.gesturepad.device.name === 'Kitchen phone'", 4)
        # Forget takes two clicks; the phone's connection closes with 4403.
        click(page, "#devices button.forget")
        assert page.eval("document.querySelector('#devices button.forget').textContent") == "Forget — sure?"
        assert len(device_list(desk_server)) == 1
        click(page, "#devices button.forget")
        page.wait_for(STATE + ".devices.length === 0", 4)
        assert device_list(desk_server) == []
        phone.wait_for("window.gesturepad.closes.indexOf(4403) >= 0", 4)


def get(server: Server, path: str, headers: dict) -> tuple[int, str]:
    request = urllib.request.Request(f"http://127.0.0.1:{server.port}{path}", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def test_desktop_requests_need_the_key_a_loopback_host_and_no_foreign_origin(desk_server):
    key = (Path(desk_server.state_home) / "gesturepad" / "desktop-key").read_text().strip()
    assert get(desk_server, "/desktop/state", {"x-gesturepad-desktop": key})[0] == 200
    assert get(desk_server, "/desktop/state", {})[0] == 401
    assert get(desk_server, "/desktop/state", {"x-gesturepad-desktop": "A" * 43})[0] == 401
    # A page elsewhere that rebinds its name to 127.0.0.1, or posts from its own origin, is refused.
    assert get(desk_server, "/desktop/state", {"x-gesturepad-desktop": key, "Host": "evil.example:80"})[0] == 403
    assert get(desk_server, "/desktop/pairing?open=1", {"x-gesturepad-desktop": key, "Origin": "http://evil.example"})[0] == 403
    assert get(desk_server, "/desktop/nothing", {"x-gesturepad-desktop": key})[0] == 404
    # The state names the devices but no key or digest.
    status, body = get(desk_server, "/desktop/state", {"x-gesturepad-desktop": key})
    assert status == 200 and "keySHA256" not in body and key not in body


def test_the_desktop_page_shows_the_phones_gestures_live_and_pairs_nothing(browser, desk_server):
    with desktop_session(browser, desk_server) as (page, _, phones):
        # Its feed connects as an observer proving the desktop key: live, sealed, no device.
        page.wait_for(LIVE, 8)
        assert page.eval("document.getElementById('live-state').textContent").startswith("Live")
        phone = open_pad(browser, desk_server, unpaired=True)
        phones.append(phone)
        [entry] = device_list(desk_server)
        tap_and_drag(phone)
        page.wait_for("document.querySelectorAll('#feed li').length >= 2", 5)
        rows = page.eval("Array.from(document.querySelectorAll('#feed li')).map(function(li){"
                         "return [li.dataset.gesture, li.querySelector('.s').textContent];})")
        # A tap, then a touch that drags (on a loaded machine the page may see it otherwise).
        assert {"tap", "drag"} & {gesture for gesture, _ in rows}, rows
        assert all(label == entry["name"] for _, label in rows), (rows, entry)
        # The feed's connection paired nothing: still the one phone.
        assert [d["id"] for d in device_list(desk_server)] == [entry["id"]]


def test_the_desktop_page_shows_the_desktops_touchpad_settings(browser, tmp_path):
    """KDE Plasma's settings for the GesturePad touchpad, read from kcminputrc by the server,
    shown with where to change them and that they apply only with the touchpad backend."""
    config = tmp_path / "config"
    config.mkdir()
    (config / "kcminputrc").write_text("[Libinput][7504][24866][GesturePad touchpad]\nTapToClick=true\n"
                                       "PointerAcceleration=0.5\n")
    server = Server(token="desktop-touchpad-secret-Secret0123456789abcdefZ", log_name="browser-desktop-touchpad.log",
                    env={"XDG_CONFIG_HOME": str(config), "XDG_CURRENT_DESKTOP": "KDE"})
    server.start()
    try:
        with desktop_session(browser, server) as (page, _, _):
            page.wait_for("!document.getElementById('touchpad').hidden", 8)
            assert page.eval("document.getElementById('touchpad-title').textContent") == \
                "The desktop’s touchpad settings (KDE Plasma)"
            rows = page.eval("Array.from(document.querySelectorAll('#touchpad-settings li')).map(li => li.textContent)")
            assert rows[:3] == ["Tap to click: on", "Natural scrolling: the device’s default (off)",
                                "Pointer speed: +0.50 (−1 … +1)"], rows
            assert "--control touchpad" in page.eval("document.getElementById('touchpad-applies').textContent")
            assert "System Settings" in page.eval("document.getElementById('touchpad-advice').textContent")
    finally:
        server.stop()
