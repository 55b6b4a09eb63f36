"""The `touchpad` backend against a real kernel, udev and libinput (User-Mode Linux): the real
`gesturepad serve --control touchpad` driven over a real WebSocket inside the kernel
(inside/touchpad_scenario.py); what the desktop's input stack makes of its virtual touchpad is
asserted here (CONTROL.md "The `touchpad` backend", docs/control.md).
"""
from __future__ import annotations

import math
import re

import pytest

BTN_TOUCH, BTN_LEFT = 330, 272
# docs/control.md: a CSS px is 1/160 inch; 40 units a mm.
MM_PER_CSS = 25.4 / 160
# The side of the one device every surface is placed on (TouchpadGeometry.fixedSide).
FIXED_SIDE = 1000
MOTION = re.compile(r"POINTER_MOTION\s.*?\(\s*([-+]?[\d.]+)/\s*([-+]?[\d.]+)\s*\)")


@pytest.fixture(scope="module")
def run(run_scenario):
    return run_scenario("touchpad")


def segment(run, name: str) -> dict:
    return run.segment("touchpad", name)


def explain(raw: list) -> str:
    """The frames of a raw stream where a finger travelled far for the time since its last
    frame, normalised to 12 ms as libinput's jump detection measures it."""
    slot, frame, history, out = 0, {}, {}, []
    for type_, code, value, time in raw:
        if type_ == 3 and code == 47:
            slot = value
        elif type_ == 3 and code in (53, 54, 57):
            frame.setdefault(slot, {})[{53: "x", 54: "y", 57: "id"}[code]] = value
        elif type_ == 0 and code == 0:
            for s, change in frame.items():
                if change.get("id") == -1:
                    history.pop(s, None)
                    continue
                last = history.get(s)
                x, y = change.get("x", last and last[0]), change.get("y", last and last[1])
                if x is None or y is None:
                    continue
                if last and "id" not in change and time > last[2]:
                    mm = math.hypot(x - last[0], y - last[1]) / 40
                    normalised = mm * 12 / ((time - last[2]) * 1000)
                    if normalised > 5:
                        out.append(f"slot {s}: {mm:.2f} mm in {(time - last[2]) * 1000:.2f} ms ({normalised:.1f} mm/12 ms)")
                history[s] = (x, y, time)
            frame = {}
    return "\n".join(out) or "(no fast frame found)"


def no_warnings(entry: dict) -> None:
    assert entry["warnings"] == [], "\n".join(entry["warnings"]) + "\n" + explain(entry.get("raw", []))


def kinds(lines: list[str]) -> list[str]:
    return [line.split()[1] for line in lines if len(line.split()) > 1]


def test_udev_and_libinput_take_it_as_a_touchpad(run):
    """udev tags it ID_INPUT_TOUCHPAD; libinput says it is a touchpad, adds it with pointer and
    gesture capabilities, at the one fixed size (1000 × 1000 CSS px → 159 × 159 mm) whatever
    the phone: a 390 × 844 page lies on it at its real size."""
    seg = segment(run, "device")
    assert seg["welcome"]["control"] == {"active": True, "backend": "touchpad"}, seg["welcome"]
    assert "through touchpad" in seg["banner"], seg["banner"]
    udev = seg["udev"]
    assert udev.get("ID_INPUT_TOUCHPAD") == "1" and udev.get("ID_INPUT_MOUSE") is None, udev
    assert any("device is a touchpad" in line for line in seg["libinput"]), seg["libinput"]
    added = next(line for line in seg["libinput"] if "DEVICE_ADDED" in line)
    assert "GesturePad touchpad" in added and "cap:pg" in added, added
    width, height = map(int, re.search(r"size (\d+)x(\d+)mm", added).groups())
    assert (width, height) == (round(FIXED_SIDE * MM_PER_CSS), round(FIXED_SIDE * MM_PER_CSS)), added
    # A clickpad with five slots and one tool per finger count, no pressure.
    block = seg["devices"].split('N: Name="GesturePad touchpad"')[1].split("\n\n")[0]
    assert "B: PROP=5" in block, block  # INPUT_PROP_POINTER | INPUT_PROP_BUTTONPAD
    assert "Capabilities:     pointer gesture" in seg["list"], seg["list"]


def test_one_finger_moves_the_pointer_only(run):
    """One finger: POINTER_MOTION and nothing else (no scroll, no gesture, no click)."""
    seg = segment(run, "one_finger")
    found = set(kinds(seg["libinput"]))
    assert found == {"POINTER_MOTION"}, seg["libinput"]
    no_warnings(seg)


