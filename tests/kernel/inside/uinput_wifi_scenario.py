"""Inside the UML kernel: tests/wifi's stroke (600 px in 3 s at 120 Hz from a real WebSocket
client, through the link shaper's profiles) into the real `gesturepad serve --control uinput`
(flat, speed 1), judged on what its encoder wrote to the kernel: the uinput device's REL_X /
REL_Y events as an evdev reader receives them, each frame at the kernel's stamp of it (taken
when the backend's write reached the kernel), shown on a 60 Hz display of the same clock
(tests/wifi/stamped_display.py). Writes uinput_wifi.json for tests/kernel/test_uinput_wifi.py:
one segment per profile, its rows and what missed.

The pointer is relative: it starts each stroke at (0, 0) and must end exactly at (600, 0), the
deltas adding up to the finger's travel (flat, speed 1: 1:1, fractions carried). A stroke
presses nothing: a button or key event in it is a miss of its own.
"""
from __future__ import annotations

from evdev import ecodes as e
from kernel_kit import Evdev, Results, event_node, serve
from wifi_kit import realtime, stroke_profiles

from stamped_display import StampedDisplay  # tests/wifi, on the path wifi_kit gives
from stroke import StrokePlan

NAME = "GesturePad pointer and keyboard"
PLAN = StrokePlan()
results = Results("uinput_wifi")


class RelPointer:
    """The pointer the uinput device moves, per stroke: its REL_X / REL_Y added up since
    `reset()` (so (0, 0) then); `positions()` the sum after each of the stroke's frames, at the
    kernel's stamp of that frame (CLOCK_MONOTONIC: time.monotonic()'s clock)."""

    def __init__(self, node: str):
        self.ev = Evdev(node).stamp_monotonic()
        self._mark = 0

    def reset(self) -> None:
        self.ev.settle(quiet=0.2, timeout=5)
        self._mark = len(self.ev.snapshot())

    def _events(self) -> list[tuple[int, int, int, float]]:
        return self.ev.snapshot()[self._mark:]

    def positions(self) -> list[tuple[float, int, int]]:
        stamped, x, y = [], 0, 0
        for type_, code, value, stamp in self._events():
            if type_ == e.EV_REL and code == e.REL_X:
                x += value
            elif type_ == e.EV_REL and code == e.REL_Y:
                y += value
            elif type_ == e.EV_SYN and code == e.SYN_REPORT:
                stamped.append((stamp, x, y))
        return stamped

    def __call__(self) -> tuple[int, int]:
        events = self._events()
        return (sum(v for t, c, v, _ in events if t == e.EV_REL and c == e.REL_X),
                sum(v for t, c, v, _ in events if t == e.EV_REL and c == e.REL_Y))

    def display(self, read_pointer, rate: float) -> StampedDisplay:
        return StampedDisplay(self.positions, read_pointer, rate)

    def check(self, _verdict) -> list[str]:
        """The stroke just judged pressed nothing, and moved nothing but x and y."""
        other = sorted({(t, c) for t, c, _, _ in self._events()
                        if t not in (e.EV_SYN, e.EV_REL) or (t == e.EV_REL and c not in (e.REL_X, e.REL_Y))})
        return [f"the stroke wrote events other than motion (type, code): {other}"] if other else []

    def frames(self) -> int:
        """The stroke's frames (SYN_REPORT) so far."""
        return len(self.positions())


def main() -> None:
    realtime()
    server = serve("--control", "uinput", "--acceleration", "flat", "--speed", "1")
    pointer = RelPointer(event_node(NAME))
    stroke_profiles(results, server, pointer, PLAN, check=pointer.check, facts=lambda: {"frames": pointer.frames()})
    pointer.ev.close()
    server.stop()


if __name__ == "__main__":
    main()
