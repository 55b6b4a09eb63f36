"""The `uinput` backend against a real kernel, udev and libinput (User-Mode Linux): the real
`gesturepad serve --control uinput` driven over a real WebSocket inside the kernel
(inside/uinput_scenario.py), what the desktop's input stack makes of it asserted here.
"""
from __future__ import annotations

import math

import pytest

BTN_LEFT, BTN_RIGHT, BTN_MIDDLE = 272, 273, 274
KEY_LEFTCTRL = 29
STROKE = (200, 100)
# Kinetic scrolling's curve (docs/control.md): GTK's friction of 4 per second, at rest below
# 50 px/s of finger speed, 24 px of finger travel a detent.
DECAY_PER_MS = -math.log(0.996)
STOP_PX_S = 50
DETENT_PX = 24


@pytest.fixture(scope="module")
def run(run_scenario):
    return run_scenario("uinput")


def segment(run, name: str) -> dict:
    return run.segment("uinput", name)


# US-layout decoding of what was typed, from key names and Shift.
SHIFTED = dict(zip("1234567890-=[]\\;',./`", "!@#$%^&*()_+{}|:\"<>?~"))
NAMED = {"KEY_SPACE": " ", "KEY_ENTER": "\n", "KEY_TAB": "\t", "KEY_MINUS": "-", "KEY_EQUAL": "=",
         "KEY_LEFTBRACE": "[", "KEY_RIGHTBRACE": "]", "KEY_BACKSLASH": "\\", "KEY_SEMICOLON": ";",
         "KEY_APOSTROPHE": "'", "KEY_COMMA": ",", "KEY_DOT": ".", "KEY_SLASH": "/", "KEY_GRAVE": "`"}


def typed_text(keys: list) -> str:
    shift = False
    text = ""
    for name, value in keys:
        if name in ("KEY_LEFTSHIFT", "KEY_RIGHTSHIFT"):
            shift = value != 0
            continue
        if value != 1:
            continue
        base = NAMED.get(name) or (name[4:].lower() if name.startswith("KEY_") and len(name) == 5 else None)
        if base is None:
            text += f"<{name}>"
        elif shift:
            text += base.upper() if base.isalpha() else SHIFTED.get(base, base)
        else:
            text += base
    return text


def test_udev_and_libinput_take_it_as_a_mouse_and_keyboard(run):
    """udev classifies the device as a mouse and a keyboard; libinput adds it with pointer and
    keyboard capabilities."""
    seg = segment(run, "device")
    udev = seg["udev"]
    assert udev.get("ID_INPUT_MOUSE") == "1", udev
    assert udev.get("ID_INPUT_KEYBOARD") == "1", udev
    added = [line for line in seg["libinput"] if "DEVICE_ADDED" in line]
    assert added and "GesturePad pointer and keyboard" in added[0], seg["libinput"]
    assert "cap:kp" in added[0], added[0]
    assert "drives this computer" in seg["banner"] and "uinput" in seg["banner"], seg["banner"]


def test_motion_is_the_strokes_own_travel(run):
    """By default the uinput backend sends the finger's travel unaccelerated (flat, speed 1):
    the raw deltas sum to the stroke exactly, fractions carried."""
    raw = segment(run, "motion")["raw"]
    assert (raw["x"], raw["y"]) == STROKE, raw


def test_libinput_accelerates_it_once(run):
    """libinput sees the stroke itself (its unaccelerated motion is the stroke); with the flat
    profile its pointer travel is the stroke 1:1 — so with the desktop's adaptive profile the
    only acceleration is the desktop's own."""
    seg = segment(run, "motion")
    for profile in ("libinput_adaptive", "libinput_flat"):
        motion = seg[profile]
        assert motion["events"] > 0, seg
        assert abs(motion["udx"] - STROKE[0]) <= 0.5 and abs(motion["udy"] - STROKE[1]) <= 0.5, (profile, motion)
    flat = seg["libinput_flat"]
    assert abs(flat["dx"] - STROKE[0]) <= 1 and abs(flat["dy"] - STROKE[1]) <= 1, flat
    assert seg["libinput_adaptive"]["dx"] != pytest.approx(flat["dx"], abs=0.01), seg
    assert seg["warnings"] == []


