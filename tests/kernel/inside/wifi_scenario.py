"""Inside the UML kernel: tests/wifi's stroke (600 px in 3 s at 120 Hz from a real WebSocket
client, through the link shaper's profiles) into the real `gesturepad serve --control
touchpad`, watched where a desktop's input stack sees it: the motion libinput makes of the
virtual touchpad, through the real kernel and udev. Writes wifi.json for
tests/kernel/test_touchpad_wifi.py: one segment per profile, its rows and what missed.

What is judged, and why so (docs/testing.md "A Wi-Fi link in user space"):
- The display: libinput's POINTER_MOTION, unaccelerated (a touchpad's are its own units, 6.35
  a CSS px here: 1:1 with the finger, as x11 and wlroots are judged at flat speed 1), from
  where libinput starts a touch's motion (its second frame: the step from the first is not
  motion), each at its own time —
  the kernel's stamp of the frame the backend wrote, which libinput keeps — shown on a 60 Hz
  display of the same clock (tests/wifi/stamped_display.py). A reader thread inside UML gets
  the CPU too unevenly to be the display itself; the stamps do not depend on it.
- The final position: the touchpad's pointer moves by the desktop's own acceleration (adaptive,
  from the speed of each frame), so where it ends depends on the pacing and is not "exact" by
  any rule. What is exact is the finger: its contact lifts exactly where the finger did, on the
  device (raw events), and libinput's unaccelerated motion adds up to the finger's 600 px
  (rounded to the px) — nothing discarded as a jump, nothing lost. The accelerated distance is
  reported beside it, against the loopback stroke's.
- libinput's complaints (a jump discarded, a kernel bug) fail the profile.
"""
from __future__ import annotations

import math
import re

from kernel_kit import Libinput, Results, event_node, serve, warnings
from touch_input import Pad
from wifi_kit import realtime, stroke_profiles

from stamped_display import StampedDisplay  # tests/wifi, on the path wifi_kit gives
from stroke import StrokePlan

NAME = "GesturePad touchpad"
# A phone held sideways: smaller than the device, so it lies on it at its real size (centred),
# and the stroke's 600 px are 600 px of the device.
PLAN = StrokePlan(finger=(100.0, 200.0), surface=(844, 390))
FIXED_SIDE = 1000  # TouchpadGeometry.fixedSide, CSS px
UNITS_PER_CSS = 25.4 / 160 * 40  # 6.35 device units a CSS px
EV_SYN, EV_ABS, SYN_REPORT, ABS_MT_POSITION_X, ABS_MT_TRACKING_ID = 0, 3, 0, 53, 57
MOTION = re.compile(r"POINTER_MOTION\s+([-+]?[\d.]+)s\s+([-+]?[\d.]+)/\s*([-+]?[\d.]+)\s*"
                    r"\(\s*([-+]?[\d.]+)/\s*([-+]?[\d.]+)\s*\)")
results = Results("wifi")


def device_x(css: float) -> int:
    """The device units of page x `css` (the page centred on the device, unscaled)."""
    left = (FIXED_SIDE - PLAN.surface[0]) / 2
    return round((left + css) * UNITS_PER_CSS)


class RawFrames:
    """The touchpad's raw events (kernel_kit's reader beside libinput) stamped on CLOCK_MONOTONIC,
    libinput's and time.monotonic()'s clock, not the realtime clock evdev stamps by default."""

    def __init__(self, lib: Libinput):
        lib.raw.stamp_monotonic()
        self._lib = lib

    def since(self, mark: int) -> list[tuple[int, int, int, float]]:
        return self._lib.raw.snapshot()[mark:]

    def mark(self) -> int:
        return len(self._lib.raw.snapshot())


