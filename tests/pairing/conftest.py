"""Fixtures for the notification tests: a private session bus per test (tests/portal's
PrivateBus: it activates nothing, so the desktop's own notification server never answers) with
python-dbusmock's `notification_daemon` template on it as the notification server, and real
`gesturepad serve` processes pointed at that bus.

Skipped, with the reason, when dbus-daemon or python-dbusmock is missing — unless
GESTUREPAD_REQUIRE_PORTAL=1 (`make test`: the D-Bus tests must run) makes that a failure.
"""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "portal"))

from testkit import binary  # noqa: E402

REQUIRED = os.environ.get("GESTUREPAD_REQUIRE_PORTAL") == "1"


def missing() -> str:
    """Why these tests cannot run here ('' when they can)."""
    try:
        import dbus  # noqa: F401  (dbus-python, python-dbusmock's)
        import dbusmock  # noqa: F401
    except ImportError as error:
        return f"{error} (pip install -r tests/requirements.txt)"
    from portal_harness import dbus_daemon_path
    if not dbus_daemon_path():
        return "dbus-daemon is not installed (apt-get install dbus)"
    if not binary().exists():
        return f"{binary()} not built (swift build)"
    return ""


class NotificationServer:
    """python-dbusmock's notification_daemon on `bus`: records every call; `invoke` presses a
    button of a notification (emits ActionInvoked, as a desktop does)."""

    def __init__(self, bus):
        self.bus = bus
        env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS=bus.address)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "dbusmock", "--session", "--template", "notification_daemon"],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
        import dbus as dbus_python
        self.connection = dbus_python.bus.BusConnection(bus.address)
        deadline = time.monotonic() + 10
        while not self.connection.name_has_owner("org.freedesktop.Notifications"):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"dbusmock did not start: {self.process.stderr.read().decode(errors='replace')}")
            time.sleep(0.05)
        proxy = self.connection.get_object("org.freedesktop.Notifications", "/org/freedesktop/Notifications")
        self.mock = dbus_python.Interface(proxy, "org.freedesktop.DBus.Mock")

    def notifies(self) -> list[dict]:
        """Every Notify call so far: summary, body, actions (key → label), its id."""
        calls = []
        for index, (_, args) in enumerate(self.mock.GetMethodCalls("Notify")):
            actions = [str(a) for a in args[5]]
            calls.append({"app": str(args[0]), "replaces": int(args[1]), "summary": str(args[3]),
                          "body": str(args[4]), "actions": dict(zip(actions[::2], actions[1::2])),
                          "timeout": int(args[7]), "id": int(args[1]) or index + 1})
        return calls

    def wait_notify(self, count: int = 1, timeout: float = 5.0) -> list[dict]:
        deadline = time.monotonic() + timeout
        while len(calls := self.notifies()) < count and time.monotonic() < deadline:
            time.sleep(0.02)
        assert len(calls) >= count, f"expected {count} Notify calls, got {calls}"
        return calls

    def wait_for(self, predicate, timeout: float = 5.0) -> None:
        deadline = time.monotonic() + timeout
        while not predicate():
            assert time.monotonic() < deadline, "timed out waiting for the notification server"
            time.sleep(0.02)

    def closed_ids(self) -> list[int]:
        return [int(args[0]) for _, args in self.mock.GetMethodCalls("CloseNotification")]

    def invoke(self, notification_id: int, action: str) -> None:
        import dbus as dbus_python
        self.mock.EmitSignal("org.freedesktop.Notifications", "ActionInvoked", "us",
                             [dbus_python.UInt32(notification_id), action])

    def close(self) -> None:
        self.connection.close()
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=3)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def private_bus():
    """A private session bus (skips, or fails under GESTUREPAD_REQUIRE_PORTAL, when it cannot be had)."""
    reason = missing()
    if reason:
        if REQUIRED:
            pytest.fail(reason)
        pytest.skip(reason)
    from portal_harness import PrivateBus
    return PrivateBus()


@pytest.fixture
def empty_bus():
    """A private bus with no notification server on it."""
    bus = private_bus()
    try:
        yield bus
    finally:
        bus.close()


@pytest.fixture
def notifications():
    """A private bus with the notification server double on it (`.bus.address` for the server)."""
    bus = private_bus()
    server = None
    try:
        server = NotificationServer(bus)
        yield server
    finally:
        if server:
            server.close()
        bus.close()
