"""Early moves (docs/page.md "Early moves"): where the browser has `pointerrawupdate`, the page
sends each move as soon as its step is complete, without waiting for an animation frame;
where it does not, moves wait for the frame as before. Either way every coalesced move goes
out once, with its own `t`.

To tell "at once" from "with the frame" without timing anything, the tab's animation frames
are held: a script run before the page's replaces `requestAnimationFrame` with one that keeps
the callbacks until the test lets them run. The browser still delivers `pointermove` on its own
rendering schedule. A second script records the `t` of every coalesced move the browser
delivered with `pointermove`, as the page rounds it. A browser without `pointerrawupdate` is
made by deleting its event handler property (the page's feature test) before the page runs."""
from __future__ import annotations

import json
import time

from browser_harness import Player, forget_prefs, no_console_errors, settle

HOLD_FRAMES = """
(function () {
  var real = window.requestAnimationFrame.bind(window), held = [];
  window.__frames = {
    held: held, ran: 0,
    release: function () {
      var self = this;
      held.splice(0).forEach(function (fn) { real(function (ts) { self.ran++; fn(ts); }); });
      return true;
    }
  };
  window.requestAnimationFrame = function (fn) { held.push(fn); return held.length; };
})();
"""

RECORD_MOVES = """
window.__seen = [];
window.addEventListener('pointermove', function (e) {
  var list = e.getCoalescedEvents ? e.getCoalescedEvents() : [];
  if (!list.length) list = [e];
  list.forEach(function (c) { window.__seen.push([e.pointerId, Math.round(c.timeStamp * 1000) / 1000]); });
}, true);
"""

# Each pointerrawupdate: how late it came (ms from its oldest move to its dispatch) and its
# moves. The page uses only timely ones (moves.js LATE_MS); a loaded machine delivers some late.
RECORD_RAW = """
window.__raw = [];
window.addEventListener('pointerrawupdate', function (e) {
  var now = performance.now(), list = e.getCoalescedEvents();
  window.__raw.push([now - list[0].timeStamp, list.map(function (c) {
    return [e.pointerId, Math.round(c.timeStamp * 1000) / 1000]; })]);
}, true);
"""

NO_RAW_UPDATES = """
[window, Window.prototype, Document.prototype, HTMLElement.prototype, SVGElement.prototype, Element.prototype]
  .forEach(function (o) { delete o.onpointerrawupdate; });
"""


def open_page(browser, server, scripts: list[str]):
    page = browser.new_page()
    page.phone()
    for source in scripts:
        page.call("Page.addScriptToEvaluateOnNewDocument", {"source": source})
    page.navigate(f"{server.origin}/#token={server.token}")
    page.wait_for("window.gesturepad && window.gesturepad.status === 'live'", 8)
    return page


def wire_moves(page) -> list[list[dict]]:
    """The moves of each WebSocket frame the tab sent, frame by frame (CDP, the real wire)."""
    out = []
    for frame in page.wire_sent():
        data = json.loads(frame)
        batch = data if isinstance(data, list) else [data]
        out.append([m for m in batch if isinstance(m, dict) and m.get("type") == "move"])
    return out


def sent_moves(page) -> list[tuple[int, float]]:
    return [(m["id"], m["t"]) for batch in wire_moves(page) for m in batch]


def moves_without_a_frame(page) -> list[tuple[int, float]]:
    """The moves sent in frames of their own while animation frames are held. The `down` takes
    the free slot and leaves at the end of its task (a `setTimeout(0)`); moves the browser
    dispatched before that timer ran — a loaded machine runs the next input tasks first — go
    with it, as the slot allows. Any other frame with moves is one that did not wait."""
    out = []
    for frame in page.wire_sent():
        data = json.loads(frame)
        batch = data if isinstance(data, list) else [data]
        messages = [m for m in batch if isinstance(m, dict)]
        if any(m.get("type") == "down" for m in messages):
            continue
        out += [(m["id"], m["t"]) for m in messages if m.get("type") == "move"]
    return out


def seen_moves(page) -> list[tuple[int, float]]:
    return [tuple(x) for x in page.eval("window.__seen")]


def stroke(page, fingers: dict, moving: tuple[str, ...], steps: int = 12, lift: bool = False) -> Player:
    """Fingers down, then `moving` ones 8 px right per 8 ms step, dispatched in real time (so
    the browser sees them come one by one, as from a touch screen); with `lift`, all lift 8 ms
    after the last step."""
    p = Player(page, realtime=True)
    p.down(0, **fingers)
    for k in range(1, steps + 1):
        for name in moving:
            x, y = fingers[name]
            fingers[name] = (x + 8, y)
        p.move(8 * k, 8, step=8, **{name: fingers[name] for name in moving})
    if lift:
        p.up(8 * steps + 8)
    p.finish()
    return p


def wait_seen(page, count: int, timeout: float = 5.0) -> None:
    page.wait_for(f"window.__seen.length >= {count}", timeout)


def timely_raw_moves(page, since: int = 0) -> list[tuple[int, float]]:
    """The moves of the raw updates that came in time for the page to use (with 5 ms to spare
    either side of its bound: the page reads its clock a moment later than the recorder)."""
    late = page.module("js/moves.js", "m.LATE_MS")
    return [tuple(m) for age, moves in page.eval("window.__raw")[since:] if 0 <= age <= late - 5 for m in moves]


def wait_sent(page, wanted: list, timeout: float = 3.0) -> None:
    deadline = time.monotonic() + timeout
    while not set(wanted) <= set(sent_moves(page)) and time.monotonic() < deadline:
        time.sleep(0.02)


