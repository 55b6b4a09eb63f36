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
     keyboard focus, once a keyboard exists.

`HeadlessSway(tiled=True)` starts two recorder windows side by side instead (where a grab
shows: motion over one window going to the other). `close()` ends every process by PID and
removes the folder; `stop_compositor()` /
`start_compositor()` end and start sway alone (the compositor going away under a server).
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import tempfile
from pathlib import Path

from recorder_events import RECORDER, SYSTEM_PYTHON, HeadlessSession, RecorderLog, gtk3_missing, wait_until

NOBODY = 65534
PROGRAMS = {"sway": "/usr/bin/sway", "swaymsg": "/usr/bin/swaymsg", "setpriv": "/usr/bin/setpriv"}
# sway's settings: headless, the pixman renderer, no input devices (the server's are virtual).
HEADLESS = {"WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman", "WLR_LIBINPUT_NO_DEVICES": "1"}


def missing_programs() -> list[str]:
    """What the session needs and this machine lacks (setup.sh --test installs them)."""
    return [name for name, path in PROGRAMS.items() if not os.access(path, os.X_OK)] + gtk3_missing()


class HeadlessSway(HeadlessSession):
    """One headless sway; `env` is what a client of it needs."""

    def __init__(self, timeout: float = 20.0, tiled: bool = False, runtime_parent: Path | None = None,
                 compositor_env: dict[str, str] | None = None):
        """`runtime_parent`: where the runtime folder goes (a tmpfs inside the kernel tests:
        sockets cannot live on hostfs); `compositor_env` replaces sway's headless settings
        (the kernel tests: its libinput backend too)."""
        self.tiled = tiled
        self.runtime_parent = runtime_parent
        self.compositor_env = compositor_env or HEADLESS
        self.root = Path(tempfile.mkdtemp(prefix="gesturepad-sway-"))
        self.right = RecorderLog()
        self.right.events_path = self.root / "right.jsonl"
        self.right.events_path.touch()
        self.root.chmod(0o755)
        self.processes: dict[str, subprocess.Popen] = {}
        self.events_path = self.root / "recorder.jsonl"
        self.events_path.touch()
        try:
            self._start(timeout)
        except BaseException:
            self.close()
            raise

    def _start(self, timeout: float) -> None:
        runtime = Path(tempfile.mkdtemp(prefix="gesturepad-sway-", dir=self.runtime_parent)) if self.runtime_parent \
            else self.root / "runtime"
        runtime.mkdir(mode=0o700, exist_ok=True)
        runtime.chmod(0o700)
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
        has mapped and focused it. With `tiled`, a second one beside it (`right`, events in
        right.jsonl): sway tiles them, the first on the left half, the second on the right."""
        extra = ["tiled"] if self.tiled else []
        self._spawn("recorder", [SYSTEM_PYTHON, str(RECORDER), str(self.events_path), *extra],
                    {"GDK_BACKEND": "wayland", "NO_AT_BRIDGE": "1"})
        recorder = self.processes["recorder"].pid
        wait_until(lambda: self._focused_pid() == recorder, timeout, "the recorder window to be mapped and focused")
        if self.tiled:
            self._spawn("recorder-right", [SYSTEM_PYTHON, str(RECORDER), str(self.right.events_path), *extra],
                        {"GDK_BACKEND": "wayland", "NO_AT_BRIDGE": "1"})
            right = self.processes["recorder-right"].pid
            wait_until(lambda: self._focused_pid() == right, timeout, "the right window to be mapped and focused")

    # -- the compositor -----------------------------------------------------------------------------
    def start_compositor(self, timeout: float = 20.0) -> None:
        """Starts sway as nobody; returns once its Wayland socket answers."""
        runtime = Path(self.env["XDG_RUNTIME_DIR"])
        self._spawn("sway", [PROGRAMS["setpriv"], f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups",
                             PROGRAMS["sway"], "-c", str(self.config)],
                    {**self.compositor_env, "WAYLAND_DISPLAY": ""})
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
        for name in ("recorder", "recorder-right"):
            if name in self.processes:
                self.processes.pop(name).wait(timeout=10)
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
