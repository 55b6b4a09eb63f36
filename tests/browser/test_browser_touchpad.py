"""The page with the `touchpad` backend (the phone as the desktop's own touchpad), in real
headless Chromium with touch: it says the desktop does the gestures and its settings apply, its
feed shows the gestures (not clicks of the server's own), and a touch on the glass comes out of
the server as the contacts of the virtual touchpad.

There is no /dev/uinput here: the server runs `--control touchpad --test-touchpad-output FILE`
(docs/control.md), everything real but the last write, which goes into FILE instead of a uinput
device; the test reads the `input_event`s back from it. (The device itself is tested against a
real kernel, udev and libinput in tests/kernel.)"""

from __future__ import annotations

import struct
import tempfile
import time
from pathlib import Path

import pytest

from browser_harness import Player, Server, center, feed, forget_prefs, no_console_errors, open_ctl_pad, tap_element

EVENT = struct.Struct("@qqHHi")  # struct input_event on 64-bit Linux
EV_KEY, EV_ABS = 1, 3
BTN_TOUCH, ABS_MT_TRACKING_ID, ABS_MT_POSITION_X = 0x14A, 0x39, 0x35


@pytest.fixture(scope="module")
def touchpad_server():
    output = Path(tempfile.mkdtemp(prefix="gesturepad-touchpad-")) / "touchpad.events"
    output.touch()
    srv = Server(control="touchpad", extra=["--test-touchpad-output", str(output)],
                 log_name="browser-server-touchpad.log")
    srv.output = output
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture
def tp_pad(browser, touchpad_server):
    page = open_ctl_pad(browser, touchpad_server)
    try:
        yield page
    finally:
        forget_prefs(page)
        page.close()


def events(path: Path) -> list[tuple[int, int, int]]:
    data = path.read_bytes()
    return [EVENT.unpack_from(data, i)[2:] for i in range(0, len(data) - EVENT.size + 1, EVENT.size)]


def wait_events(path: Path, predicate, timeout: float = 5.0) -> list[tuple[int, int, int]]:
    deadline = time.monotonic() + timeout
    while True:
        found = events(path)
        if predicate(found) or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


def test_the_page_says_the_desktop_does_the_gestures(tp_pad):
    """welcome names the touchpad backend; the hint says the phone is the computer's own
    touchpad whose settings apply; the settings sheet says where those settings are, and that
    its own apply to a mouse or pen on the page."""
    st = tp_pad.state()
    assert st["control"] == {"active": True, "backend": "touchpad"}
    assert st["nativeTouchpad"] is True
    assert tp_pad.eval("document.body.classList.contains('native-touchpad')") is True
    hint = tp_pad.eval("document.getElementById('hint').textContent")
    assert hint.startswith("The computer's own touchpad") and "touchpad settings apply" in hint, hint
    tap_element(tp_pad, "#settings-open")
    tp_pad.wait_for("!document.getElementById('sheet').hidden")
    note = tp_pad.eval("(function(e){return e.getClientRects().length ? e.textContent : ''})(document.getElementById('native-note'))")
    note = " ".join(note.split())
    assert "computer's touchpad settings" in note and "mouse or pen" in note, note
    no_console_errors(tp_pad)


def test_the_mapped_backends_say_nothing_of_it(ctl_pad):
    """With a backend that maps touches itself (x11), none of that: the server's own hint and
    no note in the sheet."""
    assert ctl_pad.eval("document.body.classList.contains('native-touchpad')") is False
    assert ctl_pad.eval("document.getElementById('hint').textContent").startswith("Touchpad ready")
    assert ctl_pad.eval("document.getElementById('native-note').getClientRects().length") == 0


def test_touches_reach_the_touchpad_and_the_feed_shows_gestures(tp_pad, touchpad_server):
    """A tap on the glass is a contact of the virtual touchpad — landing with a tracking id and
    BTN_TOUCH, lifting to −1 — and the feed shows the gesture (`tap`), not a click the server
    made: the desktop decides, with tap-to-click as its user set it."""
    before = len(events(touchpad_server.output))
    player = Player(tp_pad)
    x, y = center(tp_pad, "#surface")
    player.down(0, f1=(x, y + 120))
    player.up(60)
    player.finish()
    found = wait_events(touchpad_server.output,
                        lambda e: (EV_KEY, BTN_TOUCH, 0) in e[before:] and any(
                            t == EV_ABS and c == ABS_MT_TRACKING_ID and v == -1 for t, c, v in e[before:]))
    mine = found[before:]
    ids = [v for t, c, v in mine if t == EV_ABS and c == ABS_MT_TRACKING_ID]
    assert len(ids) == 2 and ids[0] >= 0 and ids[1] == -1, mine
    assert (EV_KEY, BTN_TOUCH, 1) in mine and mine.index((EV_KEY, BTN_TOUCH, 1)) < mine.index((EV_KEY, BTN_TOUCH, 0))
    assert any(t == EV_ABS and c == ABS_MT_POSITION_X for t, c, v in mine), mine
    tp_pad.wait_for("document.querySelectorAll('#feed li').length > 0")
    rows = feed(tp_pad)
    assert any(r["gesture"] == "tap" and r["text"].startswith("tap") for r in rows), rows
    assert not any("click" in r["text"] for r in rows), rows
    no_console_errors(tp_pad)
