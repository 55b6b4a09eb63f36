"""Issue 41, "Smooth on a real Wi-Fi": a 600 px stroke in 3 s at 120 Hz from a real WebSocket
client, through the link shaper's profiles, into `gesturepad serve --control x11` (flat, speed
1) on a private Xvfb, the pointer read at 60 Hz (XQueryPointer). The targets and the seeds
judged are tests/wifi/wifi_rows.py's, the same for every backend (tests/sway: wlroots;
tests/kernel: the touchpad through libinput). Each row's numbers are printed (shown with a
failure). tests/wifi holds the link shaper, the stroke's driver and judge, and their own tests.
"""
from __future__ import annotations

import os
import sys
import warnings
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "wifi"))

from wifi_rows import PROFILES, stroke_profile  # noqa: E402
from x11_pointer import X11_FLAT, XPointer  # noqa: E402

START = (600, 500)  # where the pointer is put first: room for 600 px to the right


@pytest.fixture(scope="module")
def pointer(xserver):
    """pointer() → (x, y) of the X pointer on the private Xvfb; pointer.warp(x, y)."""
    reader = XPointer(xserver.name)
    try:
        yield reader
    finally:
        reader.close()


@pytest.mark.parametrize("profile", list(PROFILES))
def test_stroke_over_wifi(profile, start_server, pointer, xserver):
    """The strokes through one link profile meet that profile's targets (wifi_rows.py)."""
    x11_server = start_server(extra=X11_FLAT[2:])
    run = stroke_profile(profile, x11_server.port, x11_server.token, pointer, reset=lambda: pointer.warp(*START),
                         watch=lambda: [x11_server.process.pid, xserver.process.pid, os.getpid()])
    for why in run.replays:
        warnings.warn(why, stacklevel=1)
    print("\n".join(run.rows))
    assert not run.missed, f"{profile}: " + "\n".join(run.missed)