def test_two_fingers_scroll_with_a_stop(run):
    """Two fingers: finger scrolling (POINTER_SCROLL_FINGER), ending with a scroll stop — the
    0 on the axis that lets GTK and Qt coast on (kinetic scrolling)."""
    seg = segment(run, "two_finger_scroll")
    scrolls = [line for line in seg["libinput"] if "POINTER_SCROLL_FINGER" in line]
    assert len(scrolls) >= 5 and not any("POINTER_MOTION" in line for line in seg["libinput"]), seg["libinput"]
    vertical = [float(re.search(r"vert (-?[\d.]+)", line).group(1)) for line in scrolls]
    assert sum(vertical[:-1]) < 0, vertical  # fingers moving up, as libinput reports them
    assert vertical[-1] == 0, scrolls[-1]
    no_warnings(seg)


@pytest.mark.parametrize("fingers", [3, 4])
def test_three_and_four_fingers_swipe(run, fingers):
    """Three and four fingers: the desktop's swipe gesture, GESTURE_SWIPE_BEGIN n … END."""
    seg = segment(run, f"swipe{fingers}")
    lines = seg["libinput"]
    begins = [line for line in lines if "GESTURE_SWIPE_BEGIN" in line]
    ends = [line for line in lines if "GESTURE_SWIPE_END" in line]
    assert len(begins) == 1 and begins[0].split()[-1] == str(fingers), lines
    assert len(ends) == 1 and "cancelled" not in ends[0], lines
    updates = [line for line in lines if "GESTURE_SWIPE_UPDATE" in line]
    dx = [float(re.search(rf"\t{fingers}\s+(-?[\d.]+)/", line).group(1)) for line in updates]
    assert len(updates) >= 10 and sum(dx) > 0, updates
    no_warnings(seg)


@pytest.mark.parametrize("name, grows", [("pinch_out", True), ("pinch_in", False)])
def test_pinch_is_the_desktops_pinch(run, name, grows):
    """Two fingers moving apart / together: GESTURE_PINCH with the scale growing / shrinking."""
    seg = segment(run, name)
    lines = seg["libinput"]
    assert sum("GESTURE_PINCH_BEGIN" in line for line in lines) == 1, lines
    assert sum("GESTURE_PINCH_END" in line for line in lines) == 1, lines
    scales = [float(re.search(r"(\d+\.\d+) @", line).group(1)) for line in lines if "GESTURE_PINCH_UPDATE" in line]
    assert len(scales) >= 10, lines
    assert (scales[-1] > 2.0) if grows else (scales[-1] < 0.5), scales
    assert scales == sorted(scales, reverse=not grows), scales
    no_warnings(seg)


def test_a_tap_clicks_with_tap_to_click_on(run):
    """A one-finger tap, with tap-to-click on (libinput --enable-tap, the user's setting): a
    left button press and release, nothing else."""
    seg = segment(run, "tap")
    buttons = [line for line in seg["libinput"] if "POINTER_BUTTON" in line]
    assert len(buttons) == 2 and "BTN_LEFT" in buttons[0] and "pressed" in buttons[0], seg["libinput"]
    assert "released" in buttons[1], buttons
    assert not any(k in ("POINTER_MOTION", "POINTER_SCROLL_FINGER") for k in kinds(seg["libinput"])), seg
    no_warnings(seg)


def test_five_fingers_and_a_sixth_break_nothing(run):
    """Six fingers on a five-slot touchpad: the sixth gets no slot, all lift cleanly (touch and
    tools released), and one finger moves the pointer again afterwards."""
    seg = segment(run, "five_fingers")
    assert seg["max_slot"] == 4, seg["max_slot"]
    last = seg["stream"]["last_keys"]
    assert last.get("BTN_TOUCH") == 0 and all(v == 0 for k, v in last.items() if k.startswith("BTN_TOOL")), last
    landed = [ids for ids in seg["stream"]["tracking_frames"] if ids[0] >= 0]
    lifted = [ids for ids in seg["stream"]["tracking_frames"] if ids[0] < 0]
    assert sum(len(ids) for ids in landed) == 6 and sum(len(ids) for ids in lifted) == 6, seg["stream"]  # 5 + 1
    assert kinds(seg["libinput"])[-1] == "POINTER_MOTION", seg["libinput"]
    no_warnings(seg)


def test_a_burst_moves_as_far_as_the_same_moves_one_by_one(run):
    """30 moves (240 ms of `t`) in one WebSocket message move the pointer as far as the same
    moves sent one by one, 8 ms apart; libinput discards nothing as a jump, because the frames
    are written spaced (not all in the same microsecond) and within the 100 ms bound."""
    seg = segment(run, "burst")
    one, burst = seg["one_by_one"], seg["burst"]
    for key in ("udx", "udy", "dx", "dy"):  # libinput's flat profile: accelerated ∝ unaccelerated
        assert burst["motion"][key] == pytest.approx(one["motion"][key], abs=1.0), (key, one, burst)
    frames = burst["frames"]
    span = (frames[-2] - frames[0]) * 1000  # the last frame is the lift
    assert 50 <= span <= 250, f"the burst's frames were written over {span:.1f} ms"
    gaps = [(b - a) * 1000 for a, b in zip(frames, frames[1:-1])]
    assert min(gaps) >= 1.0, gaps
    no_warnings(one)
    no_warnings(burst)


