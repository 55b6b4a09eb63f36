"""Inside the UML kernel: the real `gesturepad serve --control touchpad` driven over a real
WebSocket, its virtual touchpad read back through the real kernel, udev and libinput. Writes
touchpad.json for tests/kernel/test_touchpad_kernel.py, one entry per segment (raw facts).
"""
from __future__ import annotations

import math
import shutil
import signal
import subprocess
from pathlib import Path

import evdev
from evdev import ecodes as e
from kernel_kit import (REPO, Evdev, Libinput, Results, event_node, glide, libinput_motion, serve, stroke,
                        udev_properties, wait_until)
from touch_input import Pad, even_steps, now_ms, spread_steps

NAME = "GesturePad touchpad"
PORTRAIT = (390, 844)
LANDSCAPE = (844, 390)
# A tablet held sideways: larger than the device, scaled down to fill its width.
TABLET = (1366, 1024)
# The one size the device is made at (TouchpadGeometry.fixedSide, CSS px).
FIXED_SIDE = 1000
results = Results("touchpad")


def lines_with(lines: list[str], *words: str) -> list[str]:
    return [line for line in lines if any(word in line for word in words)]


def gesture_lines(lib: Libinput) -> list[str]:
    return lines_with(lib.snapshot(), "POINTER_", "GESTURE_", "TOUCH_")


def observe(seg: dict, lib: Libinput) -> None:
    """Once libinput has settled: its pointer and gesture lines, and its complaints (with the
    raw events it read, when there are any)."""
    lib.settle()
    seg["libinput"] = gesture_lines(lib)
    lib.stop()
    seg.update(lib.complaints())


def list_device() -> str:
    """`libinput list-devices`, the block of the touchpad."""
    text = subprocess.run(["libinput", "list-devices"], capture_output=True, text=True).stdout
    return next((block for block in text.split("\n\n") if NAME in block), text)


def units(css: float) -> int:
    """Device units of a surface side (docs/control.md: 1/160 inch a CSS px, 40 units a mm)."""
    return math.floor(css * 25.4 / 160 * 40 + 0.5)


def touchpad(timeout: float = 20.0) -> str:
    """The touchpad's node once it has been made: at the one fixed size, whatever the surface."""
    def made():
        try:
            node = event_node(NAME, timeout=1)
            device = evdev.InputDevice(node)
            size = (device.absinfo(e.ABS_X).max, device.absinfo(e.ABS_Y).max)
            device.close()
        except (TimeoutError, OSError):
            return None
        return node if size == (units(FIXED_SIDE), units(FIXED_SIDE)) else None

    return wait_until(made, timeout, "the touchpad")


def raw_frames(events) -> dict:
    """What the raw stream says: fingers' lifts, touch and tool keys, frame times."""
    keys = {}
    for type_, code, value, _ in events:
        if type_ == e.EV_KEY:
            keys[e.BTN.get(code, str(code)) if not isinstance(e.BTN.get(code), list) else e.BTN[code][0]] = value
    frames = [t for type_, code, _, t in events if type_ == e.EV_SYN and code == e.SYN_REPORT]
    tracking = [value for type_, code, value, _ in events if type_ == e.EV_ABS and code == e.ABS_MT_TRACKING_ID]
    # The tracking ids each frame set, for the frames that set any.
    per_frame, current = [], []
    for type_, code, value, _ in events:
        if type_ == e.EV_ABS and code == e.ABS_MT_TRACKING_ID:
            current.append(value)
        elif type_ == e.EV_SYN and code == e.SYN_REPORT:
            if current:
                per_frame.append(current)
            current = []
    return {"last_keys": keys, "frames": frames, "tracking": tracking, "tracking_frames": per_frame}


