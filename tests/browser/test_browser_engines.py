"""One scenario suite in the three engines phones open the page in: Chromium (Blink), Firefox ESR
(Gecko) and WebKitGTK (WebKit) — the `engine` fixture, one browser process per engine for the
session (conftest.py; how each is driven: engines.py, docs/testing.md).

Each gesture is the same script in every engine and is judged twice: at the server (the
gestures of the page's session in the server's JSON log, `--log-json`) and on the page (what
it received, drew and lists in its feed). The same kinds and amounts are expected everywhere."""

from __future__ import annotations

import json
import math
import time
import warnings

import pytest

from crypto_vectors import VECTORS_JS, check_vectors
from engines import Touches, open_page

HIDDEN = "!document.querySelector(%r).getClientRects().length"


def logged(server, session: str, since: int = 0, timeout: float = 5.0, until=None) -> list[dict]:
    """The gestures of one session in the server's JSON log from byte `since` on (a restarted
    server numbers its sessions anew), waiting until `until(events)`."""
    deadline = time.monotonic() + timeout
    while True:
        with open(server.gesture_log, "rb") as f:
            f.seek(since)
            lines = f.read().decode().splitlines()
        events = [e for e in map(json.loads, lines) if e.get("session") == session]
        if until is None or until(events) or time.monotonic() > deadline:
            return events
        time.sleep(0.05)


def ended(name: str):
    return lambda events: any(e["gesture"] == name and e["phase"] in ("ended", None) for e in events) and \
        any(e["gesture"] == "end" for e in events)


def received(state: dict, name: str) -> list[dict]:
    return [m for m in state["received"] if m.get("type") == "gesture" and m["gesture"] == name]


def feed_names(page) -> list[str]:
    return page.eval("Array.from(document.querySelectorAll('#feed li')).map(function (li) { return li.dataset.gesture; })")


# How far the page's timestamps may stray from the script before the input counts as not played
# as written (ms; a driver playing in real time on a loaded machine stalls now and then).
SLACK_MS = 60
HIT = "(function (e) { return e ? e.tagName + '#' + e.id + '.' + e.className : null; })(document.elementFromPoint(%s, %s))"
ATTEMPTS = 5


def off_schedule(sent: list[dict], touches: Touches) -> str:
    """Why the pointer messages the page sent for `touches` did not keep its times ("" if they
    did): a pause between two of its events more than SLACK_MS longer than the script's longest
    (a stall). A driver's steady overhead per step (Gecko's steps come every 20–25 ms, not 16) is
    no stall."""
    stamps = [m["t"] for m in sent if m.get("type") in ("down", "move", "up")]
    times = [f[1] for f in touches.frames]
    if len(stamps) < 2:
        return f"{len(stamps)} pointer messages sent"
    gap = max(b - a for a, b in zip(stamps, stamps[1:]))
    script_gap = max(b - a for a, b in zip(times, times[1:]))
    return f"a pause of {gap:.0f} ms where the script's longest is {script_gap:.0f}" if gap > script_gap + SLACK_MS else ""


def play(page, server, touches: Touches, until, realtime: bool = False, setup: str | None = None) -> tuple[list[dict], dict]:
    """Plays `touches`; returns the session's logged gestures once `until` holds, and the page state
    once the page received the last of them. Gecko and WebKit play in real time: where the
    page's timestamps show the engine did not keep the script's times (a loaded machine), the
    page is reloaded (`setup` run again) and the gesture played again, up to ATTEMPTS times."""
    for attempt in range(ATTEMPTS):
        if setup:
            page.eval(setup)
        since, sent_before = server.gesture_log.stat().st_size, len(page.state()["sent"])
        page.play(touches, realtime=realtime)
        late = off_schedule(page.state()["sent"][sent_before:], touches) if page.realtime_input else ""
        if not late:
            break
        assert attempt < ATTEMPTS - 1, f"{page.engine} did not play the gesture as written {ATTEMPTS} times: {late}"
        warnings.warn(f"{page.engine}: played again ({late}; at the first down: {page.eval(HIT % touches.frames[0][2][touches.finger_ids()[0]])})")  # listed in pytest's summary
        page.reload()
        page.live()
    session = page.eval("window.gesturepad.session")
    events = logged(server, session, since, until=until, timeout=8)
    assert until(events), f"{page.engine}: the server logged {[(e['gesture'], e['phase']) for e in events]}"
    last = json.dumps([events[-1]["gesture"], events[-1].get("phase"), events[-1]["t"]], separators=(",", ":"))
    page.wait_for("window.gesturepad.received.some(function (m) { return m.type === 'gesture' && "
                  f"JSON.stringify([m.gesture, m.phase, m.t]) === {json.dumps(last)}; }})")
    return events, page.state()


