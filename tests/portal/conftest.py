"""Fixtures for the portal tests: a private session bus per test with the fake desktop portal on
it, and real `gesturepad serve --control portal` servers pointed at that bus (never at the
desktop's own) with the state directory in the test's temporary folder.

Skipped, with the reason in the header, when dbus-daemon or dbus-fast is missing — unless
GESTUREPAD_REQUIRE_PORTAL=1 (`make test`) says they must be there, then that is a failure.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "control"))  # touch_input: touch strokes over a WebSocket

from testkit import Server, binary, pad_opener, skip_under, stop_servers  # noqa: E402

REQUIRED = os.environ.get("GESTUREPAD_REQUIRE_PORTAL") == "1"

try:
    import dbus_fast  # noqa: F401
    from portal_harness import FakePortal, PrivateBus, dbus_daemon_path
except ImportError as error:
    if REQUIRED:
        raise
    MISSING = f"{error} (pip install -r tests/requirements.txt)"
    collect_ignore_glob = ["test_*.py"]
else:
    MISSING = "" if dbus_daemon_path() else "dbus-daemon is not installed (apt-get install dbus)"


def _skip_reason() -> str | None:
    if MISSING:
        return None if REQUIRED else MISSING
    if not binary().exists():
        return f"{binary()} not built (swift build)"
    return None


def pytest_report_header(config):
    reason = _skip_reason()
    return f"portal tests skipped: {reason}" if reason else None


def pytest_collection_modifyitems(config, items):
    skip_under(HERE, items, _skip_reason())


@pytest.fixture
def bus():
    if MISSING:
        pytest.fail(MISSING)
    private = PrivateBus()
    try:
        yield private
    finally:
        private.close()


@pytest.fixture
def portals(bus):
    """portals("--version", "1", …) → a FakePortal on the test's bus (one at a time)."""
    started = []

    def start(*options: str) -> FakePortal:
        portal = FakePortal(bus, *options)
        started.append(portal)
        return portal

    yield start
    for portal in started:
        portal.close()


@pytest.fixture
def state_home(tmp_path) -> Path:
    """The test's XDG_STATE_HOME: the token lands in state_home/gesturepad/portal-restore-token."""
    return tmp_path / "state"


@pytest.fixture
def start_server(bus, state_home):
    """start_server(extra=[...], control="portal", env={...}) → a running Server on the test's bus.
    Stopped (SIGTERM, exit 0 expected) after the test unless the test stopped it."""
    servers = []

    def start(extra: list[str] | None = None, control: str = "portal", env: dict | None = None) -> Server:
        environment = {"DBUS_SESSION_BUS_ADDRESS": bus.address, "XDG_STATE_HOME": str(state_home),
                       "WAYLAND_DISPLAY": "", "DISPLAY": ""}
        environment.update(env or {})
        server = Server(extra=["--control", control] + list(extra or []), env=environment)
        servers.append(server)
        return server

    yield start
    stop_servers(servers)


@pytest.fixture
def pads():
    """Opens touch_input.Pad connections and closes them after the test."""
    yield from pad_opener()