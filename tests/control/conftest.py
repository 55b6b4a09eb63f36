"""Fixtures for the control tests: a private Xvfb for the whole suite, an X client that records
what reaches its full-screen window, and real `gesturepad serve --control x11` servers pointed
at that Xvfb (never at the shell's own DISPLAY).

Skipped, with the reason in the header, when Xvfb or python-xlib is missing — unless
GESTUREPAD_REQUIRE_X11=1 or GESTUREPAD_REQUIRE_BROWSER=1 (`make test`) says the tools must be
there, then that is a failure. Skipped while the binary has no `--control` (the control layer
has not landed) unless GESTUREPAD_REQUIRE_X11=1.
"""
from __future__ import annotations

import functools
import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from testkit import Server, binary, pad_opener, stop_servers  # noqa: E402

REQUIRE_X11 = os.environ.get("GESTUREPAD_REQUIRE_X11") == "1"
REQUIRED = REQUIRE_X11 or bool(os.environ.get("GESTUREPAD_REQUIRE_BROWSER"))
HERE = Path(__file__).resolve().parent

try:
    from x11_harness import XWatcher, Xvfb, xvfb_path
except ImportError as error:  # no python-xlib in this Python
    if REQUIRED:
        raise
    MISSING = f"{error} (pip install -r tests/requirements.txt)"
    collect_ignore_glob = ["test_*.py"]
else:
    MISSING = "" if xvfb_path() else "Xvfb is not installed (apt-get install xvfb)"


@functools.cache
def control_landed() -> bool:
    try:
        result = subprocess.run([str(binary()), "serve", "--help"], capture_output=True, text=True, timeout=30)
    except OSError:
        return False
    return "--control" in result.stdout


def _skip_reason() -> str | None:
    if MISSING:
        return None if REQUIRED else MISSING
    if not binary().exists():
        return f"{binary()} not built (swift build)"
    if not control_landed() and not REQUIRE_X11:
        return "the control layer has not landed (`gesturepad serve --help` has no --control)"
    return None


def pytest_report_header(config):
    reason = _skip_reason()
    return f"control tests skipped: {reason}" if reason else None


def pytest_collection_modifyitems(config, items):
    mine = [item for item in items if Path(str(item.fspath)).resolve().is_relative_to(HERE)]
    if not mine:
        return
    reason = _skip_reason()
    if reason:
        for item in mine:
            item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(scope="session")
def xserver():
    """A private Xvfb :N (1920×1080×24, no TCP) for the whole suite, killed at the end."""
    if MISSING:
        pytest.fail(MISSING)
    server = Xvfb()
    try:
        yield server
    finally:
        server.close()


@pytest.fixture(scope="session")
def watcher(xserver):
    w = XWatcher(xserver.name)
    try:
        yield w
    finally:
        w.close()


@pytest.fixture
def x(watcher):
    """The X window, reset for this test: nothing held, focused, pointer at (500, 500).
    `x.start` is the mark of the test's first event."""
    watcher.start = watcher.reset(500, 500)
    return watcher


@pytest.fixture
def start_server(xserver, tmp_path):
    """start_server(extra=[...], config="yaml text", control="x11") → a running Server with
    DISPLAY=:N (the private Xvfb). Stopped (SIGTERM, exit 0 expected) after the test."""
    servers = []

    def start(extra: list[str] | None = None, config: str | None = None, control: str = "x11") -> Server:
        args = ["--control", control] + list(extra or [])
        if config is not None:
            path = tmp_path / f"control-{len(servers)}.yaml"
            path.write_text(config)
            args += ["--config", str(path)]
        server = Server(extra=args, env={"DISPLAY": xserver.name})
        servers.append(server)
        return server

    yield start
    stop_servers(servers)


@pytest.fixture
def pads():
    """Opens Pad connections (touch_input.Pad) and closes them after the test."""
    yield from pad_opener()