"""Issue 41, "Smooth on a real Wi-Fi", at the `uinput` backend through a real kernel (User-Mode
Linux): tests/wifi's stroke through the link shaper's profiles into `serve --control uinput`
(flat, speed 1), all inside the kernel (inside/uinput_wifi_scenario.py), judged on the device's
own REL_X / REL_Y events at the kernel's stamps, shown on a 60 Hz display. The targets and
seeds are tests/wifi/wifi_rows.py's, the same as at the X server, under sway and for the
touchpad; the final position is the deltas' sum, exactly 600 px right; a stroke presses nothing.
"""
from __future__ import annotations

import sys
import warnings
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "wifi"))
from wifi_rows import PROFILES  # noqa: E402


@pytest.fixture(scope="module")
def run(run_scenario):
    return run_scenario("uinput_wifi")


@pytest.mark.parametrize("profile", list(PROFILES))
def test_stroke_over_wifi(run, profile):
    """The strokes through one link profile meet that profile's targets (wifi_rows.py), as the
    kernel's evdev device carries the motion."""
    seg = run.segment("uinput_wifi", profile)
    for why in seg["replays"]:
        warnings.warn(why, stacklevel=1)
    print("\n".join(seg["rows"]) + f"\n{seg['frames']} frames in the last stroke")
    assert not seg["missed"], f"{profile}: " + "\n".join(seg["missed"])
