"""The three engines phones open the page in, behind one small interface for the scenario suite
(test_browser_engines.py): Chromium (CDP, browser_cdp.py), Gecko (Firefox ESR through WebDriver
BiDi, browser_bidi.py) and WebKit (WebKitGTK's MiniBrowser through WebKitWebDriver,
browser_webdriver.py).

A gesture is written once as a `Touches` script (fingers down, moving, up, at ms from its start)
and played by each engine its own way:
- Chromium: CDP touch events stamped with their exact times (browser_harness.Player);
- Gecko: `input.performActions` with one touch source per finger, in real time;
- WebKit: one finger as the mouse through W3C actions (WebKit's driver plays touch as the
  mouse anyway); several fingers as synthetic touch PointerEvents dispatched by a script on
  the page's own schedule — the page's code in WebKit's engine, not WebKit's touch input.
"""

from __future__ import annotations

import json
import os
import time
from typing import Any

from browser_bidi import FIREFOX, BiDiError, Firefox
from browser_cdp import CHROMIUM, TEST_HOOK, Browser, CDPError
from browser_harness import Player
from browser_webdriver import MINIBROWSER, WEBKIT_DRIVER, WebDriverError, WebKit
from touches import ENTER, SYNTHETIC_JS, Touches, key_actions, synthetic_frames

ENGINES = ("chromium", "firefox", "webkit")
BINARIES = {"chromium": (CHROMIUM,), "firefox": (FIREFOX,), "webkit": (WEBKIT_DRIVER, MINIBROWSER)}
PACKAGES = {"chromium": "chromium", "firefox": "firefox-esr", "webkit": "webkit2gtk-driver"}
# make test sets these: a missing engine fails the run instead of skipping.
REQUIRE = {"chromium": "GESTUREPAD_REQUIRE_BROWSER", "firefox": "GESTUREPAD_REQUIRE_FIREFOX",
           "webkit": "GESTUREPAD_REQUIRE_WEBKIT"}


def missing(engine: str) -> list[str]:
    return [p for p in BINARIES[engine] if not (os.path.isfile(p) and os.access(p, os.X_OK))]


def required(engine: str) -> bool:
    return bool(os.environ.get(REQUIRE[engine]))


# What a script returns, as JSON text: the same plain data from every engine's evaluation.
AS_JSON = ("Promise.resolve().then(function () {{ return ({expr}); }}).then(function (v) {{"
           " return JSON.stringify(v === undefined ? null : v); }})")

class EnginePage:
    """One page in one engine: evaluate, wait, navigate, play touches, type; console errors."""

    engine = ""
    realtime_input = True  # touches played in real time (not stamped with their times)

    def eval(self, expr: str) -> Any:
        raise NotImplementedError

    def wait_for(self, expr: str, timeout: float = 8.0) -> Any:
        deadline = time.monotonic() + timeout
        value = None
        while time.monotonic() < deadline:
            try:
                value = self.eval(expr)
            except (CDPError, BiDiError, WebDriverError):
                value = None
            if value:
                return value
            time.sleep(0.03)
        raise AssertionError(f"{self.engine}: timed out waiting for: {expr} (last value {value!r})")

    def play(self, touches: Touches, realtime: bool = False) -> None:
        raise NotImplementedError

    def tap_at(self, x: float, y: float, hold_ms: float = 60) -> None:
        """A tap by one finger as the engine's real input (in real time)."""
        self.play(Touches().down(0, f1=(x, y)).up(hold_ms), realtime=True)

    def state(self) -> dict:
        return self.eval("window.gesturepad || null")

    def live(self, timeout: float = 10.0) -> None:
        self.wait_for("window.gesturepad && window.gesturepad.status === 'live'", timeout)


