"""Inside the UML kernel: the real `gesturepad serve --control uinput` driven over a real
WebSocket, read back through the real kernel, udev and libinput. Writes uinput.json for
tests/kernel/test_uinput_kernel.py, one entry per segment (raw facts, no verdicts).
"""
from __future__ import annotations

import signal
import time

from evdev import ecodes as e
from kernel_kit import (Evdev, Libinput, Results, event_node, glide, key_changes, libinput_motion, serve, stroke,
                        sums, udev_properties, wait_until, warnings)
from touch_input import Pad, even_steps

NAME = "GesturePad pointer and keyboard"
STROKE = (200.0, 100.0)  # CSS px, in 30 moves of 6.67 / 3.33: fractions to carry
results = Results("uinput")
REL = {"x": e.REL_X, "y": e.REL_Y, "wheel": e.REL_WHEEL, "wheel_hi": e.REL_WHEEL_HI_RES,
       "hwheel": e.REL_HWHEEL, "hwheel_hi": e.REL_HWHEEL_HI_RES}


def stroke_of(pad: Pad, start=(400.0, 400.0)) -> None:
    """The stroke the motion segments measure: STROKE in 30 moves."""
    stroke(pad, {1: start}, even_steps(*STROKE, 30))


def flick(pad: Pad) -> tuple[dict | None, float]:
    """Two fingers flick up 240 px in 24 moves of 8 ms (1,250 px/s on their own schedule) and
    lift 8 ms after the last move, still moving: the scroll coasts (kinetic scrolling, on by
    default for uinput). Returns the server's scroll `ended` event and the wall-clock time of
    the lift (the clock of the kernel's event timestamps)."""
    fingers = {1: (700.0, 700.0), 2: (800.0, 700.0)}
    pad.down(fingers)
    since = pad.mark()
    end = glide(pad, fingers, even_steps(0.0, -240.0, 24, fingers=(1, 2)))
    t = pad.t(pad.last_t + 8)
    lift = time.time()
    pad.send([{"type": "up", "id": i, "x": round(x, 3), "y": round(y, 3), "t": t, "pointerType": "touch"}
              for i, (x, y) in end.items()])
    pad.sync()
    ended = pad.wait_message(lambda m: m.get("gesture") == "scroll" and m.get("phase") == "ended", since, timeout=10)
    return ended, lift


def wait_release(ev: Evdev, code: int, after: int = 0) -> None:
    ev.wait_for(e.EV_KEY, code, 0, timeout=10, after=after)


def mid_drag(server, node: str, seg: dict) -> tuple[Evdev, Pad, int]:
    """A new connection in the middle of a tap-and-drag (the left button held): its device
    reader, the pad, and where the reader's events stood then."""
    ev = Evdev(node)
    pad = Pad(server)
    tap_drag(pad, ev)
    seg["held_before"] = ev.active_keys()
    return ev, pad, len(ev.snapshot())


def tap_drag(pad: Pad, ev: Evdev, at=(500.0, 500.0)) -> None:
    """Tap, then touch again at once and move: the left button is down while the finger moves."""
    mark = len(ev.snapshot())
    pad.tap({1: at})
    ev.wait_for(e.EV_KEY, e.BTN_LEFT, 1, after=mark)
    pad.down({1: at})
    glide(pad, {1: at}, even_steps(60.0, 0.0, 10))
    pad.sync()


def sigkill(server, ev: Evdev, lib: Libinput, seg: dict, word: str) -> None:
    """SIGKILL: no chance to release anything, the kernel must. Waits for the device to go and
    keeps libinput's lines with `word` and the removal."""
    server.process.kill()
    server.process.wait(timeout=30)
    ev.gone.wait(timeout=20)
    lib.wait_for("DEVICE_REMOVED", 20)
    seg["device_gone"] = ev.gone.is_set()
    seg["libinput"] = [line for line in lib.stop() if word in line or "REMOVED" in line]


