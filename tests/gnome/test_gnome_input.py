"""What a touchpad does, as a real GNOME 43 compositor receives it through the RemoteDesktop
portal: the pointer (global.get_pointer()), and buttons, scrolling and keys as its stage sees
them (recorder.js)."""
import json
import subprocess
import time

from testkit import binary
from touch_input import SURFACE, even_steps, spread_steps, zoom_steps
from presenter_keys import check_presenter_keys

# Clutter's values (clutter-enums.h).
BUTTON1, BUTTON2, BUTTON3 = 0x100, 0x200, 0x400
SHIFT, CONTROL, ALT = 0x1, 0x4, 0x8
SCROLL_UP, SCROLL_DOWN, SCROLL_LEFT, SCROLL_RIGHT, SCROLL_SMOOTH = 0, 1, 2, 3, 4
SOURCE_WHEEL, SOURCE_FINGER = 1, 2


def keys(events):
    return [(e["type"], e["keysym"]) for e in events if e["type"].startswith("key")]


def typed(events) -> str:
    return "".join(e["unicode"] for e in events if e["type"] == "key-down")


def released(events, button) -> bool:
    return any(e["type"] == "button-up" and e["button"] == button for e in events)


def test_flat_motion_is_one_to_one(desktop, pad):
    """`--acceleration flat --speed 1`: a stroke of 400 × 250 CSS px in 80 moves moves the
    compositor's pointer by 400 × 250 screen px (±1)."""
    desktop.warp(300, 200)
    pad.down({1: (200, 200)})
    pad.up(pad.glide({1: (200, 200)}, even_steps(400, 250, 80)))
    pad.sync()
    assert desktop.wait_for("(([x, y]) => x === 700 && y === 450)(global.get_pointer())", timeout=2) or \
        _near(desktop.pointer(), (700, 450)), desktop.pointer()


def _near(point, target, tolerance=1) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(point, target))


def test_adaptive_motion_is_gesturepads_curve(desktop, start_server, active_pad, tmp_path):
    """With the default `adaptive` acceleration the pointer moves by what GesturePad's curve
    gives (the same input replayed with `replay --actions`), to the pixel: the compositor adds
    no acceleration of its own to the portal's relative motion."""
    touchpad = active_pad(start_server())
    sent = [json.dumps({"type": "hello", "protocol": 1, "role": "touchpad", "width": SURFACE[0],
                        "height": SURFACE[1], "dpr": 3, "client": "pytest"})]
    send = touchpad.send
    touchpad.send = lambda messages: (sent.append(json.dumps(messages)), send(messages))
    desktop.warp(200, 300)
    touchpad.down({1: (200, 200)})
    end = touchpad.glide({1: (200, 200)}, even_steps(60, 0, 30))  # slow: 2 px per 8 ms
    end = touchpad.glide(end, even_steps(240, 60, 30))  # faster: 8 px per 8 ms
    touchpad.up(end)
    touchpad.sync()
    trace = tmp_path / "stroke.jsonl"
    trace.write_text("\n".join(sent) + "\n")
    replayed = subprocess.run([str(binary()), "replay", "--actions", str(trace)], capture_output=True, text=True,
                              timeout=30, check=True).stdout
    motions = [json.loads(line) for line in replayed.splitlines() if '"motion"' in line]
    dx, dy = sum(m["dx"] for m in motions), sum(m["dy"] for m in motions)
    assert dx > 330, f"adaptive moved {dx}: no acceleration to show"
    expected = (200 + dx, 300 + dy)
    assert desktop.wait_for(f"(([x, y]) => x === {expected[0]} && y === {expected[1]})(global.get_pointer())",
                            timeout=2), (desktop.pointer(), expected)


def test_taps_click_left_right_middle(desktop, pad):
    """One-, two- and three-finger taps: button 1, 3, 2 pressed and released, in that order."""
    desktop.events()
    events = []
    for fingers, button in ((1, 1), (2, 3), (3, 2)):
        mark = pad.mark()
        pad.tap({i: (240 + 60 * i, 300) for i in range(1, fingers + 1)})
        events += desktop.wait_events(lambda e: released(e, button))
        # The next tap must start a sequence of its own (GESTURES.md: a tap within
        # multiTapInterval counts on): wait for this one's singleTapConfirmed.
        assert pad.wait_message(lambda m: "singleTapConfirmed" in json.dumps(m), mark), pad.messages(mark)
    buttons = [(e["type"], e["button"]) for e in events if e["type"].startswith("button")]
    assert buttons == [("button-down", 1), ("button-up", 1), ("button-down", 3), ("button-up", 3),
                       ("button-down", 2), ("button-up", 2)], events
    assert desktop.buttons_held() == 0


