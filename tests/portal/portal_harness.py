"""A private D-Bus session bus with the fake desktop portal on it (fake_portal.py), for
tests/portal.

`PrivateBus` runs `dbus-daemon --print-address` with a session configuration of its own (in
place of `--session`'s): a session bus that can activate nothing, so the desktop's real xdg-desktop-portal (if this
machine has one) can never answer in place of the fake. `FakePortal` runs fake_portal.py on it
and reads back what it recorded: every call, and the Response / Closed signals it emitted.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from testkit import dbus_config

HERE = Path(__file__).resolve().parent

def dbus_daemon_path() -> str | None:
    return shutil.which("dbus-daemon")


class PrivateBus:
    """A session `dbus-daemon` of the test's own; `address` is its DBUS_SESSION_BUS_ADDRESS.

    Run with `--nofork` as a child in its own process group rather than `--fork`: a forked
    daemon is re-parented to PID 1, which in a container may never reap it."""

    def __init__(self):
        self.config = tempfile.NamedTemporaryFile("w", prefix="gesturepad-bus-", suffix=".conf", delete=False)
        self.config.write(dbus_config("session", "unix:tmpdir=/tmp"))
        self.config.close()
        self.process = subprocess.Popen(
            [dbus_daemon_path() or "dbus-daemon", f"--config-file={self.config.name}", "--nofork",
             "--print-address=1"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
        self.address = self.process.stdout.readline().strip()
        if not self.address:
            self.process.kill()
            raise RuntimeError(f"dbus-daemon did not start: {self.process.stderr.read()}")

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=3)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        os.unlink(self.config.name)


class FakePortal:
    """fake_portal.py on `bus`; `options` are its command-line flags."""

    def __init__(self, bus: PrivateBus, *options: str):
        self.log = Path(tempfile.NamedTemporaryFile(prefix="gesturepad-portal-", suffix=".jsonl", delete=False).name)
        env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS=bus.address)
        self.process = subprocess.Popen(
            [sys.executable, str(HERE / "fake_portal.py"), "--log", str(self.log), *options],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
            start_new_session=True)
        ready = self.process.stdout.readline().strip()
        if ready != "ready":
            self.process.kill()
            raise RuntimeError(f"the fake portal did not start: {ready} {self.process.stderr.read()}")

    # -- what it recorded ------------------------------------------------------------------------
    def entries(self) -> list[dict]:
        return [json.loads(line) for line in self.log.read_text().splitlines() if line.strip()]

    def calls(self, name: str | None = None) -> list[dict]:
        """Recorded calls (optionally of one member, e.g. "NotifyPointerMotion"), in order."""
        return [e for e in self.entries() if "call" in e and (name is None or e["call"] == name)]

    def notifies(self) -> list[tuple]:
        """Every Notify call as (member, values after session and options), in order."""
        return [(e["call"], *e["args"][2:]) for e in self.calls() if e["call"].startswith("Notify")]

    def delivered(self) -> list[tuple]:
        """With --forward-delay: the Notify calls as passed on to the desktop, in that order."""
        return [(e["delivered"], *e["args"]) for e in self.entries() if "delivered" in e]

    def session_flow(self) -> list[str]:
        """The session calls and Response signals, in order (Properties reads left out)."""
        flow = []
        for entry in self.entries():
            if entry.get("call") in ("CreateSession", "SelectDevices", "Start", "Session.Close"):
                flow.append(entry["call"])
            elif entry.get("event"):
                flow.append(f"{entry['event']}({entry.get('code', '')})")
        return flow

    def wait_for(self, predicate, timeout: float = 3.0):
        """Polls the log until `predicate(self)` is truthy; returns its value (or the last falsy one)."""
        deadline = time.monotonic() + timeout
        while True:
            value = predicate(self)
            if value or time.monotonic() > deadline:
                return value
            time.sleep(0.01)

    def settle(self, quiet: float = 0.3, timeout: float = 5.0) -> list[dict]:
        """Waits until nothing new is recorded for `quiet` seconds; returns the entries."""
        deadline = time.monotonic() + timeout
        count, since = -1, time.monotonic()
        while time.monotonic() < deadline:
            now_count = len(self.entries())
            if now_count != count:
                count, since = now_count, time.monotonic()
            elif time.monotonic() - since >= quiet:
                break
            time.sleep(0.02)
        return self.entries()

    # -- commands --------------------------------------------------------------------------------
    def command(self, line: str) -> None:
        """`close` (Session.Closed on every started session), `start-response N`."""
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline().strip()
        assert answer == f"done {line.split()[0]}", f"the fake portal answered {answer!r} to {line!r}"

    def close(self) -> None:
        if self.process.poll() is None:
            try:
                self.process.stdin.close()
                self.process.wait(timeout=3)
            except (subprocess.TimeoutExpired, OSError):
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self.log.unlink(missing_ok=True)