class ChromiumPage(EnginePage):
    engine = "chromium"
    realtime_input = False  # every event stamped with its time (browser_harness.Player)

    def __init__(self, browser: Browser) -> None:
        self.page = browser.new_page()
        self.page.phone()

    def open(self, url: str) -> None:
        self.page.navigate(url)

    def reload(self) -> None:
        self.page.call("Page.reload")

    def eval(self, expr: str) -> Any:
        text = self.page.eval(AS_JSON.format(expr=expr))
        return json.loads(text) if isinstance(text, str) else None

    def play(self, touches: Touches, realtime: bool = False) -> None:
        player = Player(self.page, realtime=realtime)
        kinds = {"down": "touchStart", "move": "touchMove", "up": "touchEnd"}
        for kind, ms, after, _ in touches.frames:
            player.frame(kinds[kind], ms, after)
        player.finish()

    def type_text(self, text: str) -> None:
        self.page.call("Input.insertText", {"text": text})

    def enter(self) -> None:
        for kind in ("keyDown", "keyUp"):
            self.page.call("Input.dispatchKeyEvent", {"type": kind, "key": "Enter", "code": "Enter", "windowsVirtualKeyCode": 13,
                                                      **({"text": "\r"} if kind == "keyDown" else {})})

    def console_errors(self) -> list[str]:
        return list(self.page.console_errors)

    def close(self) -> None:
        self.page.close()


class FirefoxPage(EnginePage):
    engine = "firefox"

    def __init__(self, browser: Firefox) -> None:
        self.browser = browser
        self.context = browser.new_context()
        self.errors: list[str] = []
        browser.listeners.append(self._event)
        browser.call("browsingContext.setViewport", {"context": self.context, "viewport": {"width": 390, "height": 844},
                                                     "devicePixelRatio": 3})
        browser.call("script.addPreloadScript", {"functionDeclaration": f"function () {{ {TEST_HOOK} }}",
                                                 "contexts": [self.context]})

    def _event(self, msg: dict) -> None:
        p = msg.get("params", {})
        if msg.get("method") == "log.entryAdded" and p.get("level") == "error" and \
                p.get("source", {}).get("context") == self.context:
            text = str(p.get("text"))
            # Firefox also logs the page's WebSocket failing to connect (the server stopped) or
            # cut by a navigation: the page's own business (it reconnects), not a script error
            # (the other engines' consoles, as read here, leave network errors out too).
            if "ws://" in text or "wss://" in text:
                return
            self.errors.append(text[:500])

    def open(self, url: str) -> None:
        self.browser.call("browsingContext.navigate", {"context": self.context, "url": url, "wait": "complete"})

    def reload(self) -> None:
        self.browser.call("browsingContext.reload", {"context": self.context, "wait": "complete"})

    def eval(self, expr: str) -> Any:
        r = self.browser.call("script.evaluate", {"expression": AS_JSON.format(expr=expr), "target": {"context": self.context},
                                                  "awaitPromise": True})
        if r.get("type") == "exception":
            raise BiDiError(json.dumps(r.get("exceptionDetails"))[:500])
        return json.loads(r["result"]["value"])

    def play(self, touches: Touches, realtime: bool = False) -> None:
        self.browser.call("input.performActions", {"context": self.context, "actions": touches.actions("touch")}, timeout=60)
        self.browser.call("input.releaseActions", {"context": self.context})

    def _keys(self, text: str) -> None:
        self.browser.call("input.performActions", {"context": self.context, "actions": key_actions(text)})

    def type_text(self, text: str) -> None:
        self._keys(text)

    def enter(self) -> None:
        self._keys(ENTER)

    def console_errors(self) -> list[str]:
        return list(self.errors)

    def close(self) -> None:
        if self._event in self.browser.listeners:
            self.browser.listeners.remove(self._event)
        try:
            self.browser.call("browsingContext.close", {"context": self.context}, timeout=5)
        except Exception:
            pass


