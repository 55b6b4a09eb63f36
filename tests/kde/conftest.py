"""Fixtures for the tests against a real headless KDE Plasma (kde_session.py): a session per
keyboard layout, and real `gesturepad serve --control portal` servers on its session bus and
Wayland display.

Skipped, with the reason in the header, when KDE's packages are missing — unless
GESTUREPAD_REQUIRE_KDE=1 (`make test`) says they must be there, then that is a failure. The
consent dialog's rows (`@pytest.mark.dialog`) also need the dialog's QML (setup.sh --test) and
cgroups this user can make (root): the same rule.
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

from app_scope import AppScope, scope_problem  # noqa: E402
from kde_session import DIALOG_CACHE, HeadlessKDE, dialog_missing, missing_programs  # noqa: E402
from testkit import Server, binary, pad_opener, skip_under, stop_servers, suite_skip_reason  # noqa: E402

REQUIRED = os.environ.get("GESTUREPAD_REQUIRE_KDE") == "1"
MISSING = missing_programs()
FLAT = ["--acceleration", "flat", "--speed", "1"]
ACTIVE = {"active": True, "backend": "portal"}


def pytest_report_header(config):
    reason = suite_skip_reason(MISSING, REQUIRED)
    return f"KDE tests skipped: {reason}" if reason else None


def dialog_rows_missing() -> list[str]:
    """What the consent dialog's rows need beyond the session and this machine lacks."""
    problem = scope_problem()
    return dialog_missing() + ([problem] if problem else [])


def pytest_collection_modifyitems(config, items):
    skip_under(HERE, items, suite_skip_reason(MISSING, REQUIRED))
    dialog_reason = suite_skip_reason(dialog_rows_missing(), REQUIRED)
    if dialog_reason:
        for item in items:
            if item.get_closest_marker("dialog"):
                item.add_marker(pytest.mark.skip(reason=f"KDE dialog rows: {dialog_reason}"))


_sessions: dict[tuple[str, bool], HeadlessKDE] = {}


def kde_session(layouts: str, dialogs: bool = False) -> HeadlessKDE:
    """The session with `layouts`, its portal able to show the consent dialog or not (started on
    first use, about 2 s; one at a time: starting another ends the last)."""
    if MISSING:
        pytest.fail("not installed: " + ", ".join(MISSING))
    if dialogs and (missing := dialog_rows_missing()):
        pytest.fail("the consent dialog needs: " + ", ".join(missing))
    key = (layouts, dialogs)
    if key not in _sessions:
        for old in list(_sessions):
            _sessions.pop(old).close()
        _sessions[key] = HeadlessKDE(layouts, dialogs=DIALOG_CACHE if dialogs else None)
    return _sessions[key]


def pytest_sessionfinish(session, exitstatus):
    for old in list(_sessions):
        _sessions.pop(old).close()


@pytest.fixture
def desktop(request):
    """The KDE session for the test (layouts from `@pytest.mark.layouts("us,de")`, else us; a
    portal that can show its consent dialog with `@pytest.mark.dialog`)."""
    marker = request.node.get_closest_marker("layouts")
    return kde_session(marker.args[0] if marker else "us", dialogs=request.node.get_closest_marker("dialog") is not None)


def pytest_configure(config):
    config.addinivalue_line("markers", "layouts(names): the KDE session's keyboard layouts (kxkbrc)")
    config.addinivalue_line("markers", "dialog: the portal can show its consent dialog (its QML, AT-SPI)")


@pytest.fixture
def scopes(tmp_path):
    """scopes(app_id) → a new `AppScope` (app-<app_id>-<n>.scope); every folder it made is
    removed after the test's servers stopped (this fixture is set up before them)."""
    made: list[AppScope] = []

    def make(app_id: str) -> AppScope:
        scope = AppScope(app_id, os.getpid() * 100 + len(made) + 1, tmp_path, binary())
        made.append(scope)
        return scope

    yield make
    left = [problem for scope in reversed(made) for problem in scope.remove()]
    assert not left, f"scope folders left behind: {left}"


@pytest.fixture
def start_server(desktop, scopes):
    """start_server(extra=[...], env={...}, scope=AppScope, answer="Share"|"Cancel"|None) → a
    running `serve --control portal` on the session; in `scope` when given, and with `answer`
    pressed in the consent dialog as soon as it shows (while the server starts: it waits for
    the answer). Stopped (SIGTERM, exit 0 expected) after the test."""
    servers = []

    def start(extra: list[str] | None = None, env: dict | None = None, scope: AppScope | None = None,
              answer: str | None = None) -> Server:
        environment = {name: desktop.env[name] for name in
                       ("DBUS_SESSION_BUS_ADDRESS", "WAYLAND_DISPLAY", "XDG_RUNTIME_DIR", "XDG_CURRENT_DESKTOP")}
        environment["DISPLAY"] = ""
        environment.update(env or {})
        seen: dict = {}
        answerer = threading.Thread(target=lambda: seen.update(desktop.answer_dialog(answer))) if answer else None
        if answerer is not None:
            answerer.start()
        try:
            server = Server(extra=["--control", "portal"] + list(extra or []), env=environment,
                            program=scope.wrapper if scope else None)
        finally:
            if answerer is not None:
                answerer.join()
        servers.append(server)
        server.dialog = seen
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