def only(events: list[dict], name: str) -> list[dict]:
    return [e for e in events if e["gesture"] == name]


# ---- the page loads, is live, comes back -----------------------------------------------------

def test_loads_live_without_console_errors(page):
    st = page.state()
    assert st["status"] == "live" and st["input"] == "pointer"
    # Early moves where the engine has pointerrawupdate (Blink, Gecko), not in WebKit (as Safari).
    assert st["earlyMoves"] == (page.engine != "webkit")
    assert page.eval("document.getElementById('status').textContent.trim().length > 0")
    assert page.console_errors() == []


FEATURES = ("({rawupdate: 'onpointerrawupdate' in window, coalesced: typeof PointerEvent.prototype.getCoalescedEvents === 'function',"
            " vibrate: typeof navigator.vibrate === 'function', wakeLock: 'wakeLock' in navigator,"
            " fullscreen: !!(document.documentElement.requestFullscreen || document.documentElement.webkitRequestFullscreen),"
            " serviceWorker: 'serviceWorker' in navigator})")
# docs/page.md "Engines": what each engine has (on the loopback origin, a secure context).
EXPECTED = {
    "chromium": {"rawupdate": True, "coalesced": True, "vibrate": True, "wakeLock": True, "fullscreen": True, "serviceWorker": True},
    "firefox": {"rawupdate": True, "coalesced": True, "vibrate": False, "wakeLock": True, "fullscreen": True, "serviceWorker": True},
    "webkit": {"rawupdate": False, "coalesced": True, "vibrate": False, "wakeLock": True, "fullscreen": True, "serviceWorker": True},
}


def test_the_pages_own_cryptography(page):
    """The page's SHA-256, HMAC, HKDF and ChaCha20-Poly1305 (docs/security.md) give the RFCs'
    vectors in this engine too."""
    check_vectors(page.eval(VECTORS_JS))


def test_engine_features(page):
    assert page.eval("window.isSecureContext") is True
    assert page.eval(FEATURES) == EXPECTED[page.engine]
    # The page follows them: no fullscreen button without the API, early moves with pointerrawupdate.
    assert page.eval("!document.getElementById('fullscreen').hidden") is EXPECTED[page.engine]["fullscreen"]
    assert page.state()["earlyMoves"] is EXPECTED[page.engine]["rawupdate"]


def test_reconnects_after_a_server_restart_with_the_stored_key(engine, scenario_server):
    page = open_page(engine, scenario_server)
    try:
        key = page.wait_for("localStorage.getItem('gesturepad.deviceKey')")
        assert "token=" not in page.eval("location.href"), "the secret left the address bar"
        scenario_server.stop()
        page.wait_for("window.gesturepad.status !== 'live'")
        scenario_server.start()
        page.live(20)
        assert page.eval("localStorage.getItem('gesturepad.deviceKey')") == key
        # A fresh load without the secret (no code scanned): the kept key connects.
        page.open(scenario_server.origin + "/")
        page.live()
        assert page.eval("window.gesturepad.device && window.gesturepad.status") == "live"
        assert page.console_errors() == []
    finally:
        page.close()


MOUSE_EVENTS = ("(function () { window.__mouse = []; ['mousedown', 'mouseup', 'click', 'contextmenu'].forEach(function (t) {"
                " document.addEventListener(t, function () { window.__mouse.push(t); }, true); }); return 1; })()")