def test_explicit_adaptive_accelerates_on_the_server(run):
    """`--acceleration adaptive` on uinput is the server's curve on top (what the default
    avoids): the raw deltas exceed the stroke."""
    raw = segment(run, "motion_adaptive")["raw"]
    assert raw["x"] > STROKE[0] * 1.3 and raw["y"] > STROKE[1] * 1.3, raw


def test_two_finger_scroll_is_a_high_resolution_wheel(run):
    """Fingers moving up scroll down (natural): REL_WHEEL_HI_RES in 1/120 detents, REL_WHEEL
    the whole detents of the same travel, libinput a downward wheel."""
    seg = segment(run, "scroll")
    raw = seg["raw"]
    assert raw["wheel_hi"] < 0, raw
    assert raw["wheel"] == int(raw["wheel_hi"] / 120), raw
    # 240 px of travel at 24 px a detent, less what the engine needs to call it a scroll.
    assert 600 <= -raw["wheel_hi"] <= 1200, raw
    assert raw["hwheel_hi"] == 0 and raw["x"] == 0 and raw["y"] == 0, raw
    vertical = [float(line.split("vert ")[1].split("/")[0]) for line in seg["libinput"] if "vert " in line]
    assert vertical and sum(vertical) > 0, seg["libinput"]


def coast_speed(seg: dict) -> float:
    assert seg["velocity"], f"no scroll ended event: {seg}"
    return math.hypot(*seg["velocity"])


def test_a_flick_coasts_on_and_comes_to_rest(run):
    """Kinetic scrolling on uinput: a flick lifted while moving keeps the wheel turning after
    the lift, in smaller and smaller steps, as far as GTK's curve goes from the lift's speed
    (beyond the same stroke's own travel), and stops by the curve's rest; libinput scrolls on."""
    seg, still = segment(run, "coast"), segment(run, "scroll")
    speed = coast_speed(seg)
    assert speed > 600, f"the flick lifted at {speed:.0f} px/s: too slow to coast"
    duration = math.log(speed / STOP_PX_S) / DECAY_PER_MS
    coast = (speed - STOP_PX_S) / 1000 / DECAY_PER_MS / DETENT_PX * 120
    extra = still["raw"]["wheel_hi"] - seg["raw"]["wheel_hi"]  # natural: fingers up, wheel down (< 0)
    assert abs(extra - coast) <= 90, (
        f"{extra} hi-res units beyond the resting stroke's; a coast from {speed:.0f} px/s makes {coast:.0f}")
    assert seg["raw"]["wheel"] == int(seg["raw"]["wheel_hi"] / 120), seg["raw"]
    after = [((stamp - seg["lift"]) * 1000, -value) for stamp, value in seg["wheel_hi"] if stamp > seg["lift"] + 0.05]
    assert len(after) >= 10, after
    third = len(after) // 3
    early = sum(v for _, v in after[:third]) / third
    late = sum(v for _, v in after[-third:]) / third
    assert all(v > 0 for _, v in after) and late < early / 3, f"the steps do not shrink: {after}"
    # UML traps every system call: 500 ms of slack above the rest keeps this about the curve (a
    # coast that never rests goes on for seconds), not the emulated kernel's scheduling.
    assert duration / 2 <= after[-1][0] <= duration + 500, (
        f"the last step {after[-1][0]:.0f} ms after the lift; the coast rests at {duration:.0f} ms")
    vertical = [float(line.split("vert ")[1].split("/")[0]) for line in seg["libinput"] if "vert " in line]
    still_vertical = [float(line.split("vert ")[1].split("/")[0]) for line in still["libinput"] if "vert " in line]
    assert sum(vertical) > sum(still_vertical) * 1.5, (sum(vertical), sum(still_vertical))


