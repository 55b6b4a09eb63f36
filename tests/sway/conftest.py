"""Fixtures for the tests against a real headless sway (sway_session.py): one session for the
suite, and real `gesturepad serve --control wlroots` servers on its Wayland display.

Skipped, with the reason in the header, when sway or the recorder's GTK is missing — unless
GESTUREPAD_REQUIRE_SWAY=1 (`make test`) says they must be there, then that is a failure.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "control"))  # touch_input: touch strokes over a WebSocket

from sway_kit import FLAT, focused_pad  # noqa: E402
from sway_session import HeadlessSway, missing_programs  # noqa: E402
from testkit import Server, pad_opener, skip_under, stop_servers, suite_skip_reason  # noqa: E402

REQUIRED = os.environ.get("GESTUREPAD_REQUIRE_SWAY") == "1"
MISSING = missing_programs()


def pytest_report_header(config):
    reason = suite_skip_reason(MISSING, REQUIRED)
    return f"sway tests skipped: {reason}" if reason else None


def pytest_collection_modifyitems(config, items):
    skip_under(HERE, items, suite_skip_reason(MISSING, REQUIRED))


_session: list[HeadlessSway] = []


def pytest_sessionfinish(session, exitstatus):
    while _session:
        _session.pop().close()


@pytest.fixture
def desktop():
    """The suite's sway session (started on first use)."""
    if MISSING:
        pytest.fail("not installed: " + ", ".join(MISSING))
    if not _session:
        _session.append(HeadlessSway())
    return _session[0]


@pytest.fixture
def start_server(desktop):
    """start_server(extra=[...], control="wlroots") → a running server on the session's Wayland
    display, no D-Bus session bus (so no portal answers), no X. Stopped (SIGTERM, exit 0
    expected) after the test."""
    servers = []

    def start(extra: list[str] | None = None, env: dict | None = None, control: str = "wlroots") -> Server:
        environment = {"XDG_RUNTIME_DIR": desktop.env["XDG_RUNTIME_DIR"], "WAYLAND_DISPLAY": desktop.env["WAYLAND_DISPLAY"],
                       "DISPLAY": "", "DBUS_SESSION_BUS_ADDRESS": f"unix:path={desktop.root}/no-bus"}
        environment.update(env or {})
        server = Server(extra=["--control", control] + list(extra or []), env=environment)
        servers.append(server)
        return server

    yield start
    stop_servers(servers)


@pytest.fixture
def pads():
    yield from pad_opener()


@pytest.fixture
def pad(desktop, start_server, pads):
    """A touchpad on a flat-speed-1 wlroots server."""
    return focused_pad(desktop, pads, start_server, FLAT)[1]
