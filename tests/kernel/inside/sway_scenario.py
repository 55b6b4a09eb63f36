"""Inside the UML kernel: the `touchpad` backend under a real compositor — sway 1.7 with its
libinput backend reading the server's virtual touchpad through the real kernel and udev, and a
real Wayland client (tests/kde's recorder.py, GTK 3, which binds zwp_pointer_gestures_v1)
focused as ground truth. Writes sway.json for tests/kernel/test_sway_kernel.py, one entry per
segment: what the window received.

sway runs as nobody (it refuses root), with `LIBSEAT_BACKEND=builtin SEATD_VTBOUND=0` (the
noop backend times out) and the event nodes made readable; its runtime folder is on the
kernel's tmpfs (/run: sockets cannot live on hostfs), and wlroots wants /dev/shm (init.sh).
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from kernel_kit import REPO, Results, event_node, glide, serve, stroke, wait_until
from touch_input import Pad, even_steps, spread_steps

sys.path.insert(0, str(REPO / "tests" / "sway"))
from sway_session import HeadlessSway  # noqa: E402

PORTRAIT = (390, 844)
results = Results("sway")
LIBINPUT = {"WLR_BACKENDS": "headless,libinput", "WLR_RENDERER": "pixman", "LIBSEAT_BACKEND": "builtin",
            "SEATD_VTBOUND": "0"}


def sway_inputs(desktop) -> list[dict]:
    result = desktop.swaymsg("-t", "get_inputs", "--raw")
    return json.loads(result.stdout) if result.returncode == 0 else []


def main() -> None:
    server = serve("--control", "touchpad")
    pad = Pad(server, surface=PORTRAIT)
    for name in ("GesturePad touchpad", "GesturePad pointer and keyboard"):
        os.chmod(event_node(name), 0o666)  # sway's builtin seat opens them as nobody
    desktop = HeadlessSway(timeout=120, runtime_parent=Path("/run"), compositor_env=LIBINPUT)

    with results.segment("device") as seg:
        touchpad = wait_until(
            lambda: next((i for i in sway_inputs(desktop) if i.get("name") == "GesturePad touchpad"), None), 60,
            "sway to list the touchpad")
        seg["input"] = {key: touchpad.get(key) for key in ("type", "name", "libinput")}
        tap = desktop.swaymsg("input", "type:touchpad", "tap", "enabled")
        seg["tap_enabled"] = tap.returncode == 0
        wait_until(lambda: desktop.focus_count() > 0, 60, "the window's keyboard focus")
        desktop.wait_events(lambda e: True, timeout=5, quiet=1.0)

    def record(seg: dict, predicate, timeout: float = 30) -> None:
        seg["events"] = desktop.wait_events(predicate, timeout=timeout, quiet=1.0)

    with results.segment("one_finger") as seg:
        stroke(pad, {1: (100.0, 300.0)}, even_steps(160.0, 80.0, 40))
        record(seg, lambda e: any(x["type"] == "motion" for x in e))

    with results.segment("tap") as seg:
        pad.tap({1: (200.0, 400.0)})
        record(seg, lambda e: any(x["type"] == "button-up" for x in e))

    with results.segment("two_finger_scroll") as seg:
        stroke(pad, {1: (150.0, 600.0), 2: (230.0, 600.0)}, even_steps(0.0, -240.0, 30, fingers=(1, 2)))
        record(seg, lambda e: any(x["type"] == "scroll" and x["stop"] for x in e))

    for fingers in (3, 4):
        with results.segment(f"swipe{fingers}") as seg:
            start = {i: (60.0 + 60 * i, 400.0) for i in range(1, fingers + 1)}
            stroke(pad, start, even_steps(150.0, 0.0, 30, fingers=tuple(start)))
            record(seg, lambda e: any(x["type"] == "swipe" and x["phase"] >= 2 for x in e))

    with results.segment("pinch") as seg:
        stroke(pad, *spread_steps((195.0, 420.0), 80.0, 300.0, 30))
        record(seg, lambda e: any(x["type"] == "pinch" and x["phase"] >= 2 for x in e))

    with results.segment("disconnect_mid_drag") as seg:
        pad.tap({1: (200.0, 400.0)})
        pad.down({1: (200.0, 400.0)})
        glide(pad, {1: (200.0, 400.0)}, even_steps(80.0, 0.0, 30))
        pad.sync()
        seg["held"] = desktop.wait_events(lambda e: any(x["type"] == "button-down" for x in e), timeout=30, quiet=0.5)
        pad.ws.close()
        record(seg, lambda e: any(x["type"] == "button-up" for x in e))

    desktop.close()
    server.process.send_signal(signal.SIGTERM)
    server.process.wait(timeout=30)


if __name__ == "__main__":
    try:
        main()
    except Exception:  # noqa: BLE001 — whatever failed before a segment: the test shows the logs
        import traceback
        results.data["setup"] = {"error": traceback.format_exc()}
        results.write()
        subprocess.run(["sh", "-c", "ls -la /run /dev/shm; cat /tmp/gesturepad-sway-*/sway.log | tail -30"])
        raise