def main() -> None:
    server = serve("--control", "uinput")
    node = event_node(NAME)

    with results.segment("device") as seg:
        seg["banner"] = server.stdout()
        seg["udev"] = udev_properties(node)
        lib = Libinput(node)
        seg["libinput"] = lib.stop()

    with results.segment("motion") as seg:
        ev = Evdev(node)
        adaptive = Libinput(node)
        flat = Libinput(node, "--set-profile=flat")
        pad = Pad(server)
        stroke_of(pad)
        for lib in (adaptive, flat):
            lib.settle()
        seg["raw"] = sums(ev.snapshot(), e.EV_REL, REL)
        seg["libinput_adaptive"] = libinput_motion(adaptive.stop())
        seg["libinput_flat"] = libinput_motion(flat.stop())
        seg["warnings"] = warnings(adaptive.lines + flat.lines)
        pad.close()
        ev.close()

    with results.segment("scroll") as seg:
        ev = Evdev(node)
        lib = Libinput(node)
        pad = Pad(server)
        start = {1: (700.0, 700.0), 2: (800.0, 700.0)}
        pad.down(start)
        end = glide(pad, start, even_steps(0.0, -240.0, 24, fingers=(1, 2)))  # fingers up: content down
        time.sleep(0.06)  # the fingers rest before they lift: no coast
        pad.up(end)
        pad.sync()
        lib.settle()
        seg["raw"] = sums(ev.snapshot(), e.EV_REL, REL)
        seg["libinput"] = [line for line in lib.stop() if "SCROLL" in line]
        pad.close()
        ev.close()

    with results.segment("coast") as seg:
        ev = Evdev(node)
        lib = Libinput(node)
        pad = Pad(server)
        ended, lift = flick(pad)
        ev.settle(quiet=0.5)  # the coast has come to rest
        lib.settle()
        events = ev.snapshot()
        seg["velocity"] = [ended["vx"], ended["vy"]] if ended else None
        seg["lift"] = lift
        seg["wheel_hi"] = [(stamp, value) for type_, code, value, stamp in events
                           if type_ == e.EV_REL and code == e.REL_WHEEL_HI_RES]
        seg["raw"] = sums(events, e.EV_REL, REL)
        seg["libinput"] = [line for line in lib.stop() if "SCROLL" in line]
        pad.close()
        ev.close()

    with results.segment("coast_stop") as seg:
        ev = Evdev(node)
        pad = Pad(server)
        ended, lift = flick(pad)
        seg["velocity"] = [ended["vx"], ended["vy"]] if ended else None
        # The coast runs (a wheel event stamped after the lift), then a finger lands and moves.
        wait_until(lambda: any(t == e.EV_REL and c == e.REL_WHEEL_HI_RES and stamp > lift
                               for t, c, _, stamp in ev.snapshot()), 10, "a wheel event after the lift")
        pad.down({3: (300.0, 300.0)})
        glide(pad, {3: (300.0, 300.0)}, even_steps(30.0, 0.0, 6, fingers=(3,)))
        time.sleep(0.9)  # the finger rests longer than the rest of the coast would have lasted
        pad.up({3: (330.0, 300.0)})
        pad.sync()
        ev.settle()
        events = ev.snapshot()
        seg["order"] = [("wheel", v) if c == e.REL_WHEEL_HI_RES else ("x", v) for t, c, v, _ in events
                        if t == e.EV_REL and c in (e.REL_WHEEL_HI_RES, e.REL_X)]
        seg["coasted"] = sum(v for t, c, v, stamp in events if t == e.EV_REL and c == e.REL_WHEEL_HI_RES and stamp > lift)
        pad.close()
        ev.close()

    with results.segment("taps") as seg:
        ev = Evdev(node)
        lib = Libinput(node)
        pad = Pad(server)
        for fingers, button in ((1, e.BTN_LEFT), (2, e.BTN_RIGHT), (3, e.BTN_MIDDLE)):
            mark, since = len(ev.snapshot()), pad.mark()
            pad.tap({i: (400.0 + 120 * i, 600.0) for i in range(1, fingers + 1)})
            try:
                wait_release(ev, button, after=mark)
                # The engine's tap sequence is over: the next tap is a new one, not a second.
                assert pad.wait_message(lambda m: m.get("gesture") == "singleTapConfirmed", since, timeout=10)
            finally:
                seg["keys"] = key_changes(ev.snapshot())
        lib.settle()
        seg["keys"] = key_changes(ev.snapshot())
        seg["libinput"] = [line for line in lib.stop() if "POINTER_BUTTON" in line]
        seg["held_after"] = ev.active_keys()
        pad.close()
        ev.close()

    with results.segment("tap_drag") as seg:
        ev = Evdev(node)
        pad = Pad(server)
        tap_drag(pad, ev)
        seg["held_while_dragging"] = ev.active_keys()
        pad.up({1: (560.0, 500.0)})
        wait_release(ev, e.BTN_LEFT, after=0)
        events = ev.snapshot()
        seg["order"] = [("key", v) if t == e.EV_KEY else ("motion", v) for t, c, v, _ in events
                        if (t == e.EV_KEY and c == e.BTN_LEFT) or (t == e.EV_REL and c == e.REL_X)]
        seg["held_after"] = ev.active_keys()
        pad.close()
        ev.close()

    with results.segment("keys") as seg:
        ev = Evdev(node)
        lib = Libinput(node, "--show-keycodes")
        pad = Pad(server)
        marks = [0]
        for name, message, last in (
                ("text", {"type": "text", "text": "Hello, world!\n"}, e.KEY_ENTER),
                ("combo", {"type": "key", "key": "a", "modifiers": ["Control", "Shift"]}, e.KEY_LEFTCTRL),
                ("named", {"type": "key", "key": "F5"}, e.KEY_F5)):
            seg[f"{name}_error"] = pad.request(message)
            ev.wait_for(e.EV_KEY, last, 0, after=marks[-1])
            marks.append(len(ev.snapshot()))
        seg["refused"] = pad.request({"type": "text", "text": "abc ö"})
        pad.sync()
        lib.settle()
        ev.settle()
        events = ev.snapshot()
        for index, name in enumerate(("text", "combo", "named")):
            seg[name] = key_changes(events[marks[index]:marks[index + 1]])
        seg["after_refusal"] = key_changes(events[marks[-1]:])
        seg["libinput_keys"] = sum(1 for line in lib.stop() if "KEYBOARD_KEY" in line)
        seg["held_after"] = ev.active_keys()
        pad.close()
        ev.close()

    with results.segment("release_disconnect") as seg:
        ev, pad, mark = mid_drag(server, node, seg)
        pad.close()  # the phone goes away mid-drag
        wait_release(ev, e.BTN_LEFT, after=mark)
        seg["held_after"] = ev.active_keys()
        ev.close()

    with results.segment("release_sigterm") as seg:
        lib = Libinput(node)
        ev, pad, mark = mid_drag(server, node, seg)
        server.process.send_signal(signal.SIGTERM)
        seg["exit"] = server.process.wait(timeout=30)
        ev.gone.wait(timeout=20)
        seg["keys_after"] = key_changes(ev.snapshot()[mark:])
        seg["device_gone"] = ev.gone.is_set()
        seg["libinput"] = [line for line in lib.stop() if "BUTTON" in line or "REMOVED" in line]
        ev.close()

    with results.segment("release_sigkill") as seg:
        server = serve("--control", "uinput")
        node = event_node(NAME)
        lib = Libinput(node)
        ev, pad, mark = mid_drag(server, node, seg)
        sigkill(server, ev, lib, seg, "BUTTON")
        seg["keys_after"] = key_changes(ev.snapshot()[mark:])
        ev.close()

    with results.segment("release_sigkill_pinch") as seg:
        # Mid-pinch, Control is held on the keyboard half of the device around the wheel.
        server = serve("--control", "uinput")
        node = event_node(NAME)
        lib = Libinput(node, "--show-keycodes")  # libinput hides key names unless asked
        ev = Evdev(node)
        pad = Pad(server)
        start = {1: (580.0, 600.0), 2: (620.0, 600.0)}
        pad.down(start)
        glide(pad, start, [{1: (-2.0, 0.0), 2: (2.0, 0.0)} for _ in range(22)])
        pad.sync()
        ev.wait_for(e.EV_KEY, e.KEY_LEFTCTRL, 1, timeout=10)
        lib.wait_for("KEY_LEFTCTRL", 10)
        seg["held_before"] = ev.active_keys()
        sigkill(server, ev, lib, seg, "KEY")
        ev.close()

    with results.segment("restart_after_sigkill") as seg:
        # The next server's device starts with nothing held, and clicks.
        server = serve("--control", "uinput")
        node = event_node(NAME)
        ev = Evdev(node)
        pad = Pad(server)
        seg["held_at_start"] = ev.active_keys()
        mark = len(ev.snapshot())
        pad.tap({1: (300.0, 300.0)})
        wait_release(ev, e.BTN_LEFT, after=mark)
        seg["keys"] = key_changes(ev.snapshot()[mark:])
        pad.close()
        server.stop()  # its device goes: the next segments find theirs by the same name
        ev.gone.wait(timeout=20)
        ev.close()

    with results.segment("motion_adaptive") as seg:
        server = serve("--control", "uinput", "--acceleration", "adaptive")
        node = event_node(NAME)
        ev = Evdev(node)
        pad = Pad(server)
        stroke_of(pad)
        ev.settle()
        seg["raw"] = sums(ev.snapshot(), e.EV_REL, REL)
        pad.close()
        ev.close()
        server.stop()

    with results.segment("german_layout") as seg:
        server = serve("--control", "uinput", "--keyboard-layout", "de")
        node = event_node(NAME)
        ev = Evdev(node)
        pad = Pad(server)
        seg["banner"] = server.stdout() + server.stderr()
        seg["text_error"] = pad.request({"type": "text", "text": "zY€ö<"})
        ev.wait_for(e.EV_KEY, e.KEY_102ND, 0)
        mark = len(ev.snapshot())
        seg["combo_error"] = pad.request({"type": "key", "key": "z", "modifiers": ["Control"]})
        ev.wait_for(e.EV_KEY, e.KEY_LEFTCTRL, 0, after=mark)
        seg["refused"] = pad.request({"type": "text", "text": "a中"})
        pad.sync()
        ev.settle()
        events = ev.snapshot()
        seg["text"] = key_changes(events[:mark])
        seg["combo"] = key_changes(events[mark:])
        seg["held_after"] = ev.active_keys()
        pad.close()
        ev.close()
        server.stop()


if __name__ == "__main__":
    main()
