"""Fixtures: one real `gesturepad serve` and one headless Chromium for the whole browser suite."""

from __future__ import annotations

import os

import pytest

REQUIRED = bool(os.environ.get("GESTUREPAD_REQUIRE_BROWSER"))

try:
    from browser_cdp import CHROMIUM, Browser
    from browser_harness import ARTIFACTS, BIN, Server, forget_prefs, open_pad
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
