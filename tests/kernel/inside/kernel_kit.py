"""What the scenarios running inside the User-Mode Linux kernel share (tests/kernel/README in
docs/testing.md): finding a device the server made, reading how udev classified it, what
libinput makes of it (`libinput debug-events`), its raw events and key state (python-evdev),
and a results file the host-side tests read.

Runs as a child of the UML's init (tests/kernel/init.sh): real kernel, real udev, real
libinput, the repository's own server binary and Python venv through the host's file system.
Timing inside UML is slow and uneven (each system call traps), so everything here waits for a
condition with a generous deadline and asserts values, never durations.
"""
from __future__ import annotations

import fcntl
import json
import os
import re
import signal
import struct
import subprocess
import sys
import threading
import time
import traceback
from contextlib import contextmanager
from pathlib import Path

import evdev

REPO = Path(os.environ.get("GP_REPO", Path(__file__).resolve().parents[3]))
OUT = Path(os.environ.get("GP_OUT", "."))
sys.path.insert(0, str(REPO / "tests"))
sys.path.insert(0, str(REPO / "tests" / "control"))

EVIOCSCLOCKID = 0x400445A0  # _IOW('E', 0xa0, int)

# libinput's complaints about a device: each is a failure for a device we make.
LIBINPUT_WARNINGS = re.compile(r"kernel bug|jump|Invalid fake finger|event processing lagging|client bug", re.I)
# ...except libinput judging its own reader's scheduling ("event processing lagging behind by
# 23ms", "timer … scheduled expiry is in the past", both ending "your system is too slow"): the
# kernel stamps each event when the backend writes it, so these say that `libinput
# debug-events` inside the emulated kernel got the CPU late (seen with other builds on the 2
# cores), not that the device misbehaved. They stay in the segment's libinput lines.
HOST_TOO_SLOW = re.compile(r"your system is too slow", re.I)


def wait_until(condition, timeout: float, what: str, step: float = 0.02):
    """Polls `condition()` until it returns something truthy; raises naming `what` after `timeout` s."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(step)


def wait_quiet(count, quiet: float, timeout: float) -> None:
    """Waits until `count()` has not changed for `quiet` s (at most `timeout` s)."""
    deadline = time.monotonic() + timeout
    seen, since = count(), time.monotonic()
    while time.monotonic() < deadline:
        time.sleep(0.05)
        now = count()
        if now != seen:
            seen, since = now, time.monotonic()
        elif time.monotonic() - since >= quiet:
            return


def event_node(name: str, timeout: float = 20.0) -> str:
    """The /dev/input/eventN of the input device called `name`, once udev has processed it."""
    def find():
        text = Path("/proc/bus/input/devices").read_text()
        for block in text.split("\n\n"):
            if f'N: Name="{name}"' in block:
                match = re.search(r"\bevent(\d+)\b", block)
                if match and Path(f"/dev/input/event{match.group(1)}").exists():
                    return f"/dev/input/event{match.group(1)}"
        return None

    node = wait_until(find, timeout, f"input device {name!r}")
    subprocess.run(["udevadm", "settle", "--timeout=20"], check=False)
    return node


def device_gone(name: str, timeout: float = 20.0) -> None:
    wait_until(lambda: f'N: Name="{name}"' not in Path("/proc/bus/input/devices").read_text(),
               timeout, f"input device {name!r} to go")


def udev_properties(node: str) -> dict[str, str]:
    text = subprocess.run(["udevadm", "info", "--query=property", f"--name={node}"],
                          capture_output=True, text=True, check=True).stdout
    return dict(line.split("=", 1) for line in text.splitlines() if "=" in line)


class Libinput:
    """`libinput debug-events` on one device, its lines collected as they come."""

    def __init__(self, node: str, *flags: str):
        self.lines: list[str] = []
        # The raw events libinput read, for a test to show when libinput complains.
        self.raw = Evdev(node)
        self._lock = threading.Lock()
        self.process = subprocess.Popen(
            ["stdbuf", "-oL", "libinput", "debug-events", "--device", node, *flags],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self.wait_for(r"DEVICE_ADDED", 20, "libinput to add the device")

    def _read(self) -> None:
        for line in self.process.stdout:
            with self._lock:
                self.lines.append(line.rstrip("\n"))

    def snapshot(self) -> list[str]:
        with self._lock:
            return list(self.lines)

    def count(self, pattern: str) -> int:
        rx = re.compile(pattern)
        return sum(1 for line in self.snapshot() if rx.search(line))

    def wait_for(self, pattern: str, timeout: float, what: str | None = None, count: int = 1) -> None:
        wait_until(lambda: self.count(pattern) >= count, timeout, what or f"libinput line /{pattern}/ ×{count}")

    def settle(self, quiet: float = 0.6, timeout: float = 10.0) -> None:
        """Waits until libinput has printed nothing new for `quiet` s (its own timers — tap,
        scroll stop — have run)."""
        wait_quiet(lambda: len(self.snapshot()), quiet, timeout)

    def stop(self) -> list[str]:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._reader.join(timeout=5)
        self.raw.close()
        return self.snapshot()

    def complaints(self) -> dict:
        """libinput's warnings, with the raw events it read when there are any."""
        found = warnings(self.snapshot())
        return {"warnings": found, "raw": self.raw.snapshot() if found else []}


