"""Fixtures for the tests against a real headless KDE Plasma (kde_session.py): a session per
keyboard layout, and real `gesturepad serve --control portal` servers on its session bus and
Wayland display.

Skipped, with the reason in the header, when KDE's packages are missing — unless
GESTUREPAD_REQUIRE_KDE=1 (`make test`) says they must be there, then that is a failure.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "control"))  # touch_input: touch strokes over a WebSocket

from kde_session import HeadlessKDE, missing_programs  # noqa: E402
from testkit import Server, pad_opener, skip_under, stop_servers, suite_skip_reason  # noqa: E402

REQUIRED = os.environ.get("GESTUREPAD_REQUIRE_KDE") == "1"
MISSING = missing_programs()
FLAT = ["--acceleration", "flat", "--speed", "1"]
ACTIVE = {"active": True, "backend": "portal"}


def pytest_report_header(config):
    reason = suite_skip_reason(MISSING, REQUIRED)
    return f"KDE tests skipped: {reason}" if reason else None


def pytest_collection_modifyitems(config, items):
    skip_under(HERE, items, suite_skip_reason(MISSING, REQUIRED))


_sessions: dict[str, HeadlessKDE] = {}


def kde_session(layouts: str) -> HeadlessKDE:
    """The session with `layouts` (started on first use, about 2 s; one at a time: starting
    another ends the last)."""
    if MISSING:
        pytest.fail("not installed: " + ", ".join(MISSING))
    if layouts not in _sessions:
        for old in list(_sessions):
            _sessions.pop(old).close()
        _sessions[layouts] = HeadlessKDE(layouts)
    return _sessions[layouts]


def pytest_sessionfinish(session, exitstatus):
    for old in list(_sessions):
        _sessions.pop(old).close()


@pytest.fixture
def desktop(request):
    """The KDE session for the test (layouts from `@pytest.mark.layouts("us,de")`, else us)."""
    marker = request.node.get_closest_marker("layouts")
    return kde_session(marker.args[0] if marker else "us")


def pytest_configure(config):
    config.addinivalue_line("markers", "layouts(names): the KDE session's keyboard layouts (kxkbrc)")


@pytest.fixture
def start_server(desktop):
    """start_server(extra=[...]) → a running `serve --control portal` on the session. Stopped
    (SIGTERM, exit 0 expected) after the test."""
    servers = []

    def start(extra: list[str] | None = None, env: dict | None = None) -> Server:
        environment = {name: desktop.env[name] for name in
                       ("DBUS_SESSION_BUS_ADDRESS", "WAYLAND_DISPLAY", "XDG_RUNTIME_DIR", "XDG_CURRENT_DESKTOP")}
        environment["DISPLAY"] = ""
        environment.update(env or {})
        server = Server(extra=["--control", "portal"] + list(extra or []), env=environment)
        servers.append(server)
        return server

    yield start
    stop_servers(servers)


@pytest.fixture
def pads():
    yield from pad_opener()


@pytest.fixture
def pad(start_server, pads):
    """A touchpad on a flat-speed-1 server whose portal session is active."""
    touchpad = pads(start_server(FLAT))
    if touchpad.welcome.get("control") != ACTIVE:
        notice = touchpad.wait_message(lambda m: m.get("type") == "control" and m.get("active"), timeout=10)
        assert notice is not None, f"control never became active: {touchpad.welcome} {touchpad.messages()}"
    return touchpad