def _scroll(touchpad, dx, dy):
    start = {1: (700, 700), 2: (760, 700)}
    touchpad.down(start)
    touchpad.up(touchpad.glide(start, even_steps(dx, dy, 24, fingers=(1, 2))))
    touchpad.sync()


def _scrolled(events):
    smooth = [e for e in events if e["type"] == "scroll" and e["direction"] == SCROLL_SMOOTH]
    clicks = [e["direction"] for e in events if e["type"] == "scroll" and e["direction"] != SCROLL_SMOOTH]
    return smooth, clicks


def test_two_finger_scroll_is_smooth_and_natural(desktop, pad):
    """Two fingers up 96 CSS px (4 detents of 24 px) scroll down, natural: smooth finger scroll
    events adding up to 4 clicks' worth (mutter: 1.0 per click; a few px of the stroke go to the
    engine's slop), and the wheel clicks mutter derives from them, down. Fingers left scroll
    right."""
    desktop.events()
    _scroll(pad, 0, -96)
    events = desktop.wait_events(lambda e: sum(x.get("dy", 0) for x in e) >= 3.2, timeout=3)
    smooth, clicks = _scrolled(events)
    total = sum(e["dy"] for e in smooth)
    assert 3.2 <= total <= 4.0 + 1e-6, (total, events)
    assert abs(sum(e["dx"] for e in smooth)) < 0.1
    assert all(e["source"] == SOURCE_FINGER for e in smooth), smooth
    # mutter emits a click each time the smooth amount passes a whole one.
    assert set(clicks) == {SCROLL_DOWN} and abs(len(clicks) - total) < 1, (clicks, total)

    _scroll(pad, -96, 0)
    events = desktop.wait_events(lambda e: sum(x.get("dx", 0) for x in e) >= 3.2, timeout=3)
    smooth, clicks = _scrolled(events)
    total = sum(e["dx"] for e in smooth)
    assert 3.2 <= total <= 4.0 + 1e-6 and abs(sum(e["dy"] for e in smooth)) < 0.1, events
    # (mutter keeps the vertical remainder of the first scroll: a crumb more can click once)
    sideways = [c for c in clicks if c in (SCROLL_LEFT, SCROLL_RIGHT)]
    assert set(sideways) == {SCROLL_RIGHT} and abs(len(sideways) - total) < 1, (clicks, total)


def test_scroll_without_natural_scrolling(desktop, start_server, active_pad):
    """`--no-natural-scroll`: fingers moving up scroll up."""
    touchpad = active_pad(start_server(["--no-natural-scroll"]))
    desktop.events()
    _scroll(touchpad, 0, -96)
    events = desktop.wait_events(lambda e: sum(x.get("dy", 0) for x in e) <= -3.2, timeout=3)
    smooth, clicks = _scrolled(events)
    assert -4.0 - 1e-6 <= sum(e["dy"] for e in smooth) <= -3.2, events
    assert set(clicks) == {SCROLL_UP}, clicks


def _pinch(touchpad, span_from, span_to):
    start, steps = spread_steps((600, 500), span_from, span_to, 30)
    touchpad.down(start)
    touchpad.up(touchpad.glide(start, steps))
    touchpad.sync()


def test_pinch_zooms_with_control_and_wheel_steps(desktop, pad):
    """Spreading two fingers to twice their span: Control down, three wheel clicks up (one per
    ×1.25, mutter's discrete wheel events) with Control held, Control up; pinching back in:
    three clicks down."""
    desktop.events()
    _pinch(pad, 100, 200)
    events = desktop.wait_events(lambda e: ("key-up", 0xFFE3) in keys(e), timeout=3)
    assert keys(events) == [("key-down", 0xFFE3), ("key-up", 0xFFE3)], events
    _, clicks = _scrolled(events)
    assert clicks == [SCROLL_UP] * zoom_steps(2.0), events
    wheel = [e for e in events if e["type"] == "scroll"]
    assert all(e["state"] & CONTROL and e["source"] == SOURCE_WHEEL for e in wheel), wheel

    _pinch(pad, 200, 100)
    events = desktop.wait_events(lambda e: ("key-up", 0xFFE3) in keys(e), timeout=3)
    _, clicks = _scrolled(events)
    assert clicks == [SCROLL_DOWN] * zoom_steps(2.0), events