# WebKit's driver cannot run a script before the page's own: the page state is taken from the
# page's state module (the same instance the page runs) once it exists, and errors are collected
# by listeners from then on (the driver cannot read MiniBrowser's console).
WEBKIT_HOOK = ("import(new URL('js/state.js', location.href).href).then(function (m) {"
               " if (!window.__gpErrors) { window.__gpErrors = [];"
               "  addEventListener('error', function (e) { __gpErrors.push(String(e.message)); });"
               "  addEventListener('unhandledrejection', function (e) { __gpErrors.push(String(e.reason)); }); }"
               " window.gesturepad = m.pageState(); return !!window.gesturepad; })")


class WebKitPage(EnginePage):
    engine = "webkit"

    def __init__(self, browser: WebKit) -> None:
        self.browser = browser
        self.handle = browser.new_window(390, 844)

    def _cmd(self, method: str, path: str, body: dict | None = None, timeout: float = 70.0) -> Any:
        return self.browser.command(self.handle, method, path, body, timeout)

    def _hook(self) -> None:
        self.wait_for(WEBKIT_HOOK, 10)

    def open(self, url: str) -> None:
        self._cmd("POST", "/url", {"url": url})
        self._hook()

    def reload(self) -> None:
        self._cmd("POST", "/refresh")
        self._hook()

    def eval(self, expr: str) -> Any:
        script = ("var done = arguments[arguments.length - 1]; " + AS_JSON.format(expr=expr) +
                  ".then(done, function (e) { done(JSON.stringify({__error: String(e)})); });")
        text = self._cmd("POST", "/execute/async", {"script": script, "args": []})
        value = json.loads(text) if isinstance(text, str) else None
        if isinstance(value, dict) and "__error" in value and len(value) == 1:
            raise WebDriverError(value["__error"])
        return value

    def play(self, touches: Touches, realtime: bool = False) -> None:
        """Touches on the page as synthetic touch PointerEvents (any number of fingers)."""
        self.eval(f"({SYNTHETIC_JS})({json.dumps(synthetic_frames(touches))})")

    def tap_at(self, x: float, y: float, hold_ms: float = 60) -> None:
        """A tap as real input: the mouse, through W3C actions (the driver's touch is the mouse)."""
        self.play_mouse(Touches().down(0, f1=(x, y)).up(hold_ms))

    def play_mouse(self, touches: Touches) -> None:
        """One finger's script as real input: the mouse, through W3C actions, in real time."""
        self._cmd("POST", "/actions", {"actions": touches.actions("mouse")})
        self._cmd("DELETE", "/actions")

    def _keys(self, text: str) -> None:
        self._cmd("POST", "/actions", {"actions": key_actions(text)})
        self._cmd("DELETE", "/actions")

    def type_text(self, text: str) -> None:
        self._keys(text)

    def enter(self) -> None:
        self._keys(ENTER)

    def console_errors(self) -> list[str]:
        return self.eval("window.__gpErrors || []")

    def close(self) -> None:
        self.browser.close_window(self.handle)


class Engine:
    """One engine's browser process for the session; `page()` opens a phone-sized page."""

    def __init__(self, name: str, display: str | None = None, trust_ca: bytes | None = None,
                 nss_home: str | None = None) -> None:
        self.name = name
        if name == "chromium":
            self.browser: Any = Browser(env={"HOME": nss_home} if nss_home else None)
        elif name == "firefox":
            self.browser = Firefox(ca_pem=trust_ca)
        else:
            assert display, "WebKit needs an X display"
            self.browser = WebKit(display, accept_insecure_certs=trust_ca is not None)

    def page(self) -> EnginePage:
        kinds = {"chromium": ChromiumPage, "firefox": FirefoxPage, "webkit": WebKitPage}
        return kinds[self.name](self.browser)

    def close(self) -> None:
        self.browser.close()


def open_page(engine: Engine, server, path: str = "/", token: bool = True, control: bool = False) -> EnginePage:
    """A page of `server` (a browser_harness.Server) opened with the pairing link, live; with
    `control`, also its settings answered (a server that drives the computer)."""
    page = engine.page()
    page.open(f"{server.origin}{path}" + (f"#token={server.token}" if token else ""))
    page.live()
    if control:
        page.wait_for("!!window.gesturepad.settings")
    return page
