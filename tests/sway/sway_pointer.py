"""The pointer as the headless sway's window sees it, for tests/wifi's stroke: each motion event
the recorder window received (root coordinates), at the time the compositor stamped it.

wlroots passes a virtual pointer's own stamp through to the window (wl_pointer.motion's time),
and the server stamps each request in ms of CLOCK_MONOTONIC as it writes it — the clock of
`time.monotonic()`, and of sway's own stamps (a `seat - cursor set`). So a motion's time is when
the backend wrote it, as the kernel's stamps are in tests/kernel, whenever this machine's
scheduler let the window read it: the window's receipt time ("at") would add the recorder's own
lateness, which on a loaded 2-core machine turned one late read into a 2× jump. While a reader
is open the window reads every motion apart (GDK would merge those queued into the last one)."""
from __future__ import annotations

import json
import os
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "wifi"))

from stamped_display import Stamped, StampedDisplay  # noqa: E402


def stamped_at(event: dict) -> float:
    """The motion's compositor stamp (32-bit ms of CLOCK_MONOTONIC) on `time.monotonic()`'s
    scale: the latest time at or before its receipt ("at") with those low 32 bits."""
    received = round(event["at"] * 1000)
    return (received - (received - event["time"]) % 2**32) / 1000


class WindowPointer:
    """reader() → (x, y) of the last motion the window received; `display` makes the stroke's
    60 Hz frames from the motions' own times; `warp` puts the pointer somewhere first."""

    def __init__(self, desktop):
        self._desktop = desktop
        self._file = open(desktop.events_path, "rb")
        self._file.seek(0, 2)  # what came before is not this reader's
        self._pending = b""
        self.motions: list[Stamped] = []
        self._compression(False)

    def _compression(self, on: bool, timeout: float = 5.0) -> None:
        """The window reads every motion (off) or merges those queued (on, its default: the other
        rows send bursts of thousands); returns once it says so (tests/kde/recorder.py)."""
        mode = Path(str(self._desktop.events_path) + ".compression")
        mode.unlink(missing_ok=True)
        os.kill(self._desktop.processes["recorder"].pid, signal.SIGUSR2 if on else signal.SIGUSR1)
        wanted = "on" if on else "off"
        deadline = time.monotonic() + timeout
        while not mode.exists() or mode.read_text() != wanted:
            if time.monotonic() > deadline:
                raise RuntimeError(f"the recorder window did not turn motion compression {wanted}")
            time.sleep(0.005)

    def _read(self) -> list[Stamped]:
        self._pending += self._file.read()
        *lines, self._pending = self._pending.split(b"\n")
        for line in lines:
            event = json.loads(line) if line.strip() else {}
            if event.get("type") == "motion":
                self.motions.append((stamped_at(event), round(event["x"]), round(event["y"])))
        return self.motions

    def __call__(self) -> tuple[int, int]:
        motions = self._read()
        if not motions:
            raise RuntimeError("the window has seen no pointer motion yet")
        return motions[-1][1:]

    def display(self, read_pointer, rate: float) -> StampedDisplay:
        return StampedDisplay(self._read, read_pointer, rate)

    def warp(self, x: int, y: int, timeout: float = 5.0) -> None:
        """sway's own `seat - cursor set` (a compositor move, not the server's), once the window
        has seen the pointer there."""
        result = self._desktop.swaymsg("seat", "-", "cursor", "set", str(x), str(y))
        if result.returncode != 0:
            raise RuntimeError(f"swaymsg seat - cursor set: {result.stdout}{result.stderr}")
        deadline = time.monotonic() + timeout
        while not self._read() or self.motions[-1][1:] != (x, y):
            if time.monotonic() > deadline:
                raise RuntimeError(f"the window did not see the pointer go to {(x, y)}: "
                                   f"{self.motions[-1:] or 'no motion'}")
            time.sleep(0.005)

    def close(self) -> None:
        self._file.close()
        self._compression(True)