class Evdev:
    """The raw events of one device (type, code, value, kernel time), read as they come."""

    def __init__(self, node: str):
        self.device = evdev.InputDevice(node)
        self.events: list[tuple[int, int, int, float]] = []
        self.gone = threading.Event()
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        try:
            for event in self.device.read_loop():
                with self._lock:
                    self.events.append((event.type, event.code, event.value, event.timestamp()))
        except OSError:
            self.gone.set()

    def snapshot(self) -> list[tuple[int, int, int, float]]:
        with self._lock:
            return list(self.events)

    def wait_for(self, type_: int, code: int, value: int | None = None, timeout: float = 10.0, after: int = 0):
        def seen():
            return any(e[0] == type_ and e[1] == code and (value is None or e[2] == value)
                       for e in self.snapshot()[after:])
        wait_until(seen, timeout, f"evdev event {type_}/{code}={value}")

    def settle(self, quiet: float = 0.4, timeout: float = 10.0) -> None:
        """Waits until no new event has come for `quiet` s (the backend's thread has written
        what the server handed it)."""
        wait_quiet(lambda: len(self.snapshot()), quiet, timeout)

    def stamp_monotonic(self) -> Evdev:
        """Has the kernel stamp this reader's events on CLOCK_MONOTONIC, libinput's and
        time.monotonic()'s clock, not the realtime clock evdev stamps by default (python-evdev
        reads the stamps of the clock its file descriptor asks for)."""
        fcntl.ioctl(self.device.fd, EVIOCSCLOCKID, struct.pack("i", time.CLOCK_MONOTONIC))
        return self

    def active_keys(self) -> list[int]:
        """EVIOCGKEY: the keys and buttons the kernel holds down on this device now."""
        return sorted(self.device.active_keys())

    def close(self) -> None:
        try:
            self.device.close()
        except OSError:
            pass


def sums(events, type_: int, codes: dict[str, int]) -> dict[str, int]:
    return {name: sum(e[2] for e in events if e[0] == type_ and e[1] == code) for name, code in codes.items()}


def key_changes(events) -> list[tuple[str, int]]:
    """Key and button changes in order, by name (BTN_LEFT, KEY_A…)."""
    out = []
    for type_, code, value, _ in events:
        if type_ == evdev.ecodes.EV_KEY:
            name = evdev.ecodes.KEY.get(code) or evdev.ecodes.BTN.get(code) or str(code)
            out.append((name if isinstance(name, str) else name[0], value))
    return out


def libinput_motion(lines: list[str]) -> dict[str, float]:
    """Sums of POINTER_MOTION: accelerated dx/dy and libinput's unaccelerated ones."""
    total = {"dx": 0.0, "dy": 0.0, "udx": 0.0, "udy": 0.0, "events": 0}
    number = r"([-+]?[\d.]+)"
    rx = re.compile(rf"POINTER_MOTION\s.*?\s{number}/\s*{number}\s*\(\s*{number}/\s*{number}\s*\)")
    for line in lines:
        match = rx.search(line)
        if match:
            dx, dy, udx, udy = map(float, match.groups())
            total["dx"] += dx
            total["dy"] += dy
            total["udx"] += udx
            total["udy"] += udy
            total["events"] += 1
    return total


def warnings(lines: list[str]) -> list[str]:
    return [line for line in lines if LIBINPUT_WARNINGS.search(line) and not HOST_TOO_SLOW.search(line)]


def glide(pad, start: dict, steps: list, frame: float = 0.008) -> dict:
    """Moves the fingers down at `start` by each step in turn, one message per `frame` s —
    like touch_input.Pad.glide, but each move's `t` is on the finger's own schedule
    (first `t` + k·frame), as a phone stamps touches: a client the (slow, trapping) UML held
    up sends late, never with squeezed times. Returns where the fingers end."""
    position = dict(start)
    t0 = pad.t()
    begin = time.monotonic()
    for k, step in enumerate(steps, 1):
        pause = begin + k * frame - time.monotonic()
        if pause > 0:
            time.sleep(pause)
        t = pad.t(t0 + k * frame * 1000)
        batch = []
        for i, (dx, dy) in step.items():
            x, y = position[i]
            position[i] = (x + dx, y + dy)
            batch.append({"type": "move", "id": i, "x": round(position[i][0], 3), "y": round(position[i][1], 3),
                          "t": t, "pointerType": "touch"})
        pad.send(batch)
    return position


def stroke(pad, start: dict, steps: list) -> dict:
    """Fingers down at `start`, moved by `steps` (`glide`), lifted; returns once the server
    has handled all of it. Returns where the fingers lifted."""
    pad.down(start)
    end = glide(pad, start, steps)
    pad.up(end)
    pad.sync()
    return end


class Results:
    """Segments of a scenario, each a dict the host-side tests read; an exception in one is
    recorded in it (with its traceback) and the scenario goes on with the next."""

    def __init__(self, name: str):
        self.name = name
        self.data: dict[str, dict] = {}

    @contextmanager
    def segment(self, name: str):
        entry: dict = {}
        self.data[name] = entry
        start = time.monotonic()
        print(f"-- {name}", flush=True)
        try:
            yield entry
        except Exception:  # noqa: BLE001 — recorded for the host-side test to fail with
            entry["error"] = traceback.format_exc()
            print(entry["error"], flush=True)
        finally:
            entry["seconds"] = round(time.monotonic() - start, 2)
            self.write()

    def write(self) -> None:
        path = OUT / f"{self.name}.json"
        path.with_suffix(".tmp").write_text(json.dumps(self.data, indent=1))
        path.with_suffix(".tmp").replace(path)


# Servers inside see no desktop session: the backend asked for is the one that runs.
NO_SESSION = {"DISPLAY": None, "WAYLAND_DISPLAY": None}


def serve(*flags: str):
    """A real `gesturepad serve` on the UML's loopback (testkit.Server), with `flags`."""
    from testkit import Server

    return Server(extra=list(flags), env=NO_SESSION)
