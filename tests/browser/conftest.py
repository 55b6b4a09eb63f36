"""Fixtures: one real `gesturepad serve` and one headless Chromium for the whole browser suite."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

REQUIRED = bool(os.environ.get("GESTUREPAD_REQUIRE_BROWSER"))

# The control tests' private X server and recorder window (tests/control/x11_harness.py),
# for the tests that run the server with `--control x11`.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "control"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: sealing.py
try:
    from x11_harness import XWatcher, Xvfb, xvfb_path
except ImportError as error:  # no python-xlib
    X11_MISSING = f"python-xlib is missing ({error}); pip install -r tests/requirements.txt"
else:
    X11_MISSING = "" if xvfb_path() else "Xvfb is not installed (apt-get install xvfb)"

try:
    from browser_cdp import CHROMIUM, Browser
    from browser_harness import ARTIFACTS, BIN, Server, forget_prefs, no_console_errors, open_ctl_pad, open_pad
    from gate import Gate
    from wire_capture import behind_proxy
except ImportError as error:  # no `websockets` in this Python: skip the suite, loudly
    if REQUIRED:
        raise
    MISSING_MODULE = str(error)
    collect_ignore_glob = ["test_browser_*.py"]
else:
    MISSING_MODULE = ""


def pytest_report_header(config):
    if MISSING_MODULE:
        return f"browser tests skipped: {MISSING_MODULE} (pip install -r tests/requirements.txt)"
    return None


def pytest_collection_modifyitems(config, items):
    if MISSING_MODULE:
        return
    missing = [p for p in (BIN, CHROMIUM) if not (os.path.isfile(p) and os.access(p, os.X_OK))]
    if missing and not REQUIRED:
        skip = pytest.mark.skip(reason=f"missing {', '.join(missing)} (swift build / apt-get install chromium)")
        for item in items:
            if "tests/browser" in str(item.fspath):
                item.add_marker(skip)


@pytest.fixture(scope="session")
def server():
    srv = Server()
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="session")
def browser():
    ARTIFACTS.mkdir(exist_ok=True)
    b = Browser()
    try:
        yield b
    finally:
        b.close()  # kills Chromium's whole process group


@pytest.fixture
def pad(browser, server):
    page = open_pad(browser, server)
    try:
        yield page
    finally:
        forget_prefs(page)
        page.close()


@pytest.fixture
def gated(request):
    """A server of the test's own with a `Gate` in front (gate.py): the page reaches the server
    only through the gate's port. Its log is named after the test module."""
    server = Server(token="gated-secret-Secret0123456789abcdefZ", log_name=f"{request.module.__name__}.log")
    yield from behind_proxy(server, Gate)


# ---- a server that drives a private X display --------------------------------------------

@pytest.fixture(scope="module")
def blank(browser, server):
    """A document of the server's origin that runs no script (the manifest), where a test
    imports one of the page's modules by itself."""
    page = browser.new_page()
    page.navigate(f"{server.origin}/manifest.json")
    page.wait_for("document.readyState === 'complete'")
    yield page
    no_console_errors(page)
    page.close()


@pytest.fixture(scope="session")
def xserver():
    """A private Xvfb for the suite (never the shell's DISPLAY)."""
    if X11_MISSING:
        if REQUIRED:
            pytest.fail(X11_MISSING)
        pytest.skip(X11_MISSING)
    xv = Xvfb()
    try:
        yield xv
    finally:
        xv.close()


@pytest.fixture(scope="session")
def xwatcher(xserver):
    w = XWatcher(xserver.name)
    try:
        yield w
    finally:
        w.close()


@pytest.fixture
def x(xwatcher):
    """The X window, reset for this test: nothing held, focused, pointer at (500, 500);
    `x.start` marks the test's first event."""
    xwatcher.start = xwatcher.reset(500, 500)
    return xwatcher


@pytest.fixture(scope="session")
def ctl_server(xserver):
    """`gesturepad serve --control x11` on the private Xvfb."""
    srv = Server(control="x11", env={"DISPLAY": xserver.name}, log_name="browser-server-x11.log")
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture
def ctl_pad(browser, ctl_server, xwatcher):
    """A touchpad tab whose server drives the (private) computer; its settings answered."""
    page = open_ctl_pad(browser, ctl_server)
    try:
        yield page
    finally:
        forget_prefs(page)
        page.close()


# ---- the scenario suite in three engines (test_browser_engines.py) ------------------------

@pytest.fixture(scope="session")
def scenario_server():
    """`gesturepad serve` for the scenario suite, its gestures in a JSON log (`--log-json`)."""
    log = ARTIFACTS / "browser-engines-gestures.jsonl"
    ARTIFACTS.mkdir(exist_ok=True)
    log.write_bytes(b"")
    srv = Server(extra=["--log-json", str(log)], log_name="browser-engines-server.log")
    srv.gesture_log = log
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="session")
def tls_scenario_server():
    """`gesturepad serve --tls` for the suite's service-worker scenario; its CA (PEM) as `.ca`."""
    import ssl
    import urllib.request

    srv = Server(extra=["--tls"], log_name="browser-engines-tls-server.log")
    srv.start()
    with urllib.request.urlopen(srv.origin + "/ca.crt", context=ssl._create_unverified_context()) as r:
        srv.ca = r.read()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="session")
def webkit_display():
    """A private Xvfb for MiniBrowser's windows (not the control tests' one: the X11 backend's
    pointer must never reach a browser window)."""
    if X11_MISSING:
        if REQUIRED or os.environ.get("GESTUREPAD_REQUIRE_WEBKIT"):
            pytest.fail(X11_MISSING)
        pytest.skip(X11_MISSING)
    xv = Xvfb()
    try:
        yield xv
    finally:
        xv.close()


@pytest.fixture(scope="session", params=["chromium", "firefox", "webkit"])
def engine(request, tls_scenario_server):
    """One browser process of each engine for the whole session, trusting the TLS server's CA
    as that engine does (Chromium: an NSS store in its HOME; Firefox: its profile's store;
    WebKit: the driver's acceptInsecureCerts). Missing: skipped, or failed under make test."""
    import tempfile

    from browser_harness import trust_ca
    from engines import PACKAGES, REQUIRE, Engine, missing, required

    name = request.param
    gone = missing(name)
    if gone:
        why = f"{name}: missing {', '.join(gone)} (apt-get install {PACKAGES[name]}; scripts/setup.sh --test)"
        if required(name):
            pytest.fail(f"{why}; {REQUIRE[name]} is set")
        pytest.skip(why)
    display = None
    nss_home = None
    if name == "webkit":
        display = request.getfixturevalue("webkit_display").name
    if name == "chromium":
        nss_home = tempfile.mkdtemp(prefix="gp-engines-nss-")
        trust_ca(os.path.join(nss_home, ".pki", "nssdb"), tls_scenario_server.ca)
    eng = Engine(name, display=display, trust_ca=tls_scenario_server.ca, nss_home=nss_home)
    try:
        yield eng
    finally:
        eng.close()


@pytest.fixture
def page(engine, scenario_server):
    """A touchpad page in the engine, live on the scenario server."""
    from engines import open_page

    p = open_page(engine, scenario_server)
    try:
        yield p
    finally:
        p.close()


@pytest.fixture
def ctl_page(engine, ctl_server, xwatcher):
    """A touchpad page in the engine whose server drives the private X display (the controls shown)."""
    from engines import open_page

    p = open_page(engine, ctl_server, control=True)
    try:
        yield p
    finally:
        p.eval("localStorage.clear(), 1")
        p.close()
