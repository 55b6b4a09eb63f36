"""A headless sway nobody else sees, for tests/sway: the wlroots compositor the `wlroots`
backend drives, with a real Wayland client focused as ground truth.

`HeadlessSway()` starts, in order (under a second):
  1. a temp folder (0755) with a runtime folder owned by `nobody` (0700) and sway's config
     (one 1280×800 headless output);
  2. sway 1.7 as `nobody` (it refuses to run as root: "Unable to drop root"), through
     `setpriv --reuid=65534 --regid=65534 --clear-groups`, headless with the pixman renderer
     and no libinput devices — the seat has no keyboard until the server's virtual one;
  3. the ground truth: tests/kde's recorder.py, a fullscreen GTK 3 window (as root: root
     reaches nobody's socket), writing what it receives as JSON lines; its "ready" comes with
     keyboard focus, once a keyboard exists. Its libwayland logs every event it receives
     (WAYLAND_DEBUG=client, recorder.log): what GTK does not pass on (an unmatched release)
     is read there.

`close()` ends every process by PID and removes the folder; `stop_compositor()` /
`start_compositor()` end and start sway alone (the compositor going away under a server).
"""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
RECORDER = HERE.parent / "kde" / "recorder.py"
SYSTEM_PYTHON = "/usr/bin/python3"
NOBODY = 65534
PROGRAMS = {"sway": "/usr/bin/sway", "swaymsg": "/usr/bin/swaymsg", "setpriv": "/usr/bin/setpriv"}
SOCKET = "wayland-gesturepad"


def missing_programs() -> list[str]:
    """What the session needs and this machine lacks (setup.sh --test installs them)."""
    missing = [name for name, path in PROGRAMS.items() if not os.access(path, os.X_OK)]
    probe = subprocess.run([SYSTEM_PYTHON, "-c", "import gi; gi.require_version('Gtk', '3.0'); "
                            "from gi.repository import Gtk"], capture_output=True, text=True)
    if probe.returncode != 0:
        missing.append("python3-gi / gir1.2-gtk-3.0 for /usr/bin/python3")
    return missing


class SwayError(RuntimeError):
    pass


def wait_until(predicate, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.02)
    raise SwayError(f"timed out after {timeout:.0f} s waiting for {what}")


