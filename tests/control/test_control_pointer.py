"""CONTROL.md "Default mapping": touch input on a real WebSocket → what XTest delivers to a
window on a private Xvfb (buttons, wheel, keys, pointer position and button mask)."""
import time

import pytest
from Xlib import X

from touch_input import even_steps, spread_steps, zoom_steps
from x11_harness import BUTTON1_MASK, ANY_BUTTON_MASK, MODIFIER_NAMES, buttons, describe, keys

FLAT = ["--acceleration", "flat", "--speed", "1"]
HOME = (500, 500)  # where the x fixture puts the pointer


def alternating_steps(dx: float, dy: float, count: int) -> list:
    """`count` moves of 0.7 and 1.3 × the mean step in turn, adding up to (dx, dy)."""
    return [{1: (f * dx / count, f * dy / count)} for f in (0.7, 1.3) * (count // 2)]


def near(state, target, tolerance=1) -> bool:
    return abs(state[0] - target[0]) <= tolerance and abs(state[1] - target[1]) <= tolerance


def presses(events, button=None) -> list:
    return [e for e in events if e.kind == "press" and (button is None or e.detail == button)]


def tap_then_touch(pad, x, at=(400, 400)):
    """A tap, its button 1 press seen at the window, then the finger down again well inside
    multiTapInterval. Returns the start position."""
    pad.tap({1: at})
    events = x.wait_for(lambda ev: ("press", 1) in buttons(ev), x.start, timeout=2)
    assert ("press", 1) in buttons(events), f"a tap did not press button 1 at once; the window got: {describe(events)}"
    time.sleep(0.08)  # past multiTapMinInterval (40 ms), well inside multiTapInterval (300 ms)
    pad.down({1: at})
    return {1: at}


# -- motion -------------------------------------------------------------------------------------

@pytest.mark.parametrize("start, delta", [((500, 500), (1000, 0)), ((300, 300), (1000, 500))],
                         ids=["horizontal", "diagonal"])
def test_flat_speed_1_stroke_lands_within_1px(x, start_server, pads, start, delta):
    """With --acceleration flat --speed 1, 1,000 moves of 0.7 / 1.3 × (1, ½) px move the pointer 1:1, fractions carried."""
    x.warp(*start)
    mark = x.mark()
    pad = pads(start_server(FLAT))
    pad.down({1: (200, 200)})
    end = pad.glide({1: (200, 200)}, alternating_steps(*delta, 1000), per_frame=8)
    pad.sync()
    target = (start[0] + delta[0], start[1] + delta[1])
    state = x.wait_pointer(lambda s: near(s, target), timeout=3)
    assert near(state, target), (f"after a ({delta[0]}, {delta[1]}) px stroke the pointer is at {state[:2]}, "
                                 f"expected {target} ± 1; the window got: {describe(x.events(mark))}")
    pad.up(end)
    pad.sync()
    events = x.wait_quiet(mark)
    state = x.pointer()
    assert near(state, target), f"the lift moved the pointer to {state[:2]}; expected {target} ± 1"
    assert buttons(events) == [], f"a stroke clicked; the window got: {describe(events)}"


def test_pointer_follows_from_the_first_move(x, start_server, pads):
    """The pointer moves with the finger's first moves, inside the 10 px slop (3 px, then 6 px), not only past it."""
    pad = pads(start_server(FLAT))
    pad.down({1: (300, 300)})
    for offset in (3, 6):
        pad.move({1: (300 + offset, 300)})
        target = (HOME[0] + offset, HOME[1])
        state = x.wait_pointer(lambda s: s[:2] == target, timeout=2)
        assert state[:2] == target, (f"a {offset} px move left the pointer at {state[:2]}, expected {target}; "
                                     f"the window got: {describe(x.events(x.start))}")
    end = pad.glide({1: (306, 300)}, even_steps(30, 0, 10))
    pad.up(end)
    pad.sync()
    events = x.wait_quiet(x.start)
    assert x.pointer()[:2] == (HOME[0] + 36, HOME[1]), describe(events)
    assert buttons(events) == [], f"a stroke clicked; the window got: {describe(events)}"


# -- taps ---------------------------------------------------------------------------------------

def test_taps_with_one_two_three_fingers_click_buttons_1_3_2(x, start_server, pads):
    """Taps with 1 / 2 / 3 fingers press and release buttons 1 / 3 / 2 where the pointer is; button 1 stays down ~300 ms after its tap (multiTapInterval)."""
    pad = pads(start_server(FLAT))
    for fingers, button in ((1, 1), (2, 3), (3, 2)):
        mark = x.mark()
        pad.tap({i: (300 + 60 * i, 400) for i in range(1, fingers + 1)})
        x.wait_for(lambda ev: ("release", button) in buttons(ev), mark, timeout=3)
        events = x.wait_quiet(mark)
        assert buttons(events) == [("press", button), ("release", button)], (
            f"a {fingers}-finger tap should click button {button}; the window got: {describe(events)}")
        clicks = [e for e in events if e.kind in ("press", "release")]
        assert all((e.x, e.y) == HOME for e in clicks), f"the click did not land where the pointer was: {describe(events)}"
        if fingers == 1:
            held = clicks[1].time - clicks[0].time
            assert 250 <= held <= 1000, (f"button 1 was held {held} ms after a tap; expected multiTapInterval "
                                         f"(300 ms) so that a touch can follow into a drag")


def test_double_tap_is_a_double_click(x, start_server, pads):
    """Two quick taps give two clicks of button 1 (press/release ×2), the presses within a desktop's double-click time (400 ms)."""
    pad = pads(start_server(FLAT))
    pad.tap({1: (400, 400)})
    time.sleep(0.1)
    pad.tap({1: (403, 402)})
    x.wait_for(lambda ev: buttons(ev).count(("release", 1)) >= 2, x.start, timeout=3)
    events = x.wait_quiet(x.start)
    assert buttons(events) == [("press", 1), ("release", 1)] * 2, (
        f"a double tap should click button 1 twice; the window got: {describe(events)}")
    first, second = presses(events)
    assert second.time - first.time <= 400, f"the clicks were {second.time - first.time} ms apart"


# -- two fingers --------------------------------------------------------------------------------

@pytest.mark.parametrize("flags, button", [([], 5), (["--no-natural-scroll"], 4)], ids=["natural", "no-natural-scroll"])
def test_two_fingers_moving_up_scroll_one_detent_per_24px(x, start_server, pads, flags, button):
    """Two fingers moving up 132 px give five wheel clicks (24 px each): button 5 (down, natural) by default, button 4 with --no-natural-scroll."""
    pad = pads(start_server(FLAT + flags))
    start = {1: (300, 700), 2: (360, 700)}
    pad.down(start)
    end = pad.glide(start, even_steps(0, -132, 66, fingers=(1, 2)))
    time.sleep(0.06)  # the fingers rest before they lift: no fling
    pad.up(end)
    pad.sync()
    x.wait_for(lambda ev: len(presses(ev)) >= 5, x.start, timeout=3)
    events = x.wait_quiet(x.start, quiet=0.2)
    assert buttons(events) == [("press", button), ("release", button)] * 5, (
        f"expected 5 clicks of button {button}; the window got: {describe(events)}")
    assert x.pointer()[:2] == HOME, f"two-finger scrolling moved the pointer to {x.pointer()[:2]}"


@pytest.mark.parametrize("span_from, span_to, button", [(40, 84, 4), (84, 40, 5)], ids=["pinch-out", "pinch-in"])
def test_pinch_zooms_with_control_held_while_wheeling(x, start_server, pads, span_from, span_to, button):
    """Pinching out ×2.1 holds Control, clicks button 4 three times (one per ×1.25), releases Control; pinching in clicks button 5."""
    steps_expected = zoom_steps(max(span_from, span_to) / min(span_from, span_to))
    assert steps_expected == 3
    pad = pads(start_server(FLAT))
    start, steps = spread_steps((600, 600), span_from, span_to, 22)
    pad.down(start)
    end = pad.glide(start, steps)
    time.sleep(0.06)
    pad.up(end)
    pad.sync()
    x.wait_for(lambda ev: len(presses(ev)) >= 3 and ("up", "Control") in keys(ev), x.start, timeout=3)
    events = x.wait_quiet(x.start, quiet=0.2)
    what = describe(events)
    assert buttons(events) == [("press", button), ("release", button)] * 3, (
        f"expected 3 clicks of button {button} (scale ×{span_to / span_from:.2f}); the window got: {what}")
    key_events = keys(events)
    assert key_events and key_events[0] == ("down", "Control") and key_events[-1] == ("up", "Control"), (
        f"expected Control held around the wheel clicks; the window got: {what}")
    assert {name for _, name in key_events} == {"Control"}, f"keys other than Control: {what}"
    order = [e.kind for e in events if e.kind in ("keydown", "keyup", "press", "release")]
    assert order.index("keydown") < order.index("press") and \
        len(order) - 1 - order[::-1].index("keyup") > len(order) - 1 - order[::-1].index("release"), (
            f"Control must go down before the first wheel click and up after the last: {what}")
    assert all(e.state & X.ControlMask for e in presses(events)), f"a wheel click came without Control held: {what}"
    assert x.held_keycodes() == [], f"keys still held: {[x.keycode_name(k) for k in x.held_keycodes()]}"


# -- three fingers ------------------------------------------------------------------------------

SWIPE_LEFT_CONFIG = 'control:\n  swipeKeys:\n    left: "Control+Alt+ArrowRight"\n'


@pytest.mark.parametrize("config, dx, expected", [
    (None, 150, ["Alt", "ArrowLeft"]),
    (SWIPE_LEFT_CONFIG, -150, ["Control", "Alt", "ArrowRight"]),
], ids=["default-right-Alt+ArrowLeft", "configured-left-Control+Alt+ArrowRight"])
def test_three_finger_swipe_presses_its_keys(x, start_server, pads, config, dx, expected):
    """A three-finger swipe presses its key combination: modifiers, then the key, all released (default right → Alt+ArrowLeft; swipeKeys.left configured)."""
    pad = pads(start_server(FLAT, config=config))
    start = {1: (600, 500), 2: (660, 510), 3: (720, 500)}
    pad.down(start)
    end = pad.glide(start, even_steps(dx, 0, 10, fingers=(1, 2, 3)), frame=0.01)
    pad.up(end)
    pad.sync()
    x.wait_for(lambda ev: all(("up", name) in keys(ev) for name in expected), x.start, timeout=3)
    events = x.wait_quiet(x.start, quiet=0.2)
    what = describe(events)
    key_events = keys(events)
    assert [name for kind, name in key_events if kind == "down"] == expected, (
        f"expected {'+'.join(expected)} pressed in that order; the window got: {what}")
    key, modifiers = expected[-1], expected[:-1]
    assert key_events.index(("up", key)) == len(modifiers) + 1, f"{key} must go up before its modifiers: {what}"
    assert sorted(name for kind, name in key_events if kind == "up") == sorted(expected), what
    assert all(name in MODIFIER_NAMES for name in modifiers)
    assert x.held_keycodes() == [], f"keys still held: {[x.keycode_name(k) for k in x.held_keycodes()]}"
    assert buttons(events) == [], f"a swipe clicked: {what}"
    assert x.pointer()[:2] == HOME, f"a three-finger swipe moved the pointer to {x.pointer()[:2]}"


# -- dragging -----------------------------------------------------------------------------------

def test_tap_then_touch_and_move_drags_with_button_1_held(x, start_server, pads):
    """Tap, then touch within 300 ms and move: button 1 stays held through the move (mask 0x100, past the tap's 300 ms) and is released at the lift."""
    pad = pads(start_server(FLAT))
    start = tap_then_touch(pad, x)
    end = pad.glide(start, even_steps(120, 0, 60))  # ~0.5 s, longer than the tap's 300 ms
    target = (HOME[0] + 120, HOME[1])
    state = x.wait_pointer(lambda s: s[:2] == target, timeout=2)
    events = x.events(x.start)
    assert state[:2] == target and state[2] & BUTTON1_MASK, (
        f"during the drag the pointer is at {state[:2]} with mask {state[2]:#x}, expected {target} with 0x100; "
        f"the window got: {describe(events)}")
    assert buttons(events) == [("press", 1)], f"button 1 was not held through the drag: {describe(events)}"
    pad.up(end)
    state = x.wait_pointer(lambda s: not s[2] & ANY_BUTTON_MASK, timeout=2)
    events = x.wait_quiet(x.start)
    assert not state[2] & ANY_BUTTON_MASK, f"button mask {state[2]:#x} after the lift; the window got: {describe(events)}"
    assert buttons(events) == [("press", 1), ("release", 1)], describe(events)
    release = [e for e in events if e.kind == "release"][0]
    assert (release.x, release.y) == target, f"released at ({release.x},{release.y}), expected {target}"
    dragged = [e for e in events if e.kind == "motion"]
    assert dragged and all(e.state & X.Button1Mask for e in dragged), (
        "pointer motion during the drag without button 1 in its state: "
        + describe([e for e in dragged if not e.state & X.Button1Mask], motion=True))


DRAG_LOCK_CONFIG = "control:\n  dragLock: true\n  dragLockTimeout: 1000\n"


def drag_and_lift(pad, x, distance=60):
    start = tap_then_touch(pad, x)
    end = pad.glide(start, even_steps(distance, 0, 30))
    pad.up(end)
    lifted = time.monotonic()
    pad.sync()
    x.wait_quiet(x.start, quiet=0.05, timeout=1)
    return end, lifted


# A timeout far from the tap: the release is the tap's, whatever the machine's load.
LONG_DRAG_LOCK_CONFIG = "control:\n  dragLock: true\n  dragLockTimeout: 5000\n"


def test_drag_lock_holds_the_button_until_the_next_tap(x, start_server, pads):
    """With dragLock (config file), button 1 stays held after the drag's lift; the next tap releases it without clicking again."""
    pad = pads(start_server(FLAT, config=LONG_DRAG_LOCK_CONFIG))
    end, _ = drag_and_lift(pad, x)
    state = x.pointer()
    events = x.events(x.start)
    assert state[2] & BUTTON1_MASK and buttons(events) == [("press", 1)], (
        f"drag lock: button 1 should stay down after the lift; mask {state[2]:#x}, the window got: {describe(events)}")
    tapped = time.monotonic()
    pad.tap(end)
    x.wait_for(lambda ev: ("release", 1) in buttons(ev), x.start, timeout=3)
    events = x.wait_quiet(x.start, quiet=0.4)
    assert buttons(events) == [("press", 1), ("release", 1)], (
        f"the tap should only release the locked button; the window got: {describe(events)}")
    release = [e for e in events if e.kind == "release"][0]
    assert release.received - tapped < 2.5, (
        f"released {release.received - tapped:.2f} s after the tap: the 5 s timeout, not the tap, released it")


def test_drag_lock_releases_after_its_timeout(x, start_server, pads):
    """With dragLock and dragLockTimeout 1000 ms, a lifted drag with no tap after it is released about 1 s after the lift, not before."""
    pad = pads(start_server(FLAT, config=DRAG_LOCK_CONFIG))
    _, lifted = drag_and_lift(pad, x)
    assert x.pointer()[2] & BUTTON1_MASK, f"drag lock: released at once; the window got: {describe(x.events(x.start))}"
    x.wait_for(lambda ev: ("release", 1) in buttons(ev), x.start, timeout=4)
    events = x.wait_quiet(x.start)
    assert buttons(events) == [("press", 1), ("release", 1)], describe(events)
    after = [e for e in events if e.kind == "release"][0].received - lifted
    assert 0.9 <= after <= 2.0, f"released {after:.2f} s after the lift, expected dragLockTimeout (1 s)"


def test_closing_the_websocket_mid_drag_releases_button_1(x, start_server, pads):
    """Closing the WebSocket while a tap-and-drag holds button 1 releases it within a second."""
    pad = pads(start_server(FLAT))
    start = tap_then_touch(pad, x)
    pad.glide(start, even_steps(80, 0, 50))  # 0.4 s: past the tap's own 300 ms release
    pad.sync()
    state = x.pointer()
    assert state[2] & BUTTON1_MASK, f"no drag to interrupt: mask {state[2]:#x}, the window got: {describe(x.events(x.start))}"
    pad.ws.close()
    closed = time.monotonic()
    state = x.wait_pointer(lambda s: not s[2] & ANY_BUTTON_MASK, timeout=3)
    took = time.monotonic() - closed
    events = x.wait_quiet(x.start)
    assert not state[2] & ANY_BUTTON_MASK and took <= 1.0, (
        f"button mask {state[2]:#x} {took:.2f} s after the close; the window got: {describe(events)}")
    assert buttons(events) == [("press", 1), ("release", 1)], describe(events)