def test_a_touch_on_the_surface_has_no_default_action(page, scenario_server):
    """What cancelling a touch's pointerdown stopped, without cancelling it: no compatibility
    mouse events, no click, no scrolling or zoom, no selection — and both fingers arrive."""
    t = Touches().down(0, f1=(150, 300)).up(60).down(300, f1=(145, 420), f2=(245, 420))
    play(page, scenario_server, t.move(320, 300, f1=(95, 420), f2=(295, 420)).up(700), ended("pinch"), setup=MOUSE_EVENTS)
    mouse = page.eval("window.__mouse")
    # (WebKit's driver plays one finger as the mouse, whose pointerdown the page still cancels.)
    assert mouse == [], mouse
    assert page.eval("[scrollX, scrollY, visualViewport ? visualViewport.scale : 1, String(getSelection())]") == [0, 0, 1, ""]


# ---- gestures: the same kinds and amounts in every engine ------------------------------------

def test_tap(page, scenario_server):
    events, st = play(page, scenario_server, Touches().down(0, f1=(120, 300)).up(70),
                      lambda ev: any(e["gesture"] == "singleTapConfirmed" for e in ev))
    tap = only(events, "tap")
    assert [(t["count"], t["pointers"], t["x"], t["y"]) for t in tap] == [(1, 1, 120, 300)]
    assert st["drawn"]["tap"] == 1 and "tap" in feed_names(page)


def test_double_tap(page, scenario_server):
    t = Touches().down(0, f1=(200, 400)).up(60).down(140, f1=(203, 402)).up(200)
    events, st = play(page, scenario_server, t, lambda ev: any(e["gesture"] == "doubleTap" for e in ev))
    assert [e["count"] for e in only(events, "tap")] == [1, 2]
    assert len(only(events, "doubleTap")) == 1 and only(events, "singleTapConfirmed") == []
    assert st["drawn"]["doubleTap"] == 1 and "doubleTap" in feed_names(page)


def test_drag_200px(page, scenario_server):
    t = Touches().down(0, f1=(90, 500)).move(20, 480, f1=(290, 500)).up(600)
    events, st = play(page, scenario_server, t, ended("drag"))
    drag = only(events, "drag")
    assert drag[0]["phase"] == "began" and drag[-1]["phase"] == "ended"
    assert drag[-1]["dx"] == pytest.approx(200, abs=2) and drag[-1]["dy"] == pytest.approx(0, abs=2)
    assert only(events, "swipe") == [] and only(events, "tap") == []
    assert received(st, "drag")[-1]["dx"] == drag[-1]["dx"]
    assert st["drawn"]["drag"] == len(drag) and "drag" in feed_names(page)


def test_long_press_then_drag(page, scenario_server):
    t = Touches().down(0, f1=(200, 420)).move(700, 300, f1=(300, 420)).up(1100)
    events, st = play(page, scenario_server, t, ended("longPressDrag"), realtime=True)
    assert only(events, "longPress")[0]["phase"] == "began"
    lpd = only(events, "longPressDrag")
    assert lpd[-1]["phase"] == "ended" and lpd[-1]["dx"] == pytest.approx(100, abs=2)
    assert only(events, "drag") == []
    assert st["drawn"]["longPressDrag"] == len(lpd)


@pytest.mark.parametrize("dy", [150, -150], ids=["down", "up"])
def test_two_finger_scroll(page, scenario_server, dy):
    y = 320 if dy > 0 else 520
    t = Touches().down(0, f1=(150, y), f2=(250, y)).move(20, 300, f1=(150, y + dy), f2=(250, y + dy)).up(340)
    events, st = play(page, scenario_server, t, ended("scroll"))
    downs = [m for m in st["sent"] if m["type"] == "down"]
    assert len({m["id"] for m in downs}) == 2, f"{page.engine}: both fingers went down: {downs}"
    scroll = only(events, "scroll")
    assert scroll[0]["phase"] == "began" and scroll[-1]["phase"] == "ended"
    assert all(e["pointers"] == 2 for e in scroll)
    last = [e for e in scroll if e["phase"] != "ended"][-1]
    assert last["dy"] == pytest.approx(dy, abs=2) and last["dx"] == pytest.approx(0, abs=2)
    assert only(events, "drag") == [] and only(events, "pinch") == []
    assert st["drawn"]["scroll"] == len(scroll) and "scroll" in feed_names(page)


