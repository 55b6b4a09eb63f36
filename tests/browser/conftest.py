"""Fixtures: one real `gesturepad serve` and one headless Chromium for the whole browser suite."""

from __future__ import annotations

import os
import shutil

import pytest

from cdp import CHROMIUM, Browser, Page
from harness import ARTIFACTS, BIN, Server


def pytest_collection_modifyitems(config, items):
    missing = [p for p in (BIN, CHROMIUM) if not (os.path.isfile(p) and os.access(p, os.X_OK))]
    if missing and not os.environ.get("GESTUREPAD_REQUIRE_BROWSER"):
        skip = pytest.mark.skip(reason=f"missing {', '.join(missing)} (swift build / apt-get install chromium)")
        for item in items:
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
        b.close()


def open_pad(browser: Browser, server: Server, token: str | None = None, wait_live: bool = True) -> Page:
    page = browser.new_page()
    page.phone()
    page.navigate(f"{server.origin}/#token={token or server.token}")
    if wait_live:
        page.wait_for("window.gesturepad && window.gesturepad.status === 'live'", 8)
    return page


def open_watch(browser: Browser, server: Server) -> Page:
    page = browser.new_page()
    page.desktop()
    page.navigate(f"{server.origin}/watch.html#token={server.token}")
    page.wait_for("window.gesturepad && window.gesturepad.status === 'live'", 8)
    return page


@pytest.fixture
def pad(browser, server):
    page = open_pad(browser, server)
    try:
        yield page
    finally:
        page.close()