class HeadlessSway:
    """One headless sway; `env` is what a client of it needs."""

    def __init__(self, timeout: float = 20.0):
        self.root = Path(tempfile.mkdtemp(prefix="gesturepad-sway-"))
        self.root.chmod(0o755)
        self.processes: dict[str, subprocess.Popen] = {}
        self.events_path = self.root / "recorder.jsonl"
        self.events_path.touch()
        self._read = 0
        try:
            self._start(timeout)
        except BaseException:
            self.close()
            raise

    def _start(self, timeout: float) -> None:
        runtime = self.root / "runtime"
        runtime.mkdir(mode=0o700)
        os.chown(runtime, NOBODY, NOBODY)
        self.config = self.root / "config"
        self.config.write_text("output HEADLESS-1 resolution 1280x800 position 0 0\n"
                               "default_border none\nfocus_follows_mouse no\n")
        self.config.chmod(0o644)
        self.env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8",
                    "XDG_RUNTIME_DIR": str(runtime), "HOME": str(self.root), "XDG_SESSION_TYPE": "wayland"}
        self.start_compositor(timeout)
        self.start_recorder(timeout)

    def start_recorder(self, timeout: float = 20.0) -> None:
        """Starts the recorder window (again: it ends with its compositor); returns once sway
        has mapped and focused it."""
        self._spawn("recorder", [SYSTEM_PYTHON, str(RECORDER), str(self.events_path)],
                    {"GDK_BACKEND": "wayland", "WAYLAND_DEBUG": "client"})
        recorder = self.processes["recorder"].pid
        wait_until(lambda: self._focused_pid() == recorder, timeout, "the recorder window to be mapped and focused")

    # -- the compositor -----------------------------------------------------------------------------
    def start_compositor(self, timeout: float = 20.0) -> None:
        """Starts sway as nobody; returns once its Wayland socket answers."""
        runtime = Path(self.env["XDG_RUNTIME_DIR"])
        self._spawn("sway", [PROGRAMS["setpriv"], f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups",
                             PROGRAMS["sway"], "-c", str(self.config)],
                    {"WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman", "WLR_LIBINPUT_NO_DEVICES": "1",
                     "WAYLAND_DISPLAY": ""})
        wait_until(lambda: self._ipc_socket() is not None and (runtime / "wayland-1").exists(), timeout,
                   "sway's sockets")
        self.env["WAYLAND_DISPLAY"] = "wayland-1"
        self.env["SWAYSOCK"] = str(self._ipc_socket())
        wait_until(lambda: self.swaymsg("-t", "get_version").returncode == 0, timeout, "sway's IPC")

    def stop_compositor(self) -> None:
        """Ends sway (SIGTERM): every client's connection closes, and the recorder ends."""
        process = self.processes.pop("sway")
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=10)
        self.processes.pop("recorder").wait(timeout=10)
        for leftover in Path(self.env["XDG_RUNTIME_DIR"]).glob("wayland-1*"):
            leftover.unlink(missing_ok=True)
        for leftover in Path(self.env["XDG_RUNTIME_DIR"]).glob("sway-ipc.*"):
            leftover.unlink(missing_ok=True)

    def _ipc_socket(self) -> Path | None:
        sockets = sorted(Path(self.env["XDG_RUNTIME_DIR"]).glob("sway-ipc.*.sock"))
        return sockets[-1] if sockets else None

    def swaymsg(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([PROGRAMS["swaymsg"], *args], capture_output=True, text=True, env=self.env, timeout=10)

    def _focused_pid(self) -> int | None:
        result = self.swaymsg("-t", "get_tree")
        if result.returncode != 0:
            return None

        def walk(node):
            if node.get("focused") and node.get("pid"):
                return node["pid"]
            for child in node.get("nodes", []) + node.get("floating_nodes", []):
                found = walk(child)
                if found:
                    return found
            return None

        return walk(json.loads(result.stdout))

    def _spawn(self, name: str, args: list[str], extra: dict | None = None) -> None:
        log = open(self.root / f"{name}.log", "ab")
        self.processes[name] = subprocess.Popen(args, env={**self.env, **(extra or {})}, stdout=log,
                                                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=self.root)

    # -- what the window received -------------------------------------------------------------------
    def _all(self) -> list[dict]:
        lines = self.events_path.read_text().splitlines()
        return [json.loads(line) for line in lines if line.strip()]

    def focus_count(self) -> int:
        """How many times the window got keyboard focus (a keyboard appeared for it)."""
        return sum(1 for e in self._all() if e["type"] == "ready")

    def events(self) -> list[dict]:
        """The events since the last call (the window's focus marks left out)."""
        everything = self._all()
        fresh = everything[self._read:]
        self._read = len(everything)
        return [e for e in fresh if e["type"] != "ready"]

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

    def pointer_buttons(self) -> list[tuple[int, int]]:
        """Every wl_pointer.button event the window received, (evdev button, state), in order."""
        text = (self.root / "recorder.log").read_text(errors="replace")
        return [(int(button), int(state)) for button, state in
                re.findall(r"wl_pointer@\d+\.button\(\d+, \d+, (\d+), (\d+)\)", text)]

    def logs(self) -> str:
        return "\n".join(f"--- {path.name}\n{path.read_text(errors='replace')[-2000:]}"
                         for path in sorted(self.root.glob("*.log")))

    def close(self) -> None:
        for process in reversed(list(self.processes.values())):
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in self.processes.values():
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if not os.environ.get("SWAY_KEEP"):
            shutil.rmtree(self.root, ignore_errors=True)