@pytest.mark.parametrize("scale", [2.0, 0.5], ids=["out", "in"])
def test_pinch(page, scenario_server, scale):
    half0 = 50 if scale > 1 else 100
    half1 = half0 * scale
    t = Touches().down(0, f1=(195 - half0, 420), f2=(195 + half0, 420))
    t.move(20, 300, f1=(195 - half1, 420), f2=(195 + half1, 420)).up(400)
    events, st = play(page, scenario_server, t, ended("pinch"))
    pinch = only(events, "pinch")
    assert pinch[-1]["phase"] == "ended" and pinch[-1]["scale"] == pytest.approx(scale, rel=0.02)
    assert only(events, "scroll") == [] and only(events, "rotate") == [] and only(events, "drag") == []
    assert st["drawn"]["pinch"] == len(pinch) and "pinch" in feed_names(page)


def test_three_finger_swipe(page, scenario_server):
    t = Touches().down(0, f1=(100, 600), f2=(180, 600), f3=(260, 600))
    t.move(20, 128, f1=(100, 380), f2=(180, 380), f3=(260, 380)).up(150)
    events, st = play(page, scenario_server, t, lambda ev: any(e["gesture"] == "swipe" for e in ev))
    swipe = only(events, "swipe")
    assert len(swipe) == 1 and (swipe[0]["direction"], swipe[0]["pointers"]) == ("up", 3)
    assert swipe[0]["distance"] == pytest.approx(220, abs=2)
    assert st["drawn"]["swipe"] == 1 and "swipe" in feed_names(page)


def test_rotate(page, scenario_server):
    cx, cy, r = 195, 420, 70

    def turn(f):
        a = math.radians(60 * f)
        return {1: (cx - r * math.cos(a), cy - r * math.sin(a)), 2: (cx + r * math.cos(a), cy + r * math.sin(a))}

    t = Touches().down(0, f1=(cx - r, cy), f2=(cx + r, cy)).path(20, 320, turn).up(420)
    events, st = play(page, scenario_server, t, ended("rotate"))
    rot = only(events, "rotate")
    assert rot[-1]["phase"] == "ended" and rot[-1]["angle"] == pytest.approx(60, abs=1.5)
    assert only(events, "scroll") == []
    assert st["drawn"]["rotate"] == len(rot) and "rotate" in feed_names(page)


# ---- the observer --------------------------------------------------------------------------

def test_watch_shows_the_gestures_live(engine, scenario_server):
    watch = open_page(engine, scenario_server, "/watch.html")
    page = open_page(engine, scenario_server)
    try:
        session = page.eval("window.gesturepad.session")
        watch.wait_for(f"!!document.querySelector('#sessions li[data-session=\"{session}\"]')")
        page.play(Touches().down(0, f1=(90, 500)).move(20, 300, f1=(290, 500)).up(400))
        t = Touches().down(0, f1=(145, 420), f2=(245, 420))
        page.play(t.move(20, 300, f1=(95, 420), f2=(295, 420)).up(400))
        watch.wait_for("window.gesturepad.received.some(function (m) { return m.gesture === 'pinch' && m.phase === 'ended'; })")
        seen = [m for m in watch.state()["received"] if m.get("type") == "gesture" and m.get("session") == session]
        drag = [m for m in seen if m["gesture"] == "drag"]
        assert drag[-1]["phase"] == "ended" and drag[-1]["dx"] == pytest.approx(200, abs=2)
        assert [m for m in seen if m["gesture"] == "pinch"][-1]["scale"] == pytest.approx(2, rel=0.02)
        drawn = watch.state()["drawn"]
        assert drawn["drag"] >= 1 and drawn["pinch"] >= 1
        assert watch.console_errors() == [] and page.console_errors() == []
    finally:
        page.close()
        watch.close()
