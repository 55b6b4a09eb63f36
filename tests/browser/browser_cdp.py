"""A small synchronous Chrome DevTools Protocol client for the browser tests.

Launches Debian's headless Chromium in its own process group, talks CDP over the
browser WebSocket (flattened sessions) and lets tests pipeline commands: `send`
returns at once with a handle, `call` waits for the answer.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from typing import Any, Callable

from websockets.sync.client import connect

CHROMIUM = os.environ.get("CHROMIUM_BIN", "/usr/lib/chromium/chromium")


def end_process_group(proc: subprocess.Popen) -> None:
    """Kills a browser started in a session of its own, with every process it started."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError, AttributeError):
        pass
    try:
        proc.wait(5)
    except Exception:
        pass


class CDPError(RuntimeError):
    """A CDP command answered with an error."""


class Pending:
    """The answer to one CDP command, filled in by the reader thread."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.result: Any = None
        self.error: Any = None

    def wait(self, timeout: float = 10.0) -> Any:
        if not self.done.wait(timeout):
            raise TimeoutError("CDP command timed out")
        if self.error is not None:
            raise CDPError(str(self.error))
        return self.result


class Browser:
    """One headless Chromium process and its browser-level CDP connection."""

    def __init__(self, width: int = 390, height: int = 844, env: dict | None = None) -> None:
        self.profile = tempfile.mkdtemp(prefix="gp-chromium-")
        self.proc = subprocess.Popen(
            [
                CHROMIUM, "--headless=new", "--no-sandbox", "--remote-debugging-port=0",
                f"--user-data-dir={self.profile}", f"--window-size={width},{height}",
                "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-features=Translate,MediaRouter,OptimizationHints",
                "--disable-renderer-backgrounding", "--disable-background-timer-throttling",
                "--disable-backgrounding-occluded-windows", "--mute-audio", "about:blank",
            ],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
            env={**os.environ, **env} if env else None,
        )
        port_file = os.path.join(self.profile, "DevToolsActivePort")
        deadline = time.monotonic() + 20
        lines: list[str] = []
        while time.monotonic() < deadline:
            if os.path.exists(port_file):
                lines = open(port_file).read().split("\n")
                if len(lines) >= 2 and lines[1]:
                    break
            if self.proc.poll() is not None:
                raise RuntimeError("chromium exited at start")
            time.sleep(0.05)
        else:
            self.close()
            raise RuntimeError("chromium did not open its DevTools port")
        url = f"ws://127.0.0.1:{lines[0].strip()}{lines[1].strip()}"
        # Entered by hand: the connection lives as long as this object, closed in close().
        self.ws = connect(url, max_size=64 * 1024 * 1024, ping_interval=None).__enter__()
        self.lock = threading.Lock()
        self.next_id = 0
        self.pending: dict[int, Pending] = {}
        self.listeners: list[Callable[[dict], None]] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        try:
            while True:
                msg = json.loads(self.ws.recv())
                if "id" in msg:
                    with self.lock:
                        p = self.pending.pop(msg["id"], None)
                    if p is not None:
                        p.result = msg.get("result")
                        p.error = msg.get("error")
                        p.done.set()
                else:
                    for listener in list(self.listeners):
                        listener(msg)
        except Exception:  # connection closed at teardown
            pass

    def send(self, method: str, params: dict | None = None, session: str | None = None) -> Pending:
        """Sends a command without waiting; returns its Pending answer."""
        p = Pending()
        with self.lock:
            self.next_id += 1
            cid = self.next_id
            self.pending[cid] = p
        msg: dict[str, Any] = {"id": cid, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        self.ws.send(json.dumps(msg))
        return p

    def call(self, method: str, params: dict | None = None, session: str | None = None, timeout: float = 10.0) -> Any:
        return self.send(method, params, session).wait(timeout)

    def new_page(self, test_hook: bool = True) -> "Page":
        """A new tab. With `test_hook` (the default) the page publishes its state as
        `window.gesturepad` (see Page.__init__); without it the page runs as on a phone."""
        # A window of its own: every tab stays visible (a background tab gets no animation frames).
        target = self.call("Target.createTarget", {"url": "about:blank", "newWindow": True})["targetId"]
        session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        return Page(self, target, session, test_hook)

    def close(self) -> None:
        try:
            self.ws.close()
        except Exception:
            pass
        end_process_group(self.proc)
        shutil.rmtree(self.profile, ignore_errors=True)


# The page's test hook (Public/js/state.js): set before the page's scripts run, this flag makes
# the page publish its state (plain data: status, messages sent and received, what it drew) as
# `window.gesturepad`. Without it the page defines no global at all.
TEST_HOOK = "window.__gesturepadTest = true;"


class Page:
    """One tab, with its CDP session, console errors and WebSocket frames recorded."""

    def __init__(self, browser: Browser, target: str, session: str, test_hook: bool = True) -> None:
        self.browser = browser
        self.target = target
        self.session = session
        self.console_errors: list[str] = []
        self.frames_sent: list[str] = []
        self.frames_received: list[str] = []
        self.secret: str | None = None
        browser.listeners.append(self._event)
        for method in ("Runtime.enable", "Network.enable", "Page.enable"):
            self.call(method)
        if test_hook:  # every document this tab loads from now on (reloads too)
            self.call("Page.addScriptToEvaluateOnNewDocument", {"source": TEST_HOOK})

    def _event(self, msg: dict) -> None:
        if msg.get("sessionId") != self.session:
            return
        method, params = msg.get("method"), msg.get("params", {})
        if method == "Runtime.exceptionThrown":
            self.console_errors.append(json.dumps(params.get("exceptionDetails", {}))[:500])
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            self.console_errors.append(json.dumps(params.get("args", []))[:500])
        elif method == "Network.webSocketFrameSent":
            self.frames_sent.append(params["response"]["payloadData"])
        elif method == "Network.webSocketFrameReceived":
            self.frames_received.append(params["response"]["payloadData"])

    def send(self, method: str, params: dict | None = None) -> Pending:
        return self.browser.send(method, params, self.session)

    def call(self, method: str, params: dict | None = None, timeout: float = 10.0) -> Any:
        return self.browser.call(method, params, self.session, timeout)

    def phone(self) -> None:
        """Pixel-8-like phone: 390×844 CSS px at DPR 3, touch with 5 points, mobile UA."""
        self.call("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True})
        self.call("Emulation.setUserAgentOverride", {"userAgent": (
            "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
            "Chrome/126.0.0.0 Mobile Safari/537.36")})
        self.call("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})

    def desktop(self, width: int = 1000, height: int = 720) -> None:
        self.call("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})

    def navigate(self, url: str) -> None:
        if "#token=" in url:  # the pairing secret of the link: opens the page's sealed frames (wire_sent)
            self.secret = url.split("#token=", 1)[1].split("&", 1)[0]
        self.call("Page.navigate", {"url": url})

    def wire_sent(self) -> list[str]:
        """The frames the tab sent (CDP, the real wire), each sealed one opened with the keys
        of its connection's handshake (tests/sealing.py): after the proof every frame goes
        sealed (docs/protocol.md "Sealed messages"), so this is how a test reads them."""
        from sealing import open_page_frames

        exchanges = self.eval("JSON.parse(sessionStorage.getItem('gesturepad.test.exchanges') || '[]')") or []
        return open_page_frames(list(self.frames_sent), list(self.frames_received), self.secret,
                                lambda: self.eval("localStorage.getItem('gesturepad.deviceKey')"), exchanges)

    def eval(self, expression: str) -> Any:
        r = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in r:
            raise CDPError(json.dumps(r["exceptionDetails"])[:500])
        return r["result"].get("value")

    def state(self) -> dict:
        """The page state the test hook publishes (`window.gesturepad`), as plain data."""
        return self.eval("JSON.parse(JSON.stringify(window.gesturepad || null))")

    def module(self, path: str, expression: str) -> Any:
        """Evaluates `expression` with `m` bound to the page's ES module `path` (e.g.
        "js/connection.js"): the same module instance the page runs, imported by URL."""
        return self.eval(f"import(new URL({json.dumps(path)}, location.href).href).then(function (m) {{ return {expression}; }})")

    def wait_for(self, expression: str, timeout: float = 5.0) -> Any:
        """Polls a JS expression until it is truthy; returns its value."""
        deadline = time.monotonic() + timeout
        value = None
        while time.monotonic() < deadline:
            try:
                value = self.eval(expression)
            except CDPError:
                value = None
            if value:
                return value
            time.sleep(0.03)
        raise AssertionError(f"timed out waiting for: {expression} (last value {value!r})")

    def screenshot(self, path: str) -> None:
        import base64

        data = self.call("Page.captureScreenshot", {"format": "png"})["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def close(self) -> None:
        if self._event in self.browser.listeners:
            self.browser.listeners.remove(self._event)
        try:
            self.browser.call("Target.closeTarget", {"targetId": self.target}, timeout=3)
        except Exception:
            pass