def test_with_pointerrawupdate_moves_go_without_waiting_for_a_frame(browser, server):
    """pointerrawupdate exists: while no animation frame runs at all, every move a timely raw
    update brought goes out; when frames run again the rest follows, and every move has gone
    out once, with the `t` pointermove brings. Two fingers' moves of one moment travel in one
    frame."""
    page = open_page(browser, server, [HOLD_FRAMES, RECORD_MOVES, RECORD_RAW])
    try:
        assert page.state()["earlyMoves"] is True, "pointerrawupdate is there (a secure context: 127.0.0.1)"
        early = []
        for _ in range(3):  # a machine so loaded that no raw update is timely proves nothing: again
            since, count = len(page.eval("window.__raw")), len(seen_moves(page))
            stroke(page, {"f1": (100.0, 400.0)}, ("f1",), lift=True)
            wait_seen(page, count + 12)
            early = timely_raw_moves(page, since)
            if early:
                break
        assert early, f"no raw update came within the page's bound: {page.eval('window.__raw')}"
        wait_sent(page, early)
        assert page.eval("window.__frames.ran") == 0, "an animation frame ran: the test proves nothing"
        sent = sent_moves(page)
        assert set(early) <= set(sent), f"sent {sent} without a frame; the timely raw updates brought {early}"
        assert any(b["early"] for b in page.state()["batches"])

        # Two fingers moving together: each moment's two moves in one frame.
        before, count = len(page.frames_sent), len(seen_moves(page))
        stroke(page, {"f2": (100.0, 600.0), "f3": (200.0, 600.0)}, ("f2", "f3"), lift=True)
        wait_seen(page, count + 24)
        # Read once: on a loaded machine raw updates can still be coming in (a later read found
        # two more than the ones waited for, not sent yet when it looked).
        timely = timely_raw_moves(page)
        wait_sent(page, timely)
        assert page.eval("window.__frames.ran") == 0
        assert set(timely) <= set(sent_moves(page))

        # Frames run again: whatever waited for them goes, and each move has gone out once.
        page.eval("window.__frames.release()")
        page.wait_for(f"window.gesturepad.sent.filter(function (m) {{ return m.type === 'move'; }}).length"
                      f" >= {len(seen_moves(page))}")
        seen, sent = seen_moves(page), sent_moves(page)
        assert sorted(sent) == sorted(seen), f"sent {sent}\nthe browser delivered {seen}"
        assert len(set(sent)) == len(sent), "a move went out twice"
        two = {m["id"] for m in [m for m in page.state()["sent"] if m["type"] == "down"][-2:]}  # its fingers
        assert len(two) == 2, two
        for batch in wire_moves(page)[before:]:
            for t in {m["t"] for m in batch if m["id"] in two}:
                assert {m["id"] for m in batch if m["t"] == t} == two, f"a step split across frames: {batch}"
        no_console_errors(page)
    finally:
        forget_prefs(page)  # the first touch marked the hint seen: the next test's page is new
        page.close()


def test_a_finger_held_still_makes_the_step_wait_for_the_frame(browser, server):
    """pointerrawupdate exists, two fingers down, one moving: its moves wait for the animation
    frame (the still finger has not reported those moments), then go out together."""
    page = open_page(browser, server, [HOLD_FRAMES, RECORD_MOVES])
    try:
        stroke(page, {"f1": (100.0, 400.0), "f2": (250.0, 400.0)}, ("f1",), steps=8)
        wait_seen(page, 8)
        time.sleep(0.2)  # what would go early has gone by now
        early = moves_without_a_frame(page)
        assert early == [], f"moves of an incomplete step went early: {early}"
        page.eval("window.__frames.release()")
        page.wait_for(f"window.gesturepad.sent.filter(function (m) {{ return m.type === 'move'; }}).length >= 8")
        assert sorted(sent_moves(page)) == sorted(seen_moves(page))
    finally:
        forget_prefs(page)  # the first touch marked the hint seen: the next test's page is new
        page.close()


def test_without_pointerrawupdate_moves_wait_for_the_frame(browser, server):
    """No pointerrawupdate (Safari): moves go with the animation frame, as before — none while
    frames are held, then all of them, each once, when the frame runs; a gesture still works."""
    page = open_page(browser, server, [NO_RAW_UPDATES, HOLD_FRAMES, RECORD_MOVES])
    try:
        assert page.eval("'onpointerrawupdate' in window") is False
        assert page.state()["earlyMoves"] is False
        p = stroke(page, {"f1": (100.0, 400.0)}, ("f1",))
        wait_seen(page, 12)
        time.sleep(0.2)
        assert moves_without_a_frame(page) == [], f"moves went without a frame: {moves_without_a_frame(page)}"
        page.eval("window.__frames.release()")
        page.wait_for("window.gesturepad.sent.filter(function (m) { return m.type === 'move'; }).length >= 12")
        seen, sent = seen_moves(page), sent_moves(page)
        assert sorted(sent) == sorted(seen) and len(set(sent)) == len(sent), f"sent {sent}\ndelivered {seen}"
        assert not any(b["early"] for b in page.state()["batches"])
        p.up(200)
        p.finish()
        page.eval("window.__frames.release()")
        st = settle(page, "g.received.some(function (m) { return m.gesture === 'drag' && m.phase === 'ended'; })")
        assert any(m.get("gesture") == "drag" for m in st["received"])
        no_console_errors(page)
    finally:
        forget_prefs(page)  # the first touch marked the hint seen: the next test's page is new
        page.close()
