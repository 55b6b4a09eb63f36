"""WebKit for the browser tests: WebKitGTK's MiniBrowser driven by WebKitWebDriver (classic W3C
WebDriver over HTTP) on a private Xvfb.

One driver, one browser session (one MiniBrowser process) per test session; each page is a
window of its own, placed beside the others (a covered MiniBrowser slows its animation frames
while the page still counts as visible). The driver plays touch actions as the mouse, so the
tests drive one finger as the mouse and several fingers with synthetic PointerEvents
(engines.py).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
import urllib.error
import urllib.request
from typing import Any

from browser_cdp import end_process_group
from browser_harness import free_port

WEBKIT_DRIVER = os.environ.get("WEBKIT_DRIVER_BIN", "/usr/bin/WebKitWebDriver")
MINIBROWSER = os.environ.get("WEBKIT_MINIBROWSER", "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser")


class WebDriverError(RuntimeError):
    """A WebDriver command answered with an error."""


class WebKit:
    """WebKitWebDriver and its MiniBrowser session on the X display `display` (e.g. ":7").
    `accept_insecure_certs`: WebKit takes any certificate (its trust store is the system's;
    the tests do not change the machine's)."""

    def __init__(self, display: str, accept_insecure_certs: bool = False) -> None:
        port = free_port()
        self.base = f"http://127.0.0.1:{port}"
        self.proc = subprocess.Popen(
            [WEBKIT_DRIVER, f"--port={port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True, env={**os.environ, "DISPLAY": display},
        )
        deadline = time.monotonic() + 20
        while True:
            try:
                self.request("GET", "/status")
                break
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.close()
                    raise RuntimeError("WebKitWebDriver did not answer")
                time.sleep(0.1)
        caps = {"webkitgtk:browserOptions": {"binary": MINIBROWSER, "args": ["--automation"]},
                "acceptInsecureCerts": accept_insecure_certs, "pageLoadStrategy": "normal"}
        answer = self.request("POST", "/session", {"capabilities": {"alwaysMatch": caps}}, timeout=60)
        self.session = f"/session/{answer['sessionId']}"
        self.request("POST", self.session + "/timeouts", {"script": 60000, "pageLoad": 30000})
        self.first_window = self.request("GET", self.session + "/window")
        self.current = self.first_window
        self.windows = 0

    def request(self, method: str, path: str, body: dict | None = None, timeout: float = 70.0) -> Any:
        data = json.dumps(body if body is not None else {}).encode() if method == "POST" else None
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return json.loads(r.read() or b"{}").get("value")
        except urllib.error.HTTPError as e:
            try:
                value = json.loads(e.read()).get("value", {})
            except ValueError:
                value = {}
            raise WebDriverError(f"{method} {path}: {value.get('error')}: {value.get('message')}") from None

    def command(self, handle: str, method: str, path: str, body: dict | None = None, timeout: float = 70.0) -> Any:
        """A command of the session for the window `handle` (switched to first when needed)."""
        if self.current != handle:
            self.request("POST", self.session + "/window", {"handle": handle})
            self.current = handle
        return self.request(method, self.session + path, body, timeout)

    def new_window(self, width: int, height: int) -> str:
        handle = self.request("POST", self.session + "/window/new", {"type": "window"})["handle"]
        # Side by side, none covering another.
        self.command(handle, "POST", "/window/rect", {"x": 10 + (self.windows % 3) * (width + 20), "y": 0,
                                                      "width": width, "height": height})
        self.windows += 1
        return handle

    def close_window(self, handle: str) -> None:
        try:
            self.command(handle, "DELETE", "/window")
        except WebDriverError:
            pass
        # The session's current window must be one that is open (new windows are opened from it).
        self.request("POST", self.session + "/window", {"handle": self.first_window})
        self.current = self.first_window

    def close(self) -> None:
        try:
            if hasattr(self, "session"):
                self.request("DELETE", self.session, timeout=10)
        except Exception:
            pass
        end_process_group(self.proc)


def available() -> list[str]:
    """What is missing to run WebKit here (empty when nothing is)."""
    return [p for p in (WEBKIT_DRIVER, MINIBROWSER) if not (os.path.isfile(p) and os.access(p, os.X_OK))] + \
        ([] if shutil.which("Xvfb") else ["Xvfb"])
