"""The page in real headless Chromium against the real `gesturepad serve`.

Each test injects touch (or mouse) input with exact timestamps into a phone-emulated tab
and checks three things: what the page sent (on the wire, in batches), what the server
recognized (the gesture messages the page received) and what the page shows (DOM feed
and the drawn-gesture counters in `window.gesturepad`)."""

from __future__ import annotations

import math

import pytest

from browser_harness import (
    Player, check_wire, feed, gestures, has_gesture, no_console_errors, pointer_messages, set_details, settle,
)


# ---- gestures -----------------------------------------------------------------------------

def test_tap(pad):
    """A quick touch is sent as down + up with the browser's timestamps and shows as a confirmed single tap."""
    p = Player(pad)
    p.down(0, f1=(120, 300))
    p.up(70)
    p.finish()
    st = settle(pad, has_gesture("singleTapConfirmed"))
    sent = pointer_messages(st)
    assert [m["type"] for m in sent] == ["down", "up"]
    assert sent[0]["id"] == sent[1]["id"] and sent[0]["pointerType"] == "touch"
    assert (sent[0]["x"], sent[0]["y"]) == (120, 300)
    assert sent[1]["t"] - sent[0]["t"] == pytest.approx(70, abs=0.5)
    check_wire(pad, st)
    # A loaded machine may deliver the up after the 100 ms timedPress tick: allow that tick.
    seq = [m["gesture"] for m in gestures(st) if m["gesture"] != "timedPress"]
    assert seq == ["press", "release", "tap", "end", "singleTapConfirmed"]
    assert [m["phase"] for m in gestures(st, "timedPress")] in ([], ["began", "ended"])
    tap = gestures(st, "tap")[0]
    assert (tap["count"], tap["pointers"], tap["x"], tap["y"]) == (1, 1, 120, 300)
    assert tap["session"] == st["session"]
    assert st["drawn"]["tap"] == 1
    # The calm feed: one row, "tap"; no timedPress / singleTapConfirmed / press / end rows.
    assert [(f["gesture"], f["text"]) for f in feed(pad)] == [("tap", "tap")]
    # Details mode lists every event of the same tap, with its fields.
    set_details(pad, True)
    shown = feed(pad)
    assert any(f["gesture"] == "tap" and "count 1" in f["text"] for f in shown)
    assert {"press", "release", "end", "singleTapConfirmed"} <= {f["gesture"] for f in shown}
    no_console_errors(pad)


def test_double_tap(pad):
    """Two quick taps close together give tap counts 1 and 2, a doubleTap and no single-tap confirmation."""
    p = Player(pad)
    p.down(0, f1=(200, 400))
    p.up(60)
    p.down(120, f1=(204, 403))
    p.up(180)
    p.finish(420)
    st = settle(pad, has_gesture("doubleTap"))
    assert [m["type"] for m in pointer_messages(st)] == ["down", "up", "down", "up"]
    check_wire(pad, st)
    assert [m["count"] for m in gestures(st, "tap")] == [1, 2]
    dt = gestures(st, "doubleTap")
    assert len(dt) == 1 and (dt[0]["x"], dt[0]["y"]) == (200, 400)
    assert gestures(st, "singleTapConfirmed") == []
    assert st["drawn"]["doubleTap"] == 1
    # One row for the whole sequence, updated in place: "tap" became "double tap".
    assert [(f["gesture"], f["text"]) for f in feed(pad)] == [("doubleTap", "double tap")]
    no_console_errors(pad)


def test_long_press(pad):
    """Holding still fires the timer gestures at their page-clock deadlines and shows the long press."""
    p = Player(pad, realtime=True)
    p.down(0, f1=(200, 420))
    p.up(750)
    p.finish()
    st = settle(pad, has_gesture("longPress", "ended") + "&&" + has_gesture("end"))
    down = pointer_messages(st)[0]
    assert [m["type"] for m in pointer_messages(st)] == ["down", "up"]
    check_wire(pad, st)
    lp = gestures(st, "longPress")
    assert [m["phase"] for m in lp] == ["began", "ended"]
    assert lp[0]["t"] - down["t"] == pytest.approx(500, abs=1)
    assert [m["phase"] for m in gestures(st, "timedPress")][0] == "began"
    assert gestures(st, "timedPress")[-1]["phase"] == "ended"
    reps = gestures(st, "repeat")
    assert len(reps) >= 2 and [m["count"] for m in reps] == list(range(1, len(reps) + 1))
    # Timer events carry their deadline on the page clock: 500 ms after down, then every 100 ms.
    assert [round(m["t"] - down["t"]) for m in reps] == [500 + 100 * i for i in range(len(reps))]
    counts = [m["count"] for m in reps]
    assert gestures(st, "tap") == [] and gestures(st, "drag") == []
    assert st["drawn"]["longPress"] == 2 and st["drawn"]["repeat"] == len(counts)
    shown = feed(pad)
    # Calm: one "long press" row with the time held; the repeat ticks are not listed.
    assert [f["gesture"] for f in shown] == ["longPress"]
    assert shown[0]["phase"] == "ended" and shown[0]["text"].startswith("long press")
    # Details: the repeat ticks are one row, updated in place to the last count.
    set_details(pad, True)
    reps_shown = [f for f in feed(pad) if f["gesture"] == "repeat"]
    assert len(reps_shown) == 1 and reps_shown[0]["text"].endswith(f"count {counts[-1]}")
    no_console_errors(pad)


