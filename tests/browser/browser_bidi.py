"""Gecko for the browser tests: Debian's Firefox ESR driven through its own WebDriver BiDi.

No geckodriver: `firefox-esr --headless --remote-debugging-port N` serves BiDi at
`ws://127.0.0.1:N/session`. One process (one fresh profile) per test session; each page is a
browsing context of its own window, phone-sized (390 × 844 CSS px at DPR 3). Touch input is
`input.performActions` with one `pointerType: "touch"` source per finger.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
from typing import Any, Callable

from websockets.sync.client import connect

from browser_cdp import end_process_group
from browser_harness import free_port, trust_ca

FIREFOX = os.environ.get("FIREFOX_BIN", "/usr/bin/firefox-esr")

# A quiet profile: no first-run pages, updates, telemetry or background fetches; touch events
# on (as Firefox for Android has them; desktop Firefox turns them on only with a touch screen).
PREFS = {
    "dom.w3c_touch_events.enabled": 1,
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.homepage_override.mstone": "ignore",
    "browser.aboutwelcome.enabled": False,
    "app.update.disabledForTesting": True,
    "datareporting.policy.dataSubmissionEnabled": False,
    "toolkit.telemetry.reportingpolicy.firstRun": False,
    "network.captive-portal-service.enabled": False,
    "network.connectivity-service.enabled": False,
    "browser.safebrowsing.update.enabled": False,
    "extensions.update.enabled": False,
    "dom.disable_open_during_load": False,
}


class BiDiError(RuntimeError):
    """A BiDi command answered with an error, or a script threw."""


class Firefox:
    """One headless Firefox ESR and its BiDi session. `ca_pem`: the profile's own
    certificate store trusts that CA (as a phone that installed it)."""

    def __init__(self, ca_pem: bytes | None = None) -> None:
        self.profile = tempfile.mkdtemp(prefix="gp-firefox-")
        with open(os.path.join(self.profile, "user.js"), "w") as f:
            for key, value in PREFS.items():
                f.write(f"user_pref({json.dumps(key)}, {json.dumps(value)});\n")
        if ca_pem:
            trust_ca(self.profile, ca_pem)
        port = free_port()
        self.proc = subprocess.Popen(
            [FIREFOX, "--headless", "--no-remote", "--remote-debugging-port", str(port), "--profile", self.profile],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
            env={**os.environ, "MOZ_CRASHREPORTER_DISABLE": "1"},
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                # Entered by hand: the connection lives as long as this object, closed in close().
                self.ws = connect(f"ws://127.0.0.1:{port}/session", max_size=64 * 1024 * 1024,
                                  ping_interval=None, open_timeout=2).__enter__()
                break
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.close()
                    raise RuntimeError("firefox-esr did not open its WebDriver BiDi port")
                time.sleep(0.1)
        self.lock = threading.Lock()
        self.next_id = 0
        self.pending: dict[int, tuple[threading.Event, list]] = {}
        self.listeners: list[Callable[[dict], None]] = []
        threading.Thread(target=self._read, daemon=True).start()
        self.call("session.new", {"capabilities": {}})
        self.call("session.subscribe", {"events": ["log.entryAdded"]})

    def _read(self) -> None:
        try:
            while True:
                msg = json.loads(self.ws.recv())
                if msg.get("id") is not None:
                    with self.lock:
                        waiter = self.pending.pop(msg["id"], None)
                    if waiter is not None:
                        waiter[1].append(msg)
                        waiter[0].set()
                else:
                    for listener in list(self.listeners):
                        listener(msg)
        except Exception:  # connection closed at teardown
            pass

    def call(self, method: str, params: dict, timeout: float = 30.0) -> Any:
        done, box = threading.Event(), []
        with self.lock:
            self.next_id += 1
            cid = self.next_id
            self.pending[cid] = (done, box)
        self.ws.send(json.dumps({"id": cid, "method": method, "params": params}))
        if not done.wait(timeout):
            raise TimeoutError(f"BiDi {method} timed out")
        msg = box[0]
        if msg.get("type") == "error":
            raise BiDiError(f"{method}: {msg.get('error')}: {msg.get('message')}")
        return msg.get("result")

    def new_context(self) -> str:
        # A window of its own: every page stays visible (a background tab gets no animation frames).
        return self.call("browsingContext.create", {"type": "window"})["context"]

    def close(self) -> None:
        try:
            self.ws.close()
        except Exception:
            pass
        end_process_group(self.proc)
        shutil.rmtree(self.profile, ignore_errors=True)
