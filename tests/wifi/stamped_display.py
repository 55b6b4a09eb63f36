"""A 60 Hz display made from positions that carry their own times, for a pointer whose every
change is stamped where it happens (the kernel stamps each input frame when the backend writes
it, and libinput's events keep that stamp).

A live `stroke.Sampler` reads the pointer when its thread gets the CPU; where that is uneven
(a User-Mode Linux kernel, whose every system call traps) the reads would measure the reader.
`StampedDisplay` instead shows, at each frame of a regular grid from `start()` to `stop()`,
the last position stamped at or before that frame: what a display refreshing at `rate` Hz on
the same clock would have shown, however late the positions were read.
"""
from __future__ import annotations

import bisect
import time
from collections.abc import Callable

Stamped = tuple[float, int, int]  # (time.monotonic() s, x, y)


def frames_of(stamped: list[Stamped], before: tuple[int, int], begin: float, end: float,
              rate: float) -> list[Stamped]:
    """The frames at begin, begin + 1/rate, … up to `end`, each showing the last of `stamped`
    (sorted by time) at or before it, or `before` when none is."""
    times = [s[0] for s in stamped]
    frames = []
    k = 0
    while (t := begin + k / rate) <= end:
        i = bisect.bisect_right(times, t)
        frames.append((t, *(stamped[i - 1][1:] if i else before)))
        k += 1
    return frames


class StampedDisplay:
    """A `stroke.Display` over `positions()`: the stamped positions seen so far (sorted by
    time), and `current()` the position before any of them (where the pointer rests)."""

    def __init__(self, positions: Callable[[], list[Stamped]], current: Callable[[], tuple[int, int]], rate: float):
        self._positions = positions
        self._rate = rate
        self._before = current()
        self._begin = 0.0
        self.stamped: list[Stamped] | None = None  # the positions, once stopped

    def start(self) -> StampedDisplay:
        self._begin = time.monotonic()
        return self

    def latest(self) -> tuple[int, int] | None:
        seen = self._positions()
        return seen[-1][1:] if seen else self._before

    def stop(self) -> list[Stamped]:
        self.stamped = list(self._positions())
        return frames_of(self.stamped, self._before, self._begin, time.monotonic(), self._rate)
