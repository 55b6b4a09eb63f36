"""What a touchpad does, as a real headless sway 1.7 (wlroots 0.15) delivers it from the
`wlroots` backend's virtual pointer and keyboard to a real Wayland client (tests/kde's
recorder.py, a GTK 3 window): motion, clicks, scrolling with its source and stop, the coast,
zoom, swipe keys, any Unicode, shortcuts — and nothing left pressed (docs/control.md)."""
import os
import time

import pytest

from sway_kit import ACTIVE, FLAT, focused_pad
from recorder_events import buttons, keys, last_position, scrolled, stroke, typed
from touch_input import even_steps, spread_steps, zoom_steps
from presenter_keys import check_presenter_keys

CONTROL_L, ALT_L, RIGHT = 0xFFE3, 0xFFE9, 0xFF53
CONTROL_MASK = 0x4


def scrolls(events):
    return [e for e in events if e["type"] == "scroll"]


def stops(events):
    return [e for e in scrolls(events) if e["stop"]]


def test_auto_picks_wlroots_and_says_why(desktop, start_server, pads):
    """`--control auto` in a sway session with no RemoteDesktop portal (no session bus) and no
    writable /dev/uinput: the wlroots backend, and the banner says which and why."""
    if os.access("/dev/uinput", os.W_OK):
        pytest.skip("/dev/uinput is writable here: auto picks the touchpad backend first")
    server = start_server(FLAT, control="auto")
    touchpad = pads(server)
    assert touchpad.welcome.get("control") == ACTIVE, touchpad.welcome
    banner = server.stdout()
    assert "through wlroots" in banner and "No RemoteDesktop portal answered" in banner, banner


def test_flat_motion_is_one_to_one(desktop, pad):
    """A 400 × 250 stroke at flat speed 1 moves the pointer by exactly that."""
    stroke(pad, {1: (50, 50)}, even_steps(10, 10, 2))
    before = last_position(desktop.wait_events(lambda e: last_position(e) is not None))
    stroke(pad, {1: (50, 50)}, even_steps(400, 250, 50))
    after = last_position(desktop.wait_events(lambda e: last_position(e) is not None))
    assert before and after, "the window saw no motion"
    assert abs(after[0] - before[0] - 400) <= 1 and abs(after[1] - before[1] - 250) <= 1, (before, after)


def test_taps_click_left_right_middle(desktop, pad):
    """A tap with 1 / 2 / 3 fingers is a click of button 1 / 3 / 2, pressed and released."""
    for fingers, button in ((1, 1), (2, 3), (3, 2)):
        desktop.events()
        pad.tap({i: (200 + 60 * i, 400) for i in range(1, fingers + 1)})
        events = desktop.wait_events(lambda e: ("button-up", button) in buttons(e))
        assert buttons(events) == [("button-down", button), ("button-up", button)], (fingers, events)


def test_two_finger_scroll_is_a_touchpad_scroll_that_stops(desktop, pad):
    """Two fingers up 96 CSS px slowly (too slowly to coast): smooth scrolling down (natural), 3.2–4 clicks' worth in
    GTK's units (the axis with source finger, 10 per click), and one scroll stop at the lift
    (axis_stop: where GTK ends or starts its own kinetic scroll); left: right, the same."""
    stroke(pad, {1: (300, 600), 2: (360, 600)}, even_steps(0, -96, 24, fingers=(1, 2)), frame=0.05)
    events = desktop.wait_events(lambda e: len(stops(e)) >= 1)
    dx, dy, smooth = scrolled(events)
    assert 3.2 <= dy <= 4.0 + 0.01 and abs(dx) < 0.1, smooth
    assert all(e["direction"] == 4 for e in smooth), "GDK_SCROLL_SMOOTH: a touchpad's scroll, not wheel clicks"
    assert len(stops(events)) == 1 and stops(events)[-1] is smooth[-1], smooth
    stroke(pad, {1: (300, 600), 2: (360, 600)}, even_steps(-96, 0, 24, fingers=(1, 2)), frame=0.05)
    dx, dy, smooth = scrolled(desktop.wait_events(lambda e: len(stops(e)) >= 1))
    assert 3.2 <= dx <= 4.0 + 0.01 and abs(dy) < 0.1, smooth


def flick(pad):
    """Two fingers flick up 200 px in 20 steps of 8 ms and lift while moving; returns the
    lift's monotonic time (s)."""
    start = {1: (300, 700), 2: (360, 700)}
    pad.down(start)
    pad.up(pad.glide(start, even_steps(0, -200, 20, fingers=(1, 2))))
    lifted = time.monotonic()
    pad.sync()
    return lifted