def test_a_touch_stops_the_coast(run):
    """A finger landing while the flick coasts stops it: no wheel event after the first motion
    of that finger, and the coast made far less than its whole travel."""
    seg = segment(run, "coast_stop")
    order = seg["order"]
    first_x = next((i for i, (kind, _) in enumerate(order) if kind == "x"), None)
    assert first_x is not None, f"the stopping finger did not move the pointer: {order}"
    assert [kind for kind, _ in order[first_x:]] == ["x"] * (len(order) - first_x), f"wheel after the touch: {order}"
    full = (coast_speed(seg) - STOP_PX_S) / 1000 / DECAY_PER_MS / DETENT_PX * 120
    assert 0 < -seg["coasted"] < full - 120, f"coasted {-seg['coasted']} of {full:.0f} hi-res units: not stopped early"


def test_taps_click_left_right_middle(run):
    """One, two and three-finger taps press and release BTN_LEFT, BTN_RIGHT, BTN_MIDDLE; libinput
    reports each press and release."""
    seg = segment(run, "taps")
    assert seg["keys"] == [["BTN_LEFT", 1], ["BTN_LEFT", 0], ["BTN_RIGHT", 1], ["BTN_RIGHT", 0],
                           ["BTN_MIDDLE", 1], ["BTN_MIDDLE", 0]], seg["keys"]
    buttons = seg["libinput"]
    for name in ("BTN_LEFT", "BTN_RIGHT", "BTN_MIDDLE"):
        assert sum(name in line and "pressed" in line for line in buttons) == 1, buttons
        assert sum(name in line and "released" in line for line in buttons) == 1, buttons
    assert seg["held_after"] == []


def test_tap_and_drag_holds_the_left_button(run):
    """Tap, touch again and move: the kernel holds BTN_LEFT (EVIOCGKEY) while the pointer
    moves, and lets go when the finger lifts."""
    seg = segment(run, "tap_drag")
    assert BTN_LEFT in seg["held_while_dragging"], seg
    order = [kind for kind, _ in seg["order"]]
    first_motion, last_motion = order.index("motion"), len(order) - 1 - order[::-1].index("motion")
    assert seg["order"][0] == ["key", 1] and seg["order"][-1] == ["key", 0], seg["order"]
    assert order.index("key") < first_motion and last_motion < len(order) - 1, seg["order"]
    assert seg["held_after"] == []


def test_text_and_keys_type_the_us_layout_codes(run):
    """`text` types its characters as US-layout key codes (Shift where needed), `key` presses
    the key with its modifiers, a named key is its evdev key; libinput sees the keys."""
    seg = segment(run, "keys")
    assert seg["text_error"] is None and seg["combo_error"] is None and seg["named_error"] is None, seg
    assert typed_text(seg["text"]) == "Hello, world!\n", seg["text"]
    assert seg["combo"] == [["KEY_LEFTCTRL", 1], ["KEY_LEFTSHIFT", 1], ["KEY_A", 1], ["KEY_A", 0],
                            ["KEY_LEFTSHIFT", 0], ["KEY_LEFTCTRL", 0]], seg["combo"]
    assert seg["named"] == [["KEY_F5", 1], ["KEY_F5", 0]], seg["named"]
    presses = sum(1 for _, value in seg["text"] + seg["combo"] + seg["named"] if value == 1)
    assert seg["libinput_keys"] == 2 * presses, seg
    assert seg["held_after"] == []


def test_what_the_layout_cannot_type_is_refused_before_typing(run):
    """A text with a character a US layout cannot type is refused with bad_field, and nothing
    of it is typed — not even the characters before it."""
    seg = segment(run, "keys")
    assert seg["refused"] and seg["refused"]["code"] == "bad_field", seg["refused"]
    assert "ö" in seg["refused"]["message"], seg["refused"]
    assert seg["after_refusal"] == [], seg["after_refusal"]