def test_drag(pad):
    """A slow one-finger drag that stops before lifting is a drag with its translation and no swipe."""
    p = Player(pad)
    p.down(0, f1=(100, 500))
    p.move(20, 480, f1=(250, 500))
    p.up(600)
    p.finish()
    st = settle(pad, has_gesture("end"))
    sent = pointer_messages(st)
    assert sent[0]["type"] == "down" and sent[-1]["type"] == "up"
    moves = [m for m in sent if m["type"] == "move"]
    # 30 moves, less those the page merged into a later one while it found the link backed up
    # (a loaded machine answers its probe late: docs/page.md "A slow link").
    assert len(moves) + st["backlog"]["merged"] == 30 and moves[-1]["x"] == 250
    assert all(b["t"] > a["t"] for a, b in zip(moves, moves[1:]))
    check_wire(pad, st)
    drag = gestures(st, "drag")
    assert drag[0]["phase"] == "began" and drag[-1]["phase"] == "ended"
    assert {m["phase"] for m in drag[1:-1]} == {"changed"}
    assert drag[-1]["dx"] == pytest.approx(150, abs=1) and drag[-1]["dy"] == pytest.approx(0, abs=1)
    assert (drag[0]["startX"], drag[0]["startY"]) == (100, 500)
    assert gestures(st, "swipe") == [] and gestures(st, "tap") == []
    assert st["drawn"]["drag"] == len(drag)
    # One vocabulary with the terminal (docs/outputs.md): a one-finger move is "pointer".
    assert [(f["gesture"], f["phase"], f["text"]) for f in feed(pad)] == [("drag", "ended", "pointer → 150 px")]
    no_console_errors(pad)


def test_swipe(pad):
    """A fast flick to the right is a swipe with its direction, distance and velocity."""
    p = Player(pad)
    p.down(0, f1=(80, 600))
    p.move(10, 120, step=15, f1=(300, 600))
    p.up(135)
    p.finish()
    st = settle(pad, has_gesture("swipe") + "&&" + has_gesture("end"))
    check_wire(pad, st)
    sw = gestures(st, "swipe")
    assert len(sw) == 1
    assert sw[0]["direction"] == "right"
    assert sw[0]["distance"] == pytest.approx(220, abs=1)
    assert sw[0]["velocity"] >= 1000
    assert [m["phase"] for m in gestures(st, "drag")][-1] == "ended"
    assert st["drawn"]["swipe"] == 1
    assert any(f["gesture"] == "swipe" and "right" in f["text"] for f in feed(pad))
    no_console_errors(pad)


def test_two_finger_scroll(pad):
    """Two fingers moving together scroll; both fingers' moves of one touch frame travel in one batch."""
    p = Player(pad)
    p.down(0, f1=(150, 350), f2=(250, 350))
    p.move(20, 300, f1=(150, 500), f2=(250, 500))
    p.up(330)
    p.finish()
    st = settle(pad, has_gesture("scroll", "ended") + "&&" + has_gesture("end"))
    batches = check_wire(pad, st)
    downs = [m for m in pointer_messages(st) if m["type"] == "down"]
    assert len(downs) == 2 and downs[0]["id"] != downs[1]["id"] and downs[0]["t"] == downs[1]["t"]
    pairs = [b for b in batches if len([m for m in b if m["type"] == "move"]) >= 2]
    assert pairs, "two fingers' moves of one frame are sent in one batch"
    assert any(len({m["id"] for m in b if m["type"] == "move"}) == 2 for b in pairs)
    sc = gestures(st, "scroll")
    assert sc[0]["phase"] == "began" and sc[-1]["phase"] == "ended"
    assert all(m["pointers"] == 2 for m in sc)
    last = [m for m in sc if m["phase"] != "ended"][-1]
    assert last["dy"] == pytest.approx(150, abs=1) and last["dx"] == pytest.approx(0, abs=1)
    assert gestures(st, "pinch") == [] and gestures(st, "rotate") == [] and gestures(st, "drag") == []
    assert st["drawn"]["scroll"] == len(sc)
    assert any(f["gesture"] == "scroll" for f in feed(pad))
    no_console_errors(pad)