def main() -> None:
    server = serve("--control", "touchpad")
    pad = Pad(server, surface=PORTRAIT)
    node = touchpad()

    with results.segment("device") as seg:
        seg["banner"] = server.stdout()
        seg["welcome"] = pad.welcome
        seg["udev"] = udev_properties(node)
        lib = Libinput(node, "--verbose")
        seg["libinput"] = lines_with(lib.stop(), "DEVICE_ADDED", "touchpad", "Touchpad")
        seg["list"] = list_device()
        seg["devices"] = Path("/proc/bus/input/devices").read_text()

    with results.segment("one_finger") as seg:
        lib = Libinput(node, "--enable-tap")
        stroke(pad, {1: (100.0, 300.0)}, even_steps(160.0, 80.0, 40))
        observe(seg, lib)

    with results.segment("two_finger_scroll") as seg:
        lib = Libinput(node)
        stroke(pad, {1: (150.0, 600.0), 2: (230.0, 600.0)}, even_steps(0.0, -240.0, 30, fingers=(1, 2)))
        observe(seg, lib)

    for fingers in (3, 4):
        with results.segment(f"swipe{fingers}") as seg:
            lib = Libinput(node)
            start = {i: (60.0 + 60 * i, 400.0) for i in range(1, fingers + 1)}
            stroke(pad, start, even_steps(150.0, 0.0, 30, fingers=tuple(start)))
            observe(seg, lib)

    for name, span in (("pinch_out", (80.0, 300.0)), ("pinch_in", (300.0, 80.0))):
        with results.segment(name) as seg:
            lib = Libinput(node)
            stroke(pad, *spread_steps((195.0, 420.0), span[0], span[1], 30))
            observe(seg, lib)

    with results.segment("tap") as seg:
        lib = Libinput(node, "--enable-tap")
        pad.tap({1: (200.0, 400.0)})
        lib.wait_for(r"POINTER_BUTTON.*released", 10)
        observe(seg, lib)

    with results.segment("rotation") as seg:
        # The phone turns after a stroke, and back after the next: the device stays (the same
        # node, never removed), and every touch reaches libinput — the first one after each
        # turn, sent at once, included. Each stroke goes its own way (A right, B down, C
        # left), so libinput's motion tells them apart.
        lib = Libinput(node)
        ev = Evdev(node)
        stroke(pad, {1: (100.0, 300.0)}, even_steps(120.0, 0.0, 20))
        pad.send([{"type": "resize", "width": LANDSCAPE[0], "height": LANDSCAPE[1]}])
        stroke(pad, {1: (300.0, 100.0)}, even_steps(0.0, 120.0, 20))
        pad.send([{"type": "resize", "width": PORTRAIT[0], "height": PORTRAIT[1]}])
        stroke(pad, {1: (300.0, 400.0)}, even_steps(-120.0, 0.0, 20))
        lib.settle()
        ev.settle()
        seg["node_after"] = event_node(NAME)
        seg["node"] = node
        seg["stream"] = raw_frames(ev.snapshot())
        seg["libinput"] = lines_with(lib.snapshot(), "POINTER_MOTION", "DEVICE_REMOVED", "DEVICE_ADDED")
        lib.stop()
        seg.update(lib.complaints())
        ev.close()

    with results.segment("five_fingers") as seg:
        lib = Libinput(node, "--enable-tap")
        ev = Evdev(node)
        start = {i: (40.0 + 60 * i, 500.0) for i in range(1, 7)}  # six: the sixth has no slot
        stroke(pad, start, even_steps(0.0, 60.0, 10, fingers=tuple(start)))
        lib.settle()
        stroke(pad, {1: (100.0, 300.0)}, even_steps(80.0, 0.0, 20))
        lib.settle()
        ev.settle()
        seg["stream"] = raw_frames(ev.snapshot())
        seg["max_slot"] = max((v for t, c, v, _ in ev.snapshot() if t == e.EV_ABS and c == e.ABS_MT_SLOT), default=0)
        seg["libinput"] = gesture_lines(lib)
        lib.stop()
        seg.update(lib.complaints())
        ev.close()

    with results.segment("burst") as seg:
        # The same stroke twice: one move per message, 8 ms apart; then all 30 moves (240 ms of
        # `t`) in one message, as a network that held them back delivers them.
        for mode in ("one_by_one", "burst"):
            lib = Libinput(node, "--set-profile=flat")
            ev = Evdev(node)
            pad.down({1: (80.0, 200.0)})
            if mode == "one_by_one":
                end = glide(pad, {1: (80.0, 200.0)}, even_steps(120.0, 60.0, 30))
            else:
                t0 = now_ms()
                batch = []
                for k in range(1, 31):
                    batch.append({"type": "move", "id": 1, "x": 80.0 + 4.0 * k, "y": 200.0 + 2.0 * k,
                                  "t": pad.t(t0 + 8.0 * k), "pointerType": "touch"})
                pad._last_t = batch[-1]["t"]
                pad.send(batch)
                end = {1: (200.0, 260.0)}
            pad.up(end)
            pad.sync()
            lib.settle()
            ev.settle()
            lines = lib.stop()
            seg[mode] = {"motion": libinput_motion(lines), "frames": raw_frames(ev.snapshot())["frames"],
                         **lib.complaints()}
            ev.close()

    with results.segment("disconnect_mid_swipe") as seg:
        other = Pad(server, surface=PORTRAIT)
        lib = Libinput(node)
        ev = Evdev(node)
        start = {i: (60.0 + 60 * i, 400.0) for i in range(1, 4)}
        other.down(start)
        glide(other, start, even_steps(120.0, 0.0, 20, fingers=tuple(start)))
        other.sync()
        lib.wait_for("GESTURE_SWIPE_BEGIN", 10)
        seg["held_before"] = ev.active_keys()
        mark = len(ev.snapshot())
        other.close()  # the phone goes away with three fingers down
        lib.wait_for("GESTURE_SWIPE_END", 10)
        ev.settle()
        seg["raw_after"] = raw_frames(ev.snapshot()[mark:])
        seg["held_after"] = ev.active_keys()
        seg["libinput"] = gesture_lines(lib)
        lib.stop()
        seg.update(lib.complaints())
        ev.close()

    with results.segment("integration") as seg:
        # A tablet held sideways fills the device's width (159 mm), where libinput keeps 8 mm
        # edges of an internal touchpad for palms. A stroke along its left edge, before and
        # after the rule.
        wide = Pad(server, surface=TABLET)
        wide_node = node
        for phase in ("without_rule", "with_rule"):
            if phase == "with_rule":
                rules = Path("/run/udev/rules.d")
                rules.mkdir(parents=True, exist_ok=True)
                for rule in (REPO / "dist" / "udev").glob("*.rules"):
                    shutil.copy(rule, rules / rule.name)
                subprocess.run(["udevadm", "control", "--reload"], check=True)
                subprocess.run(["udevadm", "trigger", "--action=change", f"--name-match={wide_node}"], check=True)
                subprocess.run(["udevadm", "settle"], check=True)
            lib = Libinput(wide_node)
            stroke(wide, {1: (12.0, 60.0)}, even_steps(0.0, 400.0, 30))
            lib.settle()
            lines = lib.stop()
            seg[phase] = {"udev": udev_properties(wide_node), "list": list_device(),
                          "motion": libinput_motion(lines), **lib.complaints()}
        wide.close()

    with results.segment("sigterm_mid_scroll") as seg:
        pad.close()
        pad = Pad(server, surface=PORTRAIT)
        node = touchpad()
        lib = Libinput(node)
        start = {1: (150.0, 600.0), 2: (230.0, 600.0)}
        pad.down(start)
        glide(pad, start, even_steps(0.0, -120.0, 15, fingers=(1, 2)))
        pad.sync()
        lib.wait_for("POINTER_SCROLL_FINGER", 10)
        server.process.send_signal(signal.SIGTERM)
        seg["exit"] = server.process.wait(timeout=30)
        lib.wait_for("DEVICE_REMOVED", 20)
        seg["libinput"] = lines_with(lib.snapshot(), "POINTER_SCROLL", "DEVICE_REMOVED")
        lib.stop()
        seg.update(lib.complaints())

    with results.segment("sigkill_mid_drag") as seg:
        # libinput's own tap-and-drag holds the button; SIGKILL gives the server no chance to
        # lift the finger: the kernel destroys the device and libinput lets go.
        server = serve("--control", "touchpad")
        pad = Pad(server, surface=PORTRAIT)
        node = touchpad()
        lib = Libinput(node, "--enable-tap")
        pad.tap({1: (200.0, 400.0)})
        pad.down({1: (200.0, 400.0)})
        glide(pad, {1: (200.0, 400.0)}, even_steps(80.0, 0.0, 30))
        pad.sync()
        lib.wait_for(r"POINTER_BUTTON.*pressed", 10)
        server.process.kill()
        server.process.wait(timeout=30)
        lib.wait_for("DEVICE_REMOVED", 20)
        seg["libinput"] = lines_with(lib.snapshot(), "POINTER_BUTTON", "DEVICE_REMOVED")
        lib.stop()
        seg.update(lib.complaints())


if __name__ == "__main__":
    main()
