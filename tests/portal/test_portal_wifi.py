"""Issue 41, "Smooth on a real Wi-Fi", at the `portal` backend: tests/wifi's stroke (600 px in 3 s
at 120 Hz from a real WebSocket client, through the link shaper's profiles) into `gesturepad
serve --control portal` (flat, speed 1) on a private session bus, judged on what its encoder
sends: the NotifyPointerMotion calls the fake RemoteDesktop portal (fake_portal.py) received,
added up, each at the time it arrived there, shown on a 60 Hz display
(tests/wifi/stamped_display.py). The targets and the seeds judged are tests/wifi/wifi_rows.py's,
the same as at the X server, under sway and in the kernel; the final position is the calls'
sum, exactly 600 px right; a stroke makes no other Notify call.
"""
from __future__ import annotations

import sys
import warnings
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "wifi"))
from stamped_display import StampedDisplay  # noqa: E402
from wifi_rows import PROFILES, stroke_profile  # noqa: E402

FLAT = ["--acceleration", "flat", "--speed", "1"]


class PortalPointer:
    """The pointer the portal's NotifyPointerMotion calls move, per stroke: their dx, dy added up
    since `reset()` (so (0, 0) then); `positions()` the sum after each call, at its arrival at
    the fake portal."""

    def __init__(self, portal):
        self.portal = portal
        self._mark = 0

    def reset(self) -> None:
        self._mark = len(self.portal.settle(quiet=0.2))

    def _notifies(self) -> list[dict]:
        return [entry for entry in self.portal.entries()[self._mark:] if entry.get("call", "").startswith("Notify")]

    def positions(self) -> list[tuple[float, int, int]]:
        stamped, x, y = [], 0.0, 0.0
        for call in self._notifies():
            if call["call"] == "NotifyPointerMotion":
                x, y = x + call["args"][2], y + call["args"][3]
                stamped.append((call["at"], round(x), round(y)))
        return stamped

    def __call__(self) -> tuple[int, int]:
        seen = self.positions()
        return seen[-1][1:] if seen else (0, 0)

    def display(self, read_pointer, rate: float) -> StampedDisplay:
        return StampedDisplay(self.positions, read_pointer, rate)

    def check(self, _verdict) -> list[str]:
        """The stroke just judged made no Notify call but motion."""
        other = sorted({call["call"] for call in self._notifies() if call["call"] != "NotifyPointerMotion"})
        return [f"the stroke made other Notify calls: {other}"] if other else []


def session_started(portal) -> bool:
    flow = portal.session_flow()
    return "Start" in flow and "Response(0)" in flow[flow.index("Start"):]


@pytest.mark.parametrize("profile", list(PROFILES))
def test_stroke_over_wifi(profile, portals, start_server):
    """The strokes through one link profile meet that profile's targets (wifi_rows.py), as the
    portal receives the motion."""
    portal = portals()
    server = start_server(FLAT)
    assert portal.wait_for(session_started, timeout=10), portal.session_flow()
    pointer = PortalPointer(portal)
    run = stroke_profile(profile, server.port, server.token, pointer, reset=pointer.reset, display=pointer.display,
                         check=pointer.check)
    for why in run.replays:
        warnings.warn(why, stacklevel=1)
    print("\n".join(run.rows))
    assert not run.missed, f"{profile}: " + "\n".join(run.missed)