def test_pinch(pad):
    """Two fingers spreading apart pinch out to about twice the scale, without scrolling or rotating."""
    p = Player(pad)
    p.down(0, f1=(145, 420), f2=(245, 420))
    p.move(20, 300, f1=(95, 420), f2=(295, 420))
    p.up(400)
    p.finish()
    st = settle(pad, has_gesture("pinch", "ended") + "&&" + has_gesture("end"))
    check_wire(pad, st)
    pinch = gestures(st, "pinch")
    assert pinch[0]["phase"] == "began" and pinch[-1]["phase"] == "ended"
    assert pinch[-1]["scale"] == pytest.approx(2.0, abs=0.02)
    assert (pinch[-1]["x"], pinch[-1]["y"]) == (pytest.approx(195, abs=1), pytest.approx(420, abs=1))
    assert gestures(st, "scroll") == [] and gestures(st, "rotate") == []
    assert st["drawn"]["pinch"] == len(pinch)
    assert any(f["gesture"] == "pinch" and "zoom in ×2.0" in f["text"] for f in feed(pad))
    no_console_errors(pad)


def test_rotate(pad):
    """Two fingers turning 60° clockwise around their centre rotate by +60°."""
    cx, cy, r = 195, 420, 70

    def turn(f):
        a = math.radians(60 * f)
        return {1: (round(cx - r * math.cos(a), 2), round(cy - r * math.sin(a), 2)),
                2: (round(cx + r * math.cos(a), 2), round(cy + r * math.sin(a), 2))}

    p = Player(pad)
    p.down(0, f1=(cx - r, cy), f2=(cx + r, cy))
    p.path(20, 320, turn)
    p.up(420)
    p.finish()
    st = settle(pad, has_gesture("rotate", "ended") + "&&" + has_gesture("end"))
    check_wire(pad, st)
    rot = gestures(st, "rotate")
    assert rot[0]["phase"] == "began" and rot[-1]["phase"] == "ended"
    assert rot[-1]["angle"] == pytest.approx(60, abs=1)
    assert gestures(st, "pinch") == [] and gestures(st, "scroll") == []
    assert st["drawn"]["rotate"] == len(rot)
    assert any(f["gesture"] == "rotate" and "+60°" in f["text"] for f in feed(pad))
    no_console_errors(pad)


def test_cancelled_touch(pad):
    """A touch the browser cancels is sent as cancel: the drag is cancelled, the contact ends with reason cancel, no tap."""
    p = Player(pad)
    p.down(0, f1=(200, 400))
    p.move(20, 150, f1=(200, 480))
    p.cancel(220)
    p.finish()
    st = settle(pad, has_gesture("end"))
    sent = pointer_messages(st)
    assert sent[-1]["type"] == "cancel" and sent[-1]["id"] == sent[0]["id"]
    assert sent[-1]["t"] - sent[0]["t"] == pytest.approx(220, abs=0.5)
    check_wire(pad, st)
    assert gestures(st, "drag")[-1]["phase"] == "cancelled"
    end = gestures(st, "end")
    assert len(end) == 1 and end[0]["reason"] == "cancel"
    assert gestures(st, "release") == [] and gestures(st, "tap") == [] and gestures(st, "swipe") == []
    shown = feed(pad)
    assert any(f["gesture"] == "drag" and f["phase"] == "cancelled" and "cancelled" in f["text"] for f in shown)
    assert not any(f["gesture"] == "end" for f in shown)  # the contact's end: details only
    set_details(pad, True)
    assert any(f["gesture"] == "end" and "cancel" in f["text"] for f in feed(pad))
    no_console_errors(pad)


def test_mouse_hover(pad):
    """A mouse moving with no button held is sent as moves without a down and shows as hover."""
    p = Player(pad)
    for i in range(6):
        p.mouse(i * 16, 100 + 20 * i, 200 + 10 * i)
    p.finish()
    st = settle(pad, "g.received.some(function(m){return m.gesture==='hover'&&m.x===200&&m.y===250;})")
    sent = pointer_messages(st)
    assert sent and all(m["type"] == "move" and m["pointerType"] == "mouse" for m in sent)
    assert all(m.get("buttons", 0) == 0 for m in sent)
    check_wire(pad, st)
    hover = gestures(st, "hover")
    assert hover[0]["phase"] == "began" and all(m["phase"] == "changed" for m in hover[1:])
    assert all(m["pointers"] == 0 and m["pointerType"] == "mouse" for m in hover)
    assert (hover[-1]["x"], hover[-1]["y"]) == (200, 250)
    assert gestures(st, "press") == []
    assert any(f["gesture"] == "hover" for f in feed(pad))
    # Moving onto the header's fullscreen button leaves the surface: `leave` ends the hover.
    box = pad.eval("(function(r){return [r.left + r.width / 2, r.top + r.height / 2];})"
                   "(document.getElementById('fullscreen').getBoundingClientRect())")
    p = Player(pad)
    p.mouse(0, box[0], box[1])
    p.finish()
    st = settle(pad, has_gesture("hover", "ended"))
    leave = [m for m in st["sent"] if m["type"] == "leave"]
    assert len(leave) == 1 and leave[0]["id"] == sent[0]["id"]
    assert gestures(st, "hover")[-1]["phase"] == "ended"
    assert st["drawn"]["hover"] == len(gestures(st, "hover"))
    no_console_errors(pad)
