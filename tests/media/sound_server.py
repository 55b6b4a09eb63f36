"""A private PipeWire for a test (the computer's own volume, issue 44): `pipewire` and
`wireplumber` in a runtime directory of their own, on the test's session bus, with one null
output ("gp-test-sink": no sound card needed) as the default. `wpctl` against it is what the
server runs, so the test reads and sets the volume the same way."""
from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

PROGRAMS = ("pipewire", "wireplumber", "wpctl", "pw-cli")
SINK = ("{ factory.name=support.null-audio-sink node.name=gp-test-sink media.class=Audio/Sink "
        "object.linger=true audio.position=[FL FR] }")


def missing() -> list[str]:
    return [p for p in PROGRAMS if not shutil.which(p)]


class SoundServer:
    """`with SoundServer(bus) as env:` — `env` is the environment of a process on it."""

    def __init__(self, bus: str):
        self.folder = Path(tempfile.mkdtemp(prefix="gesturepad-pipewire-"))
        runtime = self.folder / "runtime"
        runtime.mkdir(mode=0o700)
        self.env = dict(os.environ, XDG_RUNTIME_DIR=str(runtime), DBUS_SESSION_BUS_ADDRESS=bus,
                        XDG_STATE_HOME=str(self.folder / "state"), XDG_CONFIG_HOME=str(self.folder / "config"))
        self.env.pop("PIPEWIRE_RUNTIME_DIR", None)
        self.env.pop("PIPEWIRE_REMOTE", None)
        self.processes: list[subprocess.Popen] = []

    def __enter__(self) -> dict:
        log = open(self.folder / "log", "w")
        self.processes.append(subprocess.Popen(["pipewire"], env=self.env, stdout=log, stderr=log))
        self._wait(lambda: (Path(self.env["XDG_RUNTIME_DIR"]) / "pipewire-0").exists(), "pipewire's socket")
        self.processes.append(subprocess.Popen(["wireplumber"], env=self.env, stdout=log, stderr=log))
        subprocess.run(["pw-cli", "create-node", "adapter", SINK], env=self.env, capture_output=True, timeout=10)
        self._wait(lambda: self.volume() is not None, "the null output as the default")
        return self.env

    def __exit__(self, *exc) -> None:
        for process in reversed(self.processes):
            process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
        shutil.rmtree(self.folder, ignore_errors=True)

    def wpctl(self, *args: str) -> str:
        return subprocess.run(["wpctl", *args], env=self.env, capture_output=True, text=True, timeout=5).stdout

    def volume(self) -> tuple[float, bool] | None:
        """(volume, muted) of the default output, as `wpctl get-volume` prints it."""
        words = self.wpctl("get-volume", "@DEFAULT_AUDIO_SINK@").split()
        if len(words) < 2 or words[0] != "Volume:":
            return None
        return float(words[1]), "[MUTED]" in words

    def _wait(self, predicate, what: str, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > deadline:
                raise RuntimeError(f"{what} did not come: {(self.folder / 'log').read_text(errors='replace')[-2000:]}")
            time.sleep(0.05)
