"""The ground truth of tests/kde: a fullscreen GTK 3 window (Debian's python3-gi, run with
/usr/bin/python3) that a real Wayland client is — it writes every pointer motion, button,
scroll and key it receives, one JSON line each, to the file named by its first argument, and
"ready" there once it has keyboard focus (tests/sway's window too). Every line has "at", the
monotonic clock (s) when it was written, which is the test process's time.monotonic().
A second argument, "tiled", leaves the window to the compositor's layout instead of fullscreen
(tests/sway's two windows side by side).

Lines: {"type": "motion", "x", "y", "time"} (root coordinates; "time" the compositor's stamp, ms), {"type": "button-down" | "button-up",
"button"}, {"type": "scroll", "dx", "dy", "direction", "stop", "state"} (smooth deltas as GTK
gives them: 1.0 is one wheel click), {"type": "key-down" | "key-up", "keyval", "unicode",
"state", "keycode"} (the XKB key code), {"type": "swipe" | "pinch", "phase", "fingers", …} (touchpad gestures).
"""
import json
import signal
import sys
import time

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("Gdk", "3.0")
from gi.repository import Gdk, GLib, Gtk  # noqa: E402

OUT = open(sys.argv[1], "a", buffering=1)


def write(entry: dict) -> bool:
    OUT.write(json.dumps({**entry, "at": time.monotonic()}) + "\n")
    return False


def on_motion(_widget, event):
    # "time": the compositor's stamp of the motion (ms; wlroots passes a virtual pointer's own on).
    return write({"type": "motion", "x": round(event.x_root, 2), "y": round(event.y_root, 2),
                  "time": event.time})


LAST_BUTTON = [None]


def on_button(_widget, event):
    if event.type != Gdk.EventType.BUTTON_PRESS and event.type != Gdk.EventType.BUTTON_RELEASE:
        return False  # the double-click events GTK adds
    kind = "button-down" if event.type == Gdk.EventType.BUTTON_PRESS else "button-up"
    # GTK 3 emits the signal twice for one wl_pointer.button (WAYLAND_DEBUG shows one press and
    # one release): the same button, kind and time again is that second emission.
    key = (kind, event.button, event.time)
    if LAST_BUTTON[0] == key:
        return False
    LAST_BUTTON[0] = key
    return write({"type": kind, "button": event.button})


def on_scroll(_widget, event):
    smooth, dx, dy = event.get_scroll_deltas()
    return write({"type": "scroll", "dx": dx if smooth else 0.0, "dy": dy if smooth else 0.0,
                  "direction": int(event.direction), "stop": bool(event.is_scroll_stop_event()),
                  "state": int(event.state)})


def on_key(_widget, event):
    kind = "key-down" if event.type == Gdk.EventType.KEY_PRESS else "key-up"
    code = Gdk.keyval_to_unicode(event.keyval)
    return write({"type": kind, "keyval": event.keyval, "unicode": chr(code) if code else "",
                  "state": int(event.state), "keycode": event.hardware_keycode})


def on_event(_widget, event):
    """The desktop's touchpad gestures (zwp_pointer_gestures_v1): swipe and pinch, with their
    phase (0 begin, 1 update, 2 end, 3 cancel), fingers and scale."""
    if event.type == Gdk.EventType.TOUCHPAD_SWIPE:
        return write({"type": "swipe", "phase": int(event.touchpad_swipe.phase),
                      "fingers": int(event.touchpad_swipe.n_fingers),
                      "dx": event.touchpad_swipe.dx, "dy": event.touchpad_swipe.dy})
    if event.type == Gdk.EventType.TOUCHPAD_PINCH:
        return write({"type": "pinch", "phase": int(event.touchpad_pinch.phase),
                      "fingers": int(event.touchpad_pinch.n_fingers), "scale": event.touchpad_pinch.scale})
    return False


def on_focus(_widget, _event):
    return write({"type": "ready"})


window = Gtk.Window(title="GesturePad KDE recorder")
window.add_events(Gdk.EventMask.POINTER_MOTION_MASK | Gdk.EventMask.BUTTON_PRESS_MASK
                  | Gdk.EventMask.BUTTON_RELEASE_MASK | Gdk.EventMask.SMOOTH_SCROLL_MASK
                  | Gdk.EventMask.KEY_PRESS_MASK | Gdk.EventMask.KEY_RELEASE_MASK | Gdk.EventMask.FOCUS_CHANGE_MASK
                  | Gdk.EventMask.TOUCHPAD_GESTURE_MASK)
window.connect("motion-notify-event", on_motion)
window.connect("button-press-event", on_button)
window.connect("button-release-event", on_button)
window.connect("scroll-event", on_scroll)
window.connect("key-press-event", on_key)
window.connect("key-release-event", on_key)
window.connect("focus-in-event", on_focus)
window.connect("event", on_event)
window.connect("destroy", Gtk.main_quit)
if sys.argv[2:] != ["tiled"]:
    window.fullscreen()
window.show_all()


def compress(on: bool) -> bool:
    """SIGUSR1: every motion as the compositor sent it, from now on (tests/sway's Wi-Fi strokes:
    GDK otherwise merges the motions queued by the time this process gets the CPU into the last
    one, and a stroke's display shows the merge as a jump); SIGUSR2: merged again (a burst of
    thousands of motions would keep this window busy for seconds, one by one). The file named by
    the first argument + ".compression" says which holds, once it does."""
    window.get_window().set_event_compression(on)
    with open(sys.argv[1] + ".compression", "w") as mode:
        mode.write("on" if on else "off")
    return True


GLib.unix_signal_add(GLib.PRIORITY_HIGH, signal.SIGUSR1, compress, False)
GLib.unix_signal_add(GLib.PRIORITY_HIGH, signal.SIGUSR2, compress, True)
Gtk.main()
