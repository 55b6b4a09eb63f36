"""The ground truth of the real-compositor suites (tests/kde, tests/sway): what tests/kde's
recorder.py — a fullscreen GTK 3 window, one JSON line per event it receives — wrote, read
back, and the helpers their tests judge it with."""
from __future__ import annotations

import json
import shutil
import signal
import subprocess
import time
from pathlib import Path

SYSTEM_PYTHON = "/usr/bin/python3"
RECORDER = Path(__file__).resolve().parent / "kde" / "recorder.py"


def gtk3_missing() -> list[str]:
    """The recorder's needs this machine lacks: GTK 3 for Debian's own Python."""
    probe = subprocess.run([SYSTEM_PYTHON, "-c", "import gi; gi.require_version('Gtk', '3.0'); "
                            "from gi.repository import Gtk"], capture_output=True, text=True)
    return [] if probe.returncode == 0 else ["python3-gi / gir1.2-gtk-3.0 for /usr/bin/python3"]


class SessionError(RuntimeError):
    pass


def wait_until(predicate, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.02)
    raise SessionError(f"timed out after {timeout:.0f} s waiting for {what}")


class RecorderLog:
    """The recorder's lines at `events_path`, read from where the last call stopped."""

    events_path: Path
    _read = 0

    def _all(self) -> list[dict]:
        lines = self.events_path.read_text().splitlines()
        return [json.loads(line) for line in lines if line.strip()]

    def focus_count(self) -> int:
        """How many times the window got keyboard focus ("ready" lines)."""
        return sum(1 for e in self._all() if e["type"] == "ready")

    def events(self) -> list[dict]:
        """The events since the last call (the window's focus marks left out)."""
        everything = self._all()
        fresh = everything[self._read:]
        self._read = len(everything)
        return [e for e in fresh if e["type"] != "ready"]

    def wait_events(self, predicate, timeout: float = 5.0, quiet: float = 0.3) -> list[dict]:
        """Events since the last call once `predicate(events)` holds and nothing came for
        `quiet` s (or the timeout ran out: the caller's assertion says what was missing)."""
        deadline = time.monotonic() + timeout
        seen = self._read
        gathered: list[dict] = []
        last_change = time.monotonic()
        while time.monotonic() < deadline:
            everything = self._all()
            if len(everything) != seen:
                gathered += [e for e in everything[seen:] if e["type"] != "ready"]
                seen = len(everything)
                last_change = time.monotonic()
            elif predicate(gathered) and time.monotonic() - last_change >= quiet:
                break
            time.sleep(0.02)
        self._read = seen
        return gathered

    def wait_first(self, predicate, timeout: float = 5.0) -> list[dict]:
        """Events since the last call as soon as `predicate(events)` holds (nothing more waited
        for: events that keep coming, as a coast's, do not delay it)."""
        deadline = time.monotonic() + timeout
        gathered: list[dict] = []
        while time.monotonic() < deadline:
            everything = self._all()
            gathered += [e for e in everything[self._read:] if e["type"] != "ready"]
            self._read = len(everything)
            if predicate(gathered):
                break
            time.sleep(0.005)
        return gathered


class HeadlessSession(RecorderLog):
    """A compositor session's processes, each logging to `root`/NAME.log, ended by PID."""

    root: Path
    env: dict[str, str]
    processes: dict[str, subprocess.Popen]

    def _spawn(self, name: str, args: list[str], extra: dict | None = None) -> None:
        log = open(self.root / f"{name}.log", "ab")
        self.processes[name] = subprocess.Popen(args, env={**self.env, **(extra or {})}, stdout=log,
                                                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=self.root)

    def logs(self) -> str:
        return "\n".join(f"--- {path.name}\n{path.read_text(errors='replace')[-2000:]}"
                         for path in sorted(self.root.glob("*.log")))

    def close(self) -> None:
        """Ends every process (SIGTERM, then SIGKILL after 5 s) and removes the folder."""
        for process in reversed(list(self.processes.values())):
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in self.processes.values():
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        shutil.rmtree(self.root, ignore_errors=True)


# -- judging the events -----------------------------------------------------------------------------
def keys(events):
    return [(e["type"], e["keyval"]) for e in events if e["type"].startswith("key")]


def typed(events) -> str:
    return "".join(e["unicode"] for e in events if e["type"] == "key-down" and e["unicode"])


def buttons(events):
    return [(e["type"], e["button"]) for e in events if e["type"].startswith("button")]


def last_position(events):
    moves = [e for e in events if e["type"] == "motion"]
    return (moves[-1]["x"], moves[-1]["y"]) if moves else None


def scrolled(events):
    smooth = [e for e in events if e["type"] == "scroll"]
    return sum(e["dx"] for e in smooth), sum(e["dy"] for e in smooth), smooth


def stroke(touchpad, start, steps, frame: float | None = None):
    """Fingers down at `start`, moved by `steps` (one per `frame` s: touch_input's default), up."""
    touchpad.down(start)
    touchpad.up(touchpad.glide(start, steps) if frame is None else touchpad.glide(start, steps, frame=frame))
    touchpad.sync()
