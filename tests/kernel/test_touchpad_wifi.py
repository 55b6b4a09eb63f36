"""Issue 41, "Smooth on a real Wi-Fi", at the `touchpad` backend through a real kernel, udev and
libinput (User-Mode Linux): tests/wifi's stroke through the link shaper's profiles into `serve
--control touchpad`, all inside the kernel (inside/wifi_scenario.py), judged on libinput's
pointer motion at the kernel's own stamps, shown on a 60 Hz display. The targets and seeds are
tests/wifi/wifi_rows.py's, as at the X server and under sway, except the final position: the
desktop's acceleration moves the pointer, so the scenario holds the finger exact instead — the
contact lifts where the finger did, and libinput's unaccelerated motion adds up to its 600 px —
and libinput may complain of nothing (the scenario's docstring says why).
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
    return run_scenario("wifi")


@pytest.mark.parametrize("profile", list(PROFILES))
def test_stroke_over_wifi(run, profile):
    """The strokes through one link profile meet that profile's targets, as libinput moves the
    pointer; the finger is exact and libinput complains of nothing on every profile."""
    seg = run.segment("wifi", profile)
    for why in seg["replays"]:
        warnings.warn(why, stacklevel=1)
    print("\n".join(seg["rows"]) + f"\naccelerated distance {seg['accelerated']} (libinput's units)")
    assert not seg["checks"], f"{profile}: " + "\n".join(seg["checks"])
    inexact = [v for v in seg["verdicts"] if v["final"] != v["expected_final"]]
    assert not inexact, f"{profile}: libinput's motion did not add up to the finger's: {inexact}\n" + \
        "\n".join(seg["rows"])
    assert not seg["missed"], f"{profile}: " + "\n".join(seg["missed"])
