"""Fixtures for the tests against a real headless GNOME (gnome_session.py): one GNOME session
for the whole directory, and real `gesturepad serve --control portal` servers on its session
bus and Wayland display, whose consent dialog the test answers through AT-SPI.

Skipped, with the reason in the header, when GNOME's packages are missing — unless
GESTUREPAD_REQUIRE_GNOME=1 (`make test`) says they must be there, then that is a failure.
"""
from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "control"))  # touch_input: touch strokes over a WebSocket

from gnome_session import HeadlessGnome, missing_programs  # noqa: E402
from testkit import Server, pad_opener, skip_under, stop_servers, suite_skip_reason  # noqa: E402

REQUIRED = os.environ.get("GESTUREPAD_REQUIRE_GNOME") == "1"
MISSING = missing_programs()
FLAT = ["--acceleration", "flat", "--speed", "1"]
ACTIVE = {"active": True, "backend": "portal"}


def pytest_report_header(config):
    reason = suite_skip_reason(MISSING, REQUIRED)
    return f"GNOME tests skipped: {reason}" if reason else None


def pytest_collection_modifyitems(config, items):
    skip_under(HERE, items, suite_skip_reason(MISSING, REQUIRED))


_session: list[HeadlessGnome] = []


@pytest.fixture(scope="session")
def gnome():
    """The headless GNOME session shared by every test here (started once, about 3 s; stopped
    after the last of them, not at the end of the whole run)."""
    if MISSING:
        pytest.fail("not installed: " + ", ".join(MISSING))
    _session.append(HeadlessGnome())
    try:
        yield _session[0]
    finally:
        _close_session()


def _close_session() -> None:
    while _session:
        _session.pop().close()


@pytest.hookimpl(trylast=True)  # after the test's own fixtures are torn down
def pytest_runtest_teardown(item, nextitem):
    if nextitem is None or not Path(str(nextitem.fspath)).resolve().is_relative_to(HERE):
        _close_session()


@pytest.fixture
def desktop(gnome):
    """The session, as each test finds it: no dialog, no RemoteDesktop session, the overview
    closed, the US layout, the pointer in the middle, an empty event log."""
    yield gnome
    if gnome.dialog_open():
        gnome.answer_dialog("cancel", timeout=2)
    gnome.stop_remote_sessions()
    gnome.hide_overview()
    gnome.set_layouts(["us"])
    gnome.events()


@pytest.fixture
def start_server(desktop):
    """start_server(extra=[...], control="portal", answer="accept"|"cancel"|None, env={...}) → a
    running Server on the session. With `answer`, the consent dialog is answered as soon as it
    opens (while the server starts). Stopped (SIGTERM, exit 0 expected) after the test."""
    servers = []

    def start(extra: list[str] | None = None, control: str = "portal", answer: str | None = "accept",
              env: dict | None = None) -> Server:
        environment = {name: desktop.env[name] for name in
                       ("DBUS_SESSION_BUS_ADDRESS", "WAYLAND_DISPLAY", "XDG_RUNTIME_DIR", "XDG_CURRENT_DESKTOP")}
        environment["DISPLAY"] = ""
        environment.update(env or {})
        answered = {}
        answerer = None
        if answer is not None:
            answerer = threading.Thread(target=lambda: answered.update(found=desktop.answer_dialog(answer)))
            answerer.start()
        try:
            server = Server(extra=["--control", control] + list(extra or []), env=environment)
        finally:
            if answerer is not None:
                answerer.join()
        servers.append(server)
        if answer is not None:
            assert answered.get("found"), "the RemoteDesktop dialog did not open: " + server.stderr()[-800:]
        return server

    yield start
    stop_servers(servers)


@pytest.fixture
def pads():
    """Opens touch_input.Pad connections and closes them after the test."""
    yield from pad_opener()


@pytest.fixture
def active_pad(pads):
    """active_pad(server) → a touchpad of `server` once the desktop's permission is in force."""
    def open_active(server):
        touchpad = pads(server)
        if touchpad.welcome.get("control") != ACTIVE:
            notice = touchpad.wait_message(lambda m: m.get("type") == "control" and m.get("active"), timeout=10)
            assert notice is not None, f"control did not come on: {touchpad.welcome} {server.stderr()[-800:]}"
        return touchpad

    return open_active


@pytest.fixture
def pad(start_server, active_pad):
    """A touchpad of a server (flat acceleration, speed 1) that drives the desktop."""
    return active_pad(start_server(FLAT))
