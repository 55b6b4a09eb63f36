"""A slow link (docs/page.md "A slow link"): the real page, connected to the real server through
a relay that carries what the page sends at 3 KB/s (slow_link.py), while a finger strokes for
three seconds — what the page sends for it is about three times what the link carries. The page
must not build a queue of stale moves: it holds one move per finger while the link is backed
up, and the server hears the stroke's end soon after the finger lifts, where it is. In Chromium
(touch through CDP), Firefox ESR (touch through its driver) and WebKitGTK (the mouse through
its driver).

Judged at the server by its recording (`serve --record`: every frame it handled, in order, as
it came) and by when the `up` appeared in it; on the page by its counters (`backlog`)."""
from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from browser_harness import Player, Server, check_wire, forget_prefs, no_console_errors
from slow_link import SlowLink
from touches import Touches

RATE = 3000          # bytes a second, page → server
DRIVER_RATE = 1500   # for a driver's stroke: a move every 16 ms, half what CDP plays
STROKE_MS = 3000     # Chromium: a move every 8 ms, some 11 KB a second with the page's batches
START, END = (40.0, 150.0), (340.0, 650.0)
# The finger lifts; the server hears it within this (s): 0.4–1 s measured in the three engines
# with plain frames; 1.4–2.0 s since every frame after the proof goes sealed and padded (about
# twice the bytes per move on this 1.5–3 KB/s link; issue 40). Behind a queue of stale moves it
# waits for the rest of the queue: 6–9 s with plain frames, longer sealed.
HEARD_WITHIN = 3.0
FIRST_PONG = "window.gesturepad.received.some(function (m) { return m.type === 'pong'; })"


@pytest.fixture(scope="module")
def recording_server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("recordings")
    srv = Server(extra=["--record", str(folder)], log_name="browser-slow-link-server.log")
    srv.folder = folder
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def recorded(folder: Path) -> list[dict]:
    """Every message of the newest recording, in the order the server handled them."""
    files = sorted(folder.glob("*.jsonl"))
    if not files:
        return []
    out = []
    for line in files[-1].read_text().splitlines():
        try:
            data = json.loads(line)
        except ValueError:  # a line still being written
            break
        out += data if isinstance(data, list) else [data]
    return out


def lift_heard(folder: Path, lifted: float) -> float:
    """Waits for the server to record an `up`; how long after `lifted` (wall clock) it did."""
    deadline = time.time() + 20
    while time.time() < deadline and not any(m.get("type") == "up" for m in recorded(folder)):
        time.sleep(0.02)
    return time.time() - lifted


def judge(state, link: SlowLink, folder: Path, heard: float) -> dict:
    """The server heard the lift in time, where the finger was, after the stroke's last move; the
    page held one move of the finger at most, and sent exactly what the server got (once the
    link has carried the rest). `state()`: the page state now. Returns it."""
    pointer = [m for m in recorded(folder) if m.get("type") in ("down", "move", "up")]
    print(f"the server heard the lift {heard:.2f} s after it")
    assert pointer and pointer[-1]["type"] == "up", f"the server never heard the lift: {pointer[-3:]}"
    assert heard < HEARD_WITHIN, f"the server heard the lift {heard:.1f} s after it: stale moves queued"
    last_move, lift = pointer[-2], pointer[-1]
    assert last_move["type"] == "move" and (last_move["x"], last_move["y"]) == END, last_move
    assert (lift["x"], lift["y"]) == END and lift["t"] >= last_move["t"]
    ts = [m["t"] for m in pointer]
    assert ts == sorted(ts), "a pointer's t went back"

    backlog = state()["backlog"]
    assert backlog["held"] > 0 and backlog["merged"] > 0, backlog
    assert backlog["most"] == 1, f"{backlog['most']} moves of one finger waited at once"
    link.rate = None
    st = state()
    sent = st["sent"]
    deadline = time.time() + 10
    while time.time() < deadline and len(recorded(folder)) < len(sent):
        time.sleep(0.05)
    assert recorded(folder)[:len(sent)] == sent, "the server got what the page sent, in order"
    assert any(m.get("probe") for m in sent)
    return st


def test_a_slow_link_never_queues_stale_moves(browser, recording_server):
    """Chromium, touches dispatched in real time through CDP, each stamped with its time."""
    link = SlowLink(recording_server.port)
    page = browser.new_page()
    try:
        page.phone()
        page.navigate(f"http://127.0.0.1:{link.port}/#token={recording_server.token}")
        page.wait_for("window.gesturepad && window.gesturepad.status === 'live'", 8)
        page.wait_for(FIRST_PONG)
        link.rate = RATE
        p = Player(page, realtime=True)
        p.down(0, f1=START)
        p.move(0, STROKE_MS, step=8, f1=END)
        p.up(STROKE_MS + 8)
        lifted = p.base + (STROKE_MS + 8) / 1000
        p.finish()
        heard = lift_heard(recording_server.folder, lifted)
        st = judge(page.state, link, recording_server.folder, heard)
        check_wire(page, st)
        no_console_errors(page)
    finally:
        forget_prefs(page)
        page.close()
        link.close()


def test_a_slow_link_in_gecko_and_webkit(engine, recording_server):
    """Firefox ESR, the finger played by its driver in real time (WebDriver BiDi); WebKitGTK, the
    stroke played as the mouse by its driver (its touch is the mouse anyway), in real time."""
    if engine.name == "chromium":
        pytest.skip("played through CDP by test_a_slow_link_never_queues_stale_moves")
    link = SlowLink(recording_server.port)
    page = engine.page()
    try:
        page.open(f"http://127.0.0.1:{link.port}/#token={recording_server.token}")
        page.live()
        page.wait_for(FIRST_PONG)
        link.rate = DRIVER_RATE
        stroke = Touches().down(0, f1=START).move(0, STROKE_MS, f1=END).up(STROKE_MS + 16)
        if engine.name == "webkit":
            page.play_mouse(stroke)
        else:
            page.play(stroke, realtime=True)
        lifted = time.time()  # the driver answers once the actions are played
        heard = lift_heard(recording_server.folder, lifted)
        judge(page.state, link, recording_server.folder, heard)
        assert page.console_errors() == []
    finally:
        page.eval("localStorage.clear(), 1")
        page.close()
        link.close()