def _swipe(touchpad, dx, dy):
    start = {1: (500, 600), 2: (560, 600), 3: (620, 600)}
    touchpad.down(start)
    touchpad.up(touchpad.glide(start, even_steps(dx, dy, 12, fingers=(1, 2, 3))))
    touchpad.sync()


def test_three_finger_swipes_press_their_keys(desktop, pad):
    """A three-finger swipe left is Alt+ArrowRight (Alt held around the arrow); up is Meta alone,
    which GNOME takes itself: the Activities overview opens."""
    desktop.events()
    _swipe(pad, -300, 0)
    events = desktop.wait_events(lambda e: ("key-up", 0xFFE9) in keys(e), timeout=3)
    assert keys(events) == [("key-down", 0xFFE9), ("key-down", 0xFF53), ("key-up", 0xFF53), ("key-up", 0xFFE9)], events
    arrow = [e for e in events if e["keysym"] == 0xFF53 if e["type"] == "key-down"]
    assert arrow[0]["state"] & ALT, arrow

    assert not desktop.eval("Main.overview.visible")
    _swipe(pad, 0, -300)
    assert desktop.wait_for("Main.overview.visible", timeout=3), "Meta did not open the overview"


def test_named_keys_with_modifiers(desktop, pad):
    """`key` messages: modifiers down in order, the key with them held, then released in reverse;
    named keys go by key code (Shift+Tab is ISO_Left_Tab, as on a real keyboard)."""
    desktop.events()
    for message in ({"key": "c", "modifiers": ["Control", "Shift"]}, {"key": "Tab", "modifiers": ["Shift"]},
                    {"key": "F5"}, {"key": "ArrowLeft", "modifiers": ["Alt"]}, {"key": "Enter"}):
        assert pad.request({"type": "key", **message}) is None, message
    events = desktop.wait_events(lambda e: ("key-up", 0xFF0D) in keys(e), timeout=3)
    assert keys(events) == [
        ("key-down", 0xFFE3), ("key-down", 0xFFE1), ("key-down", 0x43), ("key-up", 0x43), ("key-up", 0xFFE1),
        ("key-up", 0xFFE3),
        ("key-down", 0xFFE1), ("key-down", 0xFE20), ("key-up", 0xFE20), ("key-up", 0xFFE1),
        ("key-down", 0xFFC2), ("key-up", 0xFFC2),
        ("key-down", 0xFFE9), ("key-down", 0xFF51), ("key-up", 0xFF51), ("key-up", 0xFFE9),
        ("key-down", 0xFF0D), ("key-up", 0xFF0D),
    ], events
    c = next(e for e in events if e["keysym"] == 0x43)
    assert c["state"] & (CONTROL | SHIFT) == CONTROL | SHIFT, c


def test_ascii_text_is_typed_in_order(desktop, pad):
    """`text` of printable ASCII, with a newline and a tab: every character arrives, in order,
    each pressed and released (the portal could reorder calls sent back to back)."""
    desktop.events()
    text = "Hello, world! The quick brown fox (42) & {}[]~"
    assert pad.request({"type": "text", "text": text + "\n\t"}) is None
    events = desktop.wait_events(lambda e: ("key-up", 0xFF09) in keys(e), timeout=5)
    assert typed(events) == text + "\r\t", events
    downs = [k for k in keys(events) if k[0] == "key-down"]
    ups = [k for k in keys(events) if k[0] == "key-up"]
    assert len(downs) == len(ups)


def test_disconnect_mid_drag_releases_the_button(desktop, pad):
    """Tap, then touch again and move (tap-and-drag: button 1 held), then the connection drops:
    the compositor sees button 1 released within a second."""
    pad.tap({1: (300, 300)})
    pad.down({1: (300, 300)})
    pad.glide({1: (300, 300)}, even_steps(60, 0, 10))
    pad.sync()
    assert desktop.wait_for("(global.get_pointer()[2] & 0x100) !== 0", timeout=2), "no drag: button 1 is not down"
    closed = time.monotonic()
    pad.close()
    assert desktop.wait_for("(global.get_pointer()[2] & 0x100) === 0", timeout=1.0), "button 1 still down"
    assert time.monotonic() - closed < 1.0


def test_presenter_slide_keys(desktop, pad):
    """The presenter view's Page Down, Page Up and b reach the focused window (presenter_keys)."""
    check_presenter_keys(desktop, pad, keys)