def test_a_flick_coasts_and_comes_to_rest_with_a_stop(desktop, pad):
    """A flick goes on scrolling after the lift, slower and slower, and ends with one scroll
    stop once at rest — the x11 backend's coast, as a touchpad's scroll."""
    lifted = flick(pad)
    events = desktop.wait_events(lambda e: len(stops(e)) >= 1, timeout=10, quiet=0.5)
    smooth = scrolls(events)
    after = [e for e in smooth if e["at"] > lifted + 0.03 and not e["stop"]]
    assert len(after) >= 8, f"only {len(after)} scroll events after the lift: {smooth}"
    assert all(e["dy"] > 0 for e in after), "the coast scrolls on the way the flick went"
    third = max(len(after) // 3, 1)
    early = sum(e["dy"] for e in after[:third]) / third
    late = sum(e["dy"] for e in after[-third:]) / third
    assert late < early / 3, f"the coast does not slow down: {[round(e['dy'], 3) for e in after]}"
    assert len(stops(events)) == 1 and smooth[-1]["stop"], "one stop, last"


def test_a_touch_stops_the_coast_at_once(desktop, pad):
    """A finger landing early in the coast stops it: a scroll stop comes at once, and no scroll
    after — where the coast left alone scrolls on for most of a second (the test above)."""
    lifted = flick(pad)
    desktop.wait_first(lambda e: any(x["at"] > lifted + 0.03 for x in scrolls(e)))
    pad.down({1: (600, 600)})
    touched = time.monotonic()
    pad.sync()
    events = desktop.wait_events(lambda e: len(stops(e)) >= 1, timeout=5, quiet=0.5)
    pad.up({1: (600, 600)})
    assert touched - lifted < 0.3, f"the touch came {touched - lifted:.2f} s after the lift: the coast may be over"
    assert len(stops(events)) == 1, f"no single scroll stop after the touch: {scrolls(events)}"
    stop = stops(events)[0]
    assert 0 <= stop["at"] - touched < 0.3, f"the stop came {stop['at'] - touched:.2f} s after the touch"
    assert not [e for e in scrolls(events) if e["at"] > stop["at"]], "scrolling went on after the stop"


def test_pinch_zooms_with_control_and_wheel_clicks(desktop, pad):
    """Spreading two fingers to twice their span: Control held around wheel clicks up, one per
    ×1.25 (docs/control.md), each seen with Control; pinching back in: as many down."""
    for span_from, span_to, sign in ((100, 200, -1), (200, 100, 1)):
        desktop.events()
        start, steps = spread_steps((600, 500), span_from, span_to, 30)
        stroke(pad, start, steps)
        events = desktop.wait_events(lambda e: ("key-up", CONTROL_L) in keys(e))
        assert keys(events) == [("key-down", CONTROL_L), ("key-up", CONTROL_L)], events
        clicks = [e for e in scrolls(events) if e["direction"] != 4]
        expected = 0 if sign < 0 else 1  # GDK_SCROLL_UP 0, GDK_SCROLL_DOWN 1
        assert len(clicks) == zoom_steps(2.0) and all(e["direction"] == expected for e in clicks), events
        assert all(e["state"] & CONTROL_MASK for e in clicks), clicks


def test_three_finger_swipe_presses_its_keys(desktop, pad):
    """A three-finger swipe left is Alt+ArrowRight: Alt held around the arrow."""
    stroke(pad, {1: (500, 600), 2: (560, 600), 3: (620, 600)}, even_steps(-150, 0, 12, fingers=(1, 2, 3)))
    events = desktop.wait_events(lambda e: ("key-up", ALT_L) in keys(e))
    assert keys(events) == [("key-down", ALT_L), ("key-down", RIGHT), ("key-up", RIGHT), ("key-up", ALT_L)], events


def test_any_unicode_and_control_a(desktop, pad):
    """Text beyond the US layout — ö, €, CJK, an emoji — typed as sent (spare keys of one
    uploaded keymap); then Control+a from the key row, Control seen with the key; then US text
    again, with Shift sent as a modifier."""
    text = "Hello, wörld € 日本 🙂"
    assert pad.request({"type": "text", "text": text}) is None
    events = desktop.wait_events(lambda e: typed(e) == text)
    assert typed(events) == text, events
    assert pad.request({"type": "key", "key": "a", "modifiers": ["Control"]}) is None
    events = desktop.wait_events(lambda e: ("key-up", CONTROL_L) in keys(e))
    assert keys(events) == [("key-down", CONTROL_L), ("key-down", 0x61), ("key-up", 0x61), ("key-up", CONTROL_L)], events
    assert [e for e in events if e["keyval"] == 0x61][0]["state"] & CONTROL_MASK, events
    assert pad.request({"type": "text", "text": "Hi (1+2=3)!"}) is None
    events = desktop.wait_events(lambda e: typed(e) == "Hi (1+2=3)!")
    assert typed(events) == "Hi (1+2=3)!", events


def test_the_seats_own_layout_is_the_base(desktop, start_server, pads):
    """With a German keymap active on the seat (another server's keyboard, started with
    --keyboard-layout de, that typed), a server started without --keyboard-layout types on the
    seat's layout: "z" on the German Z key (XKB 29, US Y), "y" on 52 — the user's keys, where
    shortcuts land — and still any other character."""
    _, german = focused_pad(desktop, pads, start_server, FLAT + ["--keyboard-layout", "de"])
    assert german.request({"type": "text", "text": "a"}) is None
    desktop.wait_events(lambda e: typed(e) == "a")
    follower = pads(start_server(FLAT))
    assert follower.welcome.get("control", {}).get("active"), follower.welcome
    assert follower.request({"type": "text", "text": "zy€🙂"}) is None
    events = desktop.wait_events(lambda e: typed(e) == "zy€🙂")
    assert typed(events) == "zy€🙂", events
    downs = {e["unicode"]: e["keycode"] for e in events if e["type"] == "key-down" and e["unicode"]}
    assert (downs["z"], downs["y"]) == (29, 52), downs


def test_a_burst_of_5000_moves_keeps_the_connection(desktop, start_server, pads):
    """5,000 one-pixel moves at once (20 messages of 250, unpaced; the page's rate limit raised
    to let them in): the server's connection to sway survives (libwayland drops one whose
    buffer fills: a flush per 64 requests, EAGAIN waited out), control stays on, and a stroke
    afterwards is still exact."""
    _, pad = focused_pad(desktop, pads, start_server, FLAT + ["--max-rate", "20000"])
    since = pad.mark()
    pad.down({1: (100, 100)})
    t = pad.t()
    moves = [{"type": "move", "id": 1, "x": 100 + (i % 2), "y": 100, "t": t + i * 0.001, "pointerType": "touch"}
             for i in range(1, 5001)]
    for first in range(0, len(moves), 250):
        pad.send(moves[first:first + 250])
    pad.up({1: (100, 100)})
    pad.sync(timeout=30)
    assert not pad.messages(since, "control"), f"control changed: {pad.messages(since, 'control')}"
    assert desktop.wait_events(lambda e: last_position(e) is not None), "no motion reached the window"
    stroke(pad, {1: (50, 50)}, even_steps(10, 10, 2))
    before = last_position(desktop.wait_events(lambda e: last_position(e) is not None))
    stroke(pad, {1: (50, 50)}, even_steps(100, 60, 10))
    after = last_position(desktop.wait_events(lambda e: last_position(e) is not None))
    assert before and after and (after[0] - before[0], after[1] - before[1]) == (100, 60), (before, after)


def held_then(desktop, start_server, pads, ending: str):
    """A fresh server whose page holds the left button by a tap and drag, then `ending`
    (close, sigterm); returns the server and the window's events after it. (SIGKILL, where
    wlroots keeps the grab: test_sway_compositor.py, with two windows.)"""
    server, touchpad = focused_pad(desktop, pads, start_server, FLAT)
    touchpad.tap({1: (400, 400)}, hold=0.03)
    touchpad.down({1: (400, 400)})
    touchpad.move({1: (420, 410)})
    touchpad.move({1: (440, 420)})
    touchpad.sync()
    held = desktop.wait_events(lambda e: buttons(e)[-1:] == [("button-down", 1)], timeout=5)
    assert buttons(held)[-1:] == [("button-down", 1)], f"the drag did not hold the button: {held}"
    if ending == "close":
        touchpad.ws.close()
    else:
        assert server.stop() == 0
    return server, desktop.wait_events(lambda e: ("button-up", 1) in buttons(e), timeout=5)


def test_disconnect_mid_drag_releases_the_button(desktop, start_server, pads):
    """A drag's held button is released when the connection closes."""
    _, events = held_then(desktop, start_server, pads, "close")
    assert buttons(events) == [("button-up", 1)], events


def test_sigterm_mid_drag_releases_the_button(desktop, start_server, pads):
    """And when the server stops."""
    _, events = held_then(desktop, start_server, pads, "sigterm")
    assert buttons(events) == [("button-up", 1)], events


def test_presenter_slide_keys(desktop, pad):
    """The presenter view's Page Down, Page Up and b reach the focused window (presenter_keys)."""
    check_presenter_keys(desktop, pad, keys)