def test_a_named_layout_types_with_its_own_keys(run):
    """`--keyboard-layout de`: each character is typed with the key the German layout has it on
    (Y and Z trade places, ö on the semicolon key, < on the 102nd key), Shift and AltGr (the
    right Alt key) held as its level needs; a character key combination uses the layout's key
    too; what the layout lacks is refused before anything is typed."""
    seg = segment(run, "german_layout")
    assert "German" in seg["banner"], seg["banner"]
    assert seg["text_error"] is None and seg["combo_error"] is None, seg
    assert seg["text"] == [
        ["KEY_Y", 1], ["KEY_Y", 0],
        ["KEY_LEFTSHIFT", 1], ["KEY_Z", 1], ["KEY_Z", 0], ["KEY_LEFTSHIFT", 0],
        ["KEY_RIGHTALT", 1], ["KEY_E", 1], ["KEY_E", 0], ["KEY_RIGHTALT", 0],
        ["KEY_SEMICOLON", 1], ["KEY_SEMICOLON", 0],
        ["KEY_102ND", 1], ["KEY_102ND", 0],
    ], seg["text"]
    assert seg["combo"] == [["KEY_LEFTCTRL", 1], ["KEY_Y", 1], ["KEY_Y", 0], ["KEY_LEFTCTRL", 0]], seg["combo"]
    assert seg["refused"] and seg["refused"]["code"] == "bad_field", seg["refused"]
    assert "中" in seg["refused"]["message"] and "German" in seg["refused"]["message"], seg["refused"]
    assert seg["held_after"] == []


def test_a_disconnect_mid_drag_releases_the_button(run):
    """The phone goes away mid-drag: the kernel no longer holds BTN_LEFT (EVIOCGKEY)."""
    seg = segment(run, "release_disconnect")
    assert BTN_LEFT in seg["held_before"], seg
    assert seg["held_after"] == [], seg


def test_sigterm_mid_drag_releases_then_removes_the_device(run):
    """SIGTERM mid-drag: BTN_LEFT goes up, the server exits 0, the device goes away and libinput
    saw the release and the removal."""
    seg = segment(run, "release_sigterm")
    assert BTN_LEFT in seg["held_before"], seg
    assert seg["exit"] == 0, seg
    assert ["BTN_LEFT", 0] in seg["keys_after"], seg["keys_after"]
    assert seg["device_gone"], seg
    assert any("BTN_LEFT" in line and "released" in line for line in seg["libinput"]), seg["libinput"]
    assert any("DEVICE_REMOVED" in line for line in seg["libinput"]), seg["libinput"]


def test_sigkill_mid_drag_nothing_stays_pressed(run):
    """SIGKILL mid-drag: the server releases nothing itself, yet the device goes with the
    process (the kernel destroys it and releases its keys) and the desktop's libinput reports
    BTN_LEFT released, then the device removed. (A raw evdev reader cannot see the kernel's
    key-up: its read returns ENODEV before the buffered events.)"""
    seg = segment(run, "release_sigkill")
    assert BTN_LEFT in seg["held_before"], seg
    assert seg["device_gone"], seg
    assert ["BTN_LEFT", 1] not in seg["keys_after"], seg["keys_after"]
    released = [i for i, line in enumerate(seg["libinput"]) if "BTN_LEFT" in line and "released" in line]
    removed = [i for i, line in enumerate(seg["libinput"]) if "DEVICE_REMOVED" in line]
    assert released and removed and released[-1] < removed[0], seg["libinput"]


def test_sigkill_mid_pinch_releases_control(run):
    """SIGKILL mid-pinch, Control held around the wheel clicks: the device goes with the process
    and the desktop's libinput reports KEY_LEFTCTRL released before the device is removed."""
    seg = segment(run, "release_sigkill_pinch")
    assert KEY_LEFTCTRL in seg["held_before"], seg
    assert seg["device_gone"], seg
    released = [i for i, line in enumerate(seg["libinput"]) if "KEY_LEFTCTRL" in line and "released" in line]
    removed = [i for i, line in enumerate(seg["libinput"]) if "DEVICE_REMOVED" in line]
    assert released and removed and released[-1] < removed[0], seg["libinput"]


def test_a_server_started_after_sigkill_holds_nothing_and_clicks(run):
    """After a SIGKILL, the next server's device holds nothing and a tap is one click."""
    seg = segment(run, "restart_after_sigkill")
    assert seg["held_at_start"] == [], seg
    assert seg["keys"] == [["BTN_LEFT", 1], ["BTN_LEFT", 0]], seg