def test_a_disconnect_mid_swipe_lifts_every_finger(run):
    """The phone goes away with three fingers swiping: every slot's tracking id goes to −1,
    BTN_TOUCH and the tool go up at once, and libinput ends the swipe."""
    seg = segment(run, "disconnect_mid_swipe")
    assert BTN_TOUCH in seg["held_before"], seg
    raw = seg["raw_after"]
    assert raw["tracking_frames"] == [[-1, -1, -1]], raw  # all three in one frame, nothing after
    assert raw["last_keys"].get("BTN_TOUCH") == 0 and raw["last_keys"].get("BTN_TOOL_TRIPLETAP") == 0, raw
    assert seg["held_after"] == [], seg
    assert any("GESTURE_SWIPE_END" in line for line in seg["libinput"]), seg["libinput"]
    no_warnings(seg)


def test_sigterm_mid_scroll_stops_the_scroll(run):
    """SIGTERM while two fingers scroll: the server lifts them before the device goes, so
    libinput sends the scroll stop, then removes the device; the server exits 0."""
    seg = segment(run, "sigterm_mid_scroll")
    assert seg["exit"] == 0, seg
    lines = seg["libinput"]
    stops = [i for i, line in enumerate(lines) if "POINTER_SCROLL_FINGER" in line and "vert 0.00" in line]
    removed = [i for i, line in enumerate(lines) if "DEVICE_REMOVED" in line]
    assert stops and removed and stops[-1] < removed[0], lines
    no_warnings(seg)


def test_the_udev_rule_makes_it_an_external_touchpad(run):
    """dist/udev/71-gesturepad-touchpad.rules marks the touchpad external: without it libinput
    treats it as a laptop's built-in one (disable-while-typing on, and on a tablet held sideways
    — filling the device's 159 mm — a stroke along the edge is taken for a palm and moves
    nothing); with it, disable-while-typing does not apply and the same stroke moves the
    pointer."""
    seg = segment(run, "integration")
    without, with_rule = seg["without_rule"], seg["with_rule"]
    assert without["udev"].get("ID_INPUT_TOUCHPAD_INTEGRATION") is None, without["udev"]
    assert with_rule["udev"].get("ID_INPUT_TOUCHPAD_INTEGRATION") == "external", with_rule["udev"]
    size = round(FIXED_SIDE * MM_PER_CSS)
    assert f"Size:             {size}x{size}mm" in without["list"], without["list"]
    assert "Disable-w-typing: enabled" in without["list"], without["list"]
    assert "Disable-w-typing: n/a" in with_rule["list"], with_rule["list"]
    assert without["motion"]["events"] == 0, without["motion"]
    assert with_rule["motion"]["udy"] > 1000, with_rule["motion"]
    no_warnings(without)
    no_warnings(with_rule)


def test_sigkill_mid_tap_and_drag_releases_the_button(run):
    """SIGKILL during libinput's tap-and-drag (the touchpad's button held by the desktop): the
    device goes with the process and libinput releases the button before removing it."""
    seg = segment(run, "sigkill_mid_drag")
    lines = seg["libinput"]
    pressed = [i for i, line in enumerate(lines) if "POINTER_BUTTON" in line and "pressed" in line]
    released = [i for i, line in enumerate(lines) if "POINTER_BUTTON" in line and "released" in line]
    removed = [i for i, line in enumerate(lines) if "DEVICE_REMOVED" in line]
    assert pressed and released and removed, lines
    assert pressed[0] < released[-1] < removed[0], lines


def test_a_rotation_loses_no_touch(run):
    """The phone turns between strokes (the page's `resize`, then a stroke at once), and back:
    the device is the same node, never removed nor added again, and each of the three strokes
    reaches the kernel (three touches begun and lifted) and moves libinput's pointer its own
    way — the first touch after each turn is not lost."""
    seg = segment(run, "rotation")
    assert seg["node_after"] == seg["node"], seg
    lines = seg["libinput"]
    # libinput says DEVICE_ADDED once, for the device it opened at the start; never again.
    assert not [line for line in lines if "DEVICE_REMOVED" in line], lines
    assert len([line for line in lines if "DEVICE_ADDED" in line]) == 1, lines
    tracking = seg["stream"]["tracking"]
    assert len([v for v in tracking if v >= 0]) == 3 and tracking.count(-1) == 3, tracking
    moves = [tuple(map(float, m.groups())) for m in map(MOTION.search, lines) if m]
    right = [dx for dx, dy in moves if dx > 0 and abs(dy) < dx]
    down = [dy for dx, dy in moves if dy > 0 and abs(dx) < dy]
    left = [dx for dx, dy in moves if dx < 0 and abs(dy) < -dx]
    assert len(right) >= 5 and len(down) >= 5 and len(left) >= 5, "\n".join(lines)
    no_warnings(seg)
