"""Issue 42, "Devices", in headless Chromium against a server of its own (docs/server.md
"Observers are paired as observers", "The same browser pairing again"):

- the observer page opened with the link (`watch.html#token=`) in a desktop browser pairs it
  as an observer: `gesturepad devices` lists "Watching · Linux · Chrome" of KIND observer, and
  the observer keeps working; the touchpad page of that browser is refused with 4415 and says
  why (no retry), until the touchpad link is opened in it: then it pairs as a touchpad;
- a phone whose storage was lost pairs again from the link and takes its entry over: the same
  id and the name given on the computer, one entry, the earlier key forgotten.
"""
from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path

from browser_harness import Server, no_console_errors, open_pad, open_watch
from test_browser_pairing import LIVE, NOTICE, REFUSED, devices, own_server, public_key_of, stored  # noqa: F401 (a fixture)


def listed(server: Server) -> list[dict]:
    return json.loads(devices(server, "list", "--json"))["devices"]


def eventually_listed(server: Server, count: int, connected: int = 0, within: float = 10.0) -> list[dict]:
    """The devices `gesturepad devices` lists, once there are `count`, `connected` of them
    connected at least (the server writes devices.json and server.json from its state thread,
    right after a change)."""
    deadline = time.monotonic() + within
    while True:
        now = listed(server)
        if (len(now) == count and sum(d["connected"] for d in now) >= connected) or time.monotonic() > deadline:
            return now
        time.sleep(0.05)


def test_the_observer_page_pairs_an_observer_that_is_no_touchpad(browser, own_server):
    watch = open_watch(browser, own_server)
    pad = None
    try:
        assert watch.state()["device"]["name"] == "Watching · Linux · Chrome"
        [entry] = eventually_listed(own_server, 1, connected=1)
        assert (entry["name"], entry["kind"], entry["connected"]) == ("Watching · Linux · Chrome", "observer", True)
        table = devices(own_server).splitlines()
        assert table[0].split()[:2] == ["NAME", "KIND"] and " observer " in table[1]

        # The touchpad page of this browser (its key the observer's) is refused with 4415 and
        # says why, once: no retry, the observer tab stays live.
        pad = browser.new_page()
        pad.desktop()
        pad.navigate(f"{own_server.origin}/")
        pad.wait_for(REFUSED, 8)
        assert pad.state()["closes"] == [4415]
        text = pad.eval(NOTICE)
        assert text.startswith("This browser was paired to watch the gestures") and "touchpad" in text, text
        time.sleep(1.0)
        assert pad.state()["closes"] == [4415] and pad.state()["status"] == "refused"
        assert watch.state()["status"] == "live"
        assert [d["kind"] for d in listed(own_server)] == ["observer"]

        # The touchpad link opened in it: its watching key goes, and it pairs as a touchpad.
        pad.navigate(f"{own_server.origin}/#token={own_server.token}")
        pad.wait_for(LIVE, 8)
        assert stored(pad, "deviceKey") and stored(pad, "token") is None
        kinds = sorted((d["name"], d["kind"]) for d in eventually_listed(own_server, 2))
        assert kinds == [("Linux · Chrome", "touchpad"), ("Watching · Linux · Chrome", "observer")], kinds
        no_console_errors(watch)
    finally:
        watch.close()
        if pad is not None:
            pad.close()


def test_a_phone_that_lost_its_storage_takes_its_entry_over(browser, own_server):
    first = open_pad(browser, own_server)
    try:
        device = first.state()["device"]
        old_key = stored(first, "deviceKey")
    finally:
        first.close()
    [entry] = eventually_listed(own_server, 1)
    assert entry["kind"] == "touchpad" and entry["id"] == device["id"]
    devices(own_server, "rename", entry["name"], "Kitchen phone")
    # The same phone, its storage lost, opens the link again.
    again = open_pad(browser, own_server, unpaired=True)
    try:
        assert again.state()["device"] == {"id": device["id"], "name": "Kitchen phone", "newKey": True}
        new_key = stored(again, "deviceKey")
        assert new_key not in (None, old_key)
        [entry] = eventually_listed(own_server, 1, connected=1)
        assert (entry["id"], entry["name"], entry["connected"]) == (device["id"], "Kitchen phone", True)
        # devices.json holds the new key pair's public key, the old one's digest among the
        # forgotten (docs/protocol.md "Device key pairs").
        path = Path(own_server.state_home) / "gesturepad" / "devices.json"
        new_public = public_key_of(new_key)
        deadline = time.monotonic() + 10
        while json.loads(path.read_text())["devices"][0]["publicKey"] != new_public and time.monotonic() < deadline:
            time.sleep(0.05)
        data = json.loads(path.read_text())
        assert data["devices"][0]["publicKey"] == new_public
        forgotten = hashlib.sha256(b"gesturepad/1 public key\0" + public_key_of(old_key).encode()).hexdigest()
        assert forgotten in data["forgottenKeys"]
        while "Kitchen phone paired again" not in Path(own_server.log_path).read_text() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert "Kitchen phone paired again" in Path(own_server.log_path).read_text()
        no_console_errors(again)
    finally:
        again.close()