class LibinputPointer:
    """The pointer libinput moves for the touchpad, per stroke: reader() → where the finger's
    600 px have brought it (page CSS px, unaccelerated, rounded); `positions()` each motion at
    its kernel time. `reset()` starts a stroke (tests/wifi's `reset`)."""

    def __init__(self, node: str):
        self.lib = Libinput(node)
        self.raw = RawFrames(self.lib)
        self._offset_ms: int | None = None  # libinput debug-events' time origin on the kernel's clock
        self._line_mark = self._raw_mark = 0
        self.reset()

    def reset(self) -> None:
        self.lib.settle(quiet=0.2, timeout=5)
        self._line_mark = len(self.lib.snapshot())
        self._raw_mark = self.raw.mark()

    def motions(self) -> list[tuple[float, float, float, float, float]]:
        """This stroke's POINTER_MOTION lines: (printed time s, dx, dy, unaccelerated dx, dy)."""
        found = []
        for line in self.lib.snapshot()[self._line_mark:]:
            match = MOTION.search(line)
            if match:
                found.append(tuple(map(float, match.groups())))
        return found

    def __call__(self) -> tuple[int, int]:
        motions = self.motions()
        return self._at(sum(m[3] for m in motions), sum(m[4] for m in motions), self._first_step())

    def _first_step(self) -> int:
        """The contact's x step from its first frame to its second (device units): libinput
        starts a touch's motion at the second frame, so that step is not in its motion."""
        return self._first_step_at()[0]

    def _first_step_at(self) -> tuple[int, float | None]:
        """The first step and the kernel's stamp of the frame that made it (None: no second
        frame yet)."""
        xs = [(value, t) for type_, code, value, t in self.raw.since(self._raw_mark)
              if type_ == EV_ABS and code == ABS_MT_POSITION_X][:2]
        return (xs[1][0] - xs[0][0], xs[1][1]) if len(xs) == 2 else (0, None)

    @staticmethod
    def _at(udx: float, udy: float, first_step: int) -> tuple[int, int]:
        """Page CSS px of libinput's pointer after `udx`, `udy` of this stroke's motion."""
        x, y = PLAN.finger
        return round(x + (first_step + udx) / UNITS_PER_CSS), round(y + udy / UNITS_PER_CSS)

    def _frame_times(self) -> list[float]:
        return [t for type_, code, _, t in self.raw.since(self._raw_mark) if type_ == EV_SYN and code == SYN_REPORT]

    def _calibrate(self, printed_ms: list[int], frames: list[float]) -> int | None:
        """debug-events prints times from its own origin (the first event it saw), in ms;
        libinput's event times are the kernel's frame stamps in ms. The origin is the offset
        that puts the most printed times on a frame's ms (frames are ~8 ms apart: one fits)."""
        if self._offset_ms is None and len(printed_ms) >= 20:
            frame_ms = {math.floor(t * 1000) for t in frames}
            candidates = {f - printed_ms[0] for f in frame_ms}
            best = max(candidates, key=lambda c: sum(p + c in frame_ms for p in printed_ms))
            if sum(p + best in frame_ms for p in printed_ms) >= 0.9 * len(printed_ms):
                self._offset_ms = best
        return self._offset_ms

    def positions(self) -> list[tuple[float, int, int]]:
        """Each of this stroke's motions at the kernel's time of its frame (the exact stamp
        of the frame in that ms), where the pointer was after it."""
        motions = self.motions()
        frames = self._frame_times()
        offset = self._calibrate([round(m[0] * 1000) for m in motions], frames)
        if offset is None:  # too few motions yet, or times that fit no frames: nothing shown
            return []
        by_ms: dict[int, float] = {}
        for t in frames:
            by_ms.setdefault(math.floor(t * 1000), t)
        first_step, first_at = self._first_step_at()
        # The finger's first step is on the display when its frame is, as at the X server: the
        # pointer libinput moves never shows it (a touch's motion starts at its second frame),
        # and counting it into the first motion libinput does show would make that display
        # frame jump by a step that never was one.
        stamped, udx, udy = [], 0.0, 0.0
        if first_at is not None and first_step:
            stamped.append((first_at, *self._at(0.0, 0.0, first_step)))
        for printed, _, _, mx, my in motions:
            udx, udy = udx + mx, udy + my
            ms = round(printed * 1000) + offset
            stamped.append((by_ms.get(ms, ms / 1000), *self._at(udx, udy, first_step)))
        stamped.sort(key=lambda s: s[0])
        return stamped

    def display(self, read_pointer, rate: float) -> StampedDisplay:
        return StampedDisplay(self.positions, read_pointer, rate)

    def contact_travel(self) -> tuple[int | None, int | None]:
        """Slot 0's x where this stroke's touch landed and where it lifted (device units)."""
        landed = lifted = x = None
        for type_, code, value, _ in self.raw.since(self._raw_mark):
            if type_ == EV_ABS and code == ABS_MT_POSITION_X:
                x = value
                landed = x if landed is None else landed
            elif type_ == EV_ABS and code == ABS_MT_TRACKING_ID and value == -1:
                lifted = x
        return landed, lifted

    def check(self, _verdict) -> list[str]:
        """The touchpad's own targets for the stroke just judged: the contact lands and lifts
        where the finger did, exactly; libinput complains of nothing."""
        missed = []
        expected = (device_x(PLAN.finger[0]), device_x(PLAN.finger[0] + PLAN.distance))
        # The reader beside libinput may not have read the lift yet when the pointer settled
        # (the guest's one CPU): wait for it a while; one that never comes is reported below.
        try:
            self.lib.raw.wait_for(EV_ABS, ABS_MT_TRACKING_ID, -1, timeout=5.0, after=self._raw_mark)
        except TimeoutError:
            pass
        if self.contact_travel() != expected:
            missed.append(f"the contact went {self.contact_travel()} (device x), not {expected}")
        complaints = self.complaints()
        if complaints:
            missed.append("libinput complained: " + "; ".join(complaints))
        return missed

    def complaints(self) -> list[str]:
        return warnings(self.lib.snapshot()[self._line_mark:])

    def accelerated(self) -> float:
        """The accelerated distance libinput moved the pointer this stroke (its own units)."""
        return round(sum(m[1] for m in self.motions()), 1)


def main() -> None:
    realtime()
    server = serve("--control", "touchpad")
    warm = Pad(server, surface=PLAN.surface)  # the device is made at the first touchpad's hello
    node = event_node(NAME)
    warm.close()
    pointer = LibinputPointer(node)
    stroke_profiles(results, server, pointer, PLAN, check=pointer.check,
                    facts=lambda: {"accelerated": pointer.accelerated(), "motions": len(pointer.motions())})
    pointer.lib.stop()
    server.stop()


if __name__ == "__main__":
    main()
