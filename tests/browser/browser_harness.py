"""Test helpers: the real `gesturepad serve` process and a touch player with exact timestamps."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

from browser_cdp import Browser, Page

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
PUBLIC = ROOT / "Public"
BIN = os.environ.get("GESTUREPAD_BIN", str(ROOT / ".build" / "debug" / "gesturepad"))


def sw_files() -> list[str]:
    """The FILES list of Public/sw.js."""
    text = (PUBLIC / "sw.js").read_text()
    body = re.search(r"const FILES = \[(.*?)\];", text, re.S)
    assert body, "sw.js has no FILES list"
    return re.findall(r"'([^']+)'", body.group(1))


# The paths the service worker's caches hold (a promise; evaluate with awaiting).
CACHED_PATHS_JS = ("navigator.serviceWorker.ready.then(function () { return caches.keys(); })"
                   ".then(function (names) { return Promise.all(names.map(function (n) {"
                   " return caches.open(n).then(function (c) { return c.keys(); }); })); })"
                   ".then(function (lists) { return [].concat.apply([], lists).map(function (r) {"
                   " return new URL(r.url).pathname; }); })")


def sw_missing(cached: list[str]) -> list[str]:
    """The files of sw.js's list that `cached` (paths) lacks."""
    return sorted({"/" + f.removeprefix("./") for f in sw_files()} - set(cached))


def trust_ca(nss_dir: str | Path, ca_pem: bytes) -> None:
    """Creates an NSS certificate store in `nss_dir` that trusts `ca_pem` as a CA (certutil):
    Chromium's (HOME/.pki/nssdb), or a Firefox profile's own."""
    nss_dir = Path(nss_dir)
    nss_dir.mkdir(parents=True, exist_ok=True)
    ca = nss_dir / "gesturepad-ca.crt"
    ca.write_bytes(ca_pem)
    certutil = shutil.which("certutil") or "certutil"
    subprocess.run([certutil, "-d", f"sql:{nss_dir}", "-N", "--empty-password"], check=True, capture_output=True)
    subprocess.run([certutil, "-d", f"sql:{nss_dir}", "-A", "-t", "C,,", "-n", "GesturePad local CA", "-i", str(ca)],
                   check=True, capture_output=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`gesturepad serve` on a loopback port, serving this worktree's Public/."""

    def __init__(self, token: str = "t0k3n-browser-test-Secret0123456789abcdefZ", control: str = "off", env: dict | None = None,
                 extra: list[str] | None = None, log_name: str = "browser-server.log") -> None:
        self.port = free_port()
        self.token = token
        self.control = control
        self.env = env
        self.extra = list(extra or [])
        self.proc: subprocess.Popen | None = None
        ARTIFACTS.mkdir(exist_ok=True)
        self.log_path = ARTIFACTS / log_name
        self.log_path.write_bytes(b"")
        # The paired devices (and the TLS keys) of this server, never the developer's own: kept
        # across a restart of the same server, as a real one keeps them.
        self.state_home = tempfile.mkdtemp(prefix="gesturepad-browser-state-")

    @property
    def origin(self) -> str:
        scheme = "https" if "--tls" in self.extra else "http"
        return f"{scheme}://127.0.0.1:{self.port}"

    def start(self) -> None:
        log = open(self.log_path, "ab")
        self.proc = subprocess.Popen(
            [BIN, "serve", "--host", "127.0.0.1", "--port", str(self.port), "--token", self.token,
             "--public", str(ROOT / "Public"), "--control", self.control,
             *([] if "--notify" in self.extra else ["--notify", "off"]), *self.extra],
            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            env={**os.environ, "XDG_STATE_HOME": self.state_home, **(self.env or {})},
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"gesturepad serve exited with {self.proc.returncode}; see {self.log_path}")
            try:
                # Readiness only: the browser, not this probe, judges the certificate.
                unverified = ssl._create_unverified_context() if self.origin.startswith("https") else None
                with urllib.request.urlopen(self.origin + "/", timeout=1, context=unverified) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("gesturepad serve did not come up")

    def stop(self) -> None:
        if self.proc is None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait(5)
        self.proc = None


class Player:
    """Plays touch input, each event with its exact `timestamp` (ms from start).

    Commands are pipelined (no waiting for answers), so the page's `event.timeStamp`
    follows the schedule exactly. `realtime=True` waits for each event's time before
    dispatching it, so the server's timers see real time pass (long press). Otherwise each
    event goes out up to `ahead` seconds before its time, stamped ahead: recognition depends
    only on the timestamps (PROTOCOL.md "Time"), and a loaded machine cannot deliver an `up`
    after a timer that its timestamp precedes. The run-ahead is bounded because the server
    maps deadlines through the smallest `arrival − t` it has seen: a whole schedule sent at
    once would move that offset seconds early, and a busy page that sends the burst in two
    parts would then see a tap-confirmation or long-press timer fire between them, before
    events stamped earlier than its deadline (a loaded CI machine did exactly that)."""

    def __init__(self, page, realtime: bool = False, lead: float = 0.05, radius: float = 6, ahead: float = 0.3) -> None:
        self.page = page
        self.realtime = realtime
        self.ahead = 0.0 if realtime else ahead
        self.radius = radius  # of each finger's contact, CSS px (Chromium adjusts touches by it)
        self.base = time.time() + lead
        self.fingers: dict[int, tuple[float, float]] = {}
        self.pending: list = []
        self.last_ms = 0.0

    def _at(self, ms: float) -> float:
        ts = self.base + ms / 1000.0
        delay = ts - self.ahead - time.time()
        if delay > 0:
            time.sleep(delay)
        self.last_ms = ms
        return ts

    def _points(self) -> list[dict]:
        r = self.radius
        return [{"x": x, "y": y, "id": i, "radiusX": r, "radiusY": r, "force": 1} for i, (x, y) in self.fingers.items()]

    def _touch(self, kind: str, ms: float, points: list[dict]) -> None:
        ts = self._at(ms)
        self.pending.append(self.page.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points, "timestamp": ts}))

    def frame(self, kind: str, ms: float, fingers: dict[int, tuple[float, float]]) -> None:
        """One touch event (touchStart, touchMove, touchEnd) with exactly these fingers in contact."""
        self.fingers = dict(fingers)
        self._touch(kind, ms, self._points())

    def down(self, ms: float, **fingers: tuple[float, float]) -> None:
        """Puts fingers down (keyword f<N>=(x, y)); fingers already down stay."""
        for name, xy in fingers.items():
            self.fingers[int(name[1:])] = xy
        self._touch("touchStart", ms, self._points())

    def move(self, ms: float, duration: float, step: float = 16.0, **targets: tuple[float, float]) -> None:
        """Moves fingers in a straight line to their targets over `duration` ms, one step per `step` ms."""
        starts = {int(k[1:]): self.fingers[int(k[1:])] for k in targets}
        ends = {int(k[1:]): v for k, v in targets.items()}
        n = max(1, round(duration / step))
        for i in range(1, n + 1):
            f = i / n
            for fid in ends:
                (x0, y0), (x1, y1) = starts[fid], ends[fid]
                self.fingers[fid] = (round(x0 + (x1 - x0) * f, 2), round(y0 + (y1 - y0) * f, 2))
            self._touch("touchMove", ms + duration * f, self._points())

    def path(self, ms: float, duration: float, fn, step: float = 16.0) -> None:
        """Moves fingers along fn(f) -> {id: (x, y)} for f in (0, 1]."""
        n = max(1, round(duration / step))
        for i in range(1, n + 1):
            self.fingers.update(fn(i / n))
            self._touch("touchMove", ms + duration * i / n, self._points())

    def up(self, ms: float, *ids: int) -> None:
        """Lifts the given fingers (all when none given)."""
        lift = list(ids) or list(self.fingers)
        for fid in lift:
            self.fingers.pop(fid, None)
        self._touch("touchEnd", ms, self._points())

    def cancel(self, ms: float) -> None:
        self.fingers.clear()
        self._touch("touchCancel", ms, [])

    def mouse(self, ms: float, x: float, y: float, pointer_type: str = "mouse") -> None:
        ts = self._at(ms)
        self.pending.append(self.page.send("Input.dispatchMouseEvent", {
            "type": "mouseMoved", "x": x, "y": y, "button": "none", "buttons": 0, "pointerType": pointer_type, "timestamp": ts}))

    def finish(self, settle_ms: float = 0) -> None:
        for p in self.pending:
            p.wait(10)
        self.pending.clear()
        if settle_ms:
            time.sleep(settle_ms / 1000.0)


def tap_and_drag(page, lift: bool = True) -> Player:
    """In real time: a tap at (200, 500), a touch there 100 ms later dragging 60, 40 px over
    200 ms, and its lift at 400 ms (unless `lift` is false: the player, to lift it later)."""
    p = Player(page, realtime=True)
    p.down(0, f1=(200, 500))
    p.up(50)
    p.down(150, f1=(200, 500))
    p.move(170, 200, f1=(260, 540))
    if lift:
        p.up(400)
    p.finish()
    return p


def gestures(state: dict, name: str | None = None, phase: str | None = None) -> list[dict]:
    """The gesture messages the page received, optionally of one gesture / phase."""
    out = [m for m in state["received"] if m.get("type") == "gesture"]
    if name:
        out = [m for m in out if m["gesture"] == name]
    if phase:
        out = [m for m in out if m["phase"] == phase]
    return out


def pointer_messages(state: dict) -> list[dict]:
    return [m for m in state["sent"] if m.get("type") in ("down", "move", "up", "cancel", "leave")]


def settle(page, until: str, timeout: float = 5.0) -> dict:
    """Waits for a condition on window.gesturepad (`g`), then returns the page state."""
    try:
        page.wait_for(f"(function(g){{return {until};}})(window.gesturepad)", timeout)
    except AssertionError as e:
        st = page.state() or {}
        sent = [(m.get("type"), m.get("t")) for m in st.get("sent", []) if m.get("type") != "move"]
        got = [(m.get("gesture"), m.get("phase"), m.get("t")) for m in st.get("received", [])
               if m.get("type") == "gesture" and m.get("phase") != "changed"]
        raise AssertionError(f"{e}\nstatus={st.get('status')} sent={sent}\nreceived={got}") from None
    return page.state()


def has_gesture(name: str, phase: str | None = None) -> str:
    cond = f"m.gesture==='{name}'" + (f"&&m.phase==='{phase}'" if phase else "")
    return f"g.received.some(function(m){{return m.type==='gesture'&&{cond};}})"


def check_wire(page, state: dict) -> list[list]:
    """The first frame is the proof (`auth`, docs/protocol.md "Proof handshake"); every later
    frame is sealed (docs/protocol.md "Sealed messages") and holds the `hello`, then one JSON
    array or one `text` / `key` / `button` / `media` each; together they are exactly what the page says
    it sent."""
    deadline = time.monotonic() + 2
    # The proof is the one frame the page does not count as sent.
    while len(page.frames_sent) < state["framesSent"] + 1 and time.monotonic() < deadline:
        time.sleep(0.02)
    raw = list(page.frames_sent)
    assert all(f.startswith('{"type":"sealed","box":"') for f in raw[1:]), "a frame after the proof went plain"
    frames = [json.loads(f) for f in page.wire_sent()[:len(raw)]]
    auth, hello = frames[0], frames[1]
    assert isinstance(auth, dict) and auth["type"] == "auth" and len(auth["proof"]) == 43
    assert isinstance(hello, dict) and hello["type"] == "hello" and hello["role"] == "touchpad"
    assert (hello["protocol"], hello["width"], hello["height"], hello["dpr"]) == (1, 390, 844, 3)
    later = frames[2:]
    batches = [f for f in later if isinstance(f, list)]
    singles = [f for f in later if isinstance(f, dict) and f.get("type") in SEALED_TYPES]
    assert len(batches) + len(singles) == len(later), "every later frame is a JSON array or a text, key, button or media"
    assert all(batches), "no batch is empty"
    assert len(batches) == state["batchesSent"]
    flat = [m for b in batches for m in b]
    assert flat == [m for m in state["sent"][1:] if m["type"] not in SEALED_TYPES]
    assert singles == [m for m in state["sent"] if m["type"] in SEALED_TYPES]
    stamps = [b["frame"] for b in state["batches"] if b["frame"] is not None]
    assert len(stamps) == len(set(stamps)), "at most one batch per animation frame"
    return batches


def feed(page) -> list[dict]:
    return page.eval(
        "Array.from(document.querySelectorAll('#feed li')).map(function(li){"
        "return {gesture: li.dataset.gesture, phase: li.dataset.phase, session: li.dataset.session || null,"
        " text: li.textContent.replace(/\\s+/g, ' ').trim()};})")


def set_details(page, on: bool) -> None:
    """Switches the feed's details mode with the header button (a click, as a person would)."""
    if bool(page.eval("!!window.gesturepad.details")) != on:
        page.eval("document.getElementById('details').click(), 1")
    page.wait_for(f"window.gesturepad.details === {'true' if on else 'false'}")


def names(state: dict, skip=("press", "release", "end")) -> list[str]:
    return [m["gesture"] for m in gestures(state) if m["gesture"] not in skip]


def no_console_errors(page) -> None:
    assert page.console_errors == [], page.console_errors


PREFS = ("gesturepad.details", "gesturepad.settings", "gesturepad.mouseBar", "gesturepad.hintSeen")
# Run before the page's scripts: this tab's browser holds no device key (docs/server.md "Pairing").
UNPAIR = ("localStorage.removeItem('gesturepad.deviceKey'); localStorage.removeItem('gesturepad.deviceId'); "
          "localStorage.removeItem('gesturepad.deviceName');")


def forget_prefs(page) -> None:
    """Removes what a test stored on the "phone" (details mode, settings, mouse bar), so the
    next test of the same origin starts clean; the token stays."""
    keys = ",".join(f"'{k}'" for k in PREFS)
    try:
        page.eval(f"[{keys}].forEach(function(k){{localStorage.removeItem(k);}}), 1")
    except Exception:  # the page may be gone already
        pass


def open_pad(browser: Browser, server: Server, token: str | None = None, wait_live: bool = True,
             unpaired: bool = False) -> Page:
    """A phone tab opened with the pairing link. The browser keeps a device key per server
    (origin) once a tab paired; `unpaired` removes it first, as on a phone never paired."""
    page = browser.new_page()
    page.phone()
    if unpaired:
        page.call("Page.addScriptToEvaluateOnNewDocument", {"source": UNPAIR})
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


# ---- controls for the computer -------------------------------------------------------------

CONTROL_TYPES = ("text", "key", "button", "settings")


SEALED_TYPES = ("text", "key", "button", "media")


def wire_messages(page, types: tuple[str, ...] = CONTROL_TYPES) -> list[dict]:
    """The messages of the given types in the WebSocket frames the tab really sent (CDP
    Network.webSocketFrameSent), in order — the page's output, not what it says it sent —
    sealed frames opened with the keys of their connection's handshake (`Page.wire_sent`)."""
    out = []
    for frame in page.wire_sent():
        data = json.loads(frame)
        for m in data if isinstance(data, list) else [data]:
            if isinstance(m, dict) and m.get("type") in types:
                out.append(m)
    return out


def wait_wire(page, count: int, types: tuple[str, ...] = CONTROL_TYPES, timeout: float = 3.0) -> list[dict]:
    """Waits until at least `count` such messages went out, then a little more (to see extras)."""
    deadline = time.monotonic() + timeout
    while len(wire_messages(page, types)) < count and time.monotonic() < deadline:
        time.sleep(0.02)
    time.sleep(0.15)
    return wire_messages(page, types)


def center(page, selector: str) -> tuple[float, float]:
    box = page.eval(f"(function(e){{var r=e.getBoundingClientRect();return [r.left+r.width/2,r.top+r.height/2,r.width];}})"
                    f"(document.querySelector({json.dumps(selector)}))")
    assert box[2] > 0, f"{selector} is not displayed"
    return box[0], box[1]


def tap_element(page, selector: str, hold_ms: float = 50, finger: int = 9) -> None:
    """A finger taps the element's centre (touchStart, touchEnd `hold_ms` later, in real time)."""
    x, y = center(page, selector)
    p = Player(page, realtime=True)
    p.down(0, **{f"f{finger}": (x, y)})
    p.up(hold_ms)
    p.finish()


def key_event(page, key: str, code: str, vk: int, text: str | None = None) -> None:
    """A hardware-style key press into the focused element (keyDown + keyUp)."""
    down = {"type": "keyDown", "key": key, "code": code, "windowsVirtualKeyCode": vk}
    if text:
        down["text"] = text
    page.call("Input.dispatchKeyEvent", down)
    page.call("Input.dispatchKeyEvent", {"type": "keyUp", "key": key, "code": code, "windowsVirtualKeyCode": vk})


def open_ctl_pad(browser: Browser, server: Server, script: str | None = None) -> Page:
    """A touchpad tab on a server that drives the computer, live with its settings answered."""
    page = browser.new_page()
    page.phone()
    if script:
        page.call("Page.addScriptToEvaluateOnNewDocument", {"source": script})
    page.navigate(f"{server.origin}/#token={server.token}")
    page.wait_for("window.gesturepad && window.gesturepad.status === 'live' && !!window.gesturepad.settings", 8)
    return page


# ---- what is on screen: text boxes, clipping, overlaps, contrast ---------------------------

# Every visible text node under `scope` (a selector, or the body): its rectangles, whether an
# ancestor that clips (overflow not visible) or the viewport cuts it, its colour composited with
# the opacity of its ancestors, and the background behind it (every ancestor's background
# colour composited from the page's down, with their opacity).
TEXT_JS = r"""
(function (scope) {
  var root = scope ? document.querySelector(scope) : document.body;
  function rgba(s) { var m = s.match(/rgba?\(([^)]+)\)/); if (!m) return [0,0,0,0];
    var p = m[1].split(/[ ,\/]+/).filter(Boolean).map(parseFloat); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; }
  function over(top, bottom, a) { return [0,1,2].map(function (i) { return top[i] * a + bottom[i] * (1 - a); }); }
  function shown(el) {
    for (var e = el; e; e = e.parentElement) {
      var cs = getComputedStyle(e);
      if (cs.display === 'none' || cs.visibility === 'hidden' || parseFloat(cs.opacity) === 0) return false;
    }
    return true;
  }
  function chain(el) { var c = []; for (var e = el; e; e = e.parentElement) c.unshift(e); return c; }
  function name(el) { return el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\s+/).join('.') : ''); }
  var out = [], walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    var n = walker.currentNode;
    if (!n.data.trim()) continue;
    var el = n.parentElement;
    if (!el || !shown(el) || el.closest('svg, script, style, title')) continue;
    var range = document.createRange(); range.selectNodeContents(n);
    var rects = Array.prototype.filter.call(range.getClientRects(), function (q) { return q.width > 0.5 && q.height > 0.5; });
    if (!rects.length) continue;
    // colours
    var bg = [13, 17, 23], opacity = 1, anc = chain(el);
    for (var i = 0; i < anc.length; i++) {
      var cs = getComputedStyle(anc[i]);
      opacity *= parseFloat(cs.opacity);
      var c = rgba(cs.backgroundColor);
      if (c[3] > 0) bg = over(c, bg, c[3] * opacity);
    }
    var fgc = rgba(getComputedStyle(el).color), fg = over(fgc, bg, fgc[3] * opacity);
    // clipping
    var clips = anc.filter(function (a) { var cs = getComputedStyle(a); return a !== document.documentElement && a !== document.body &&
      (cs.overflowX !== 'visible' || cs.overflowY !== 'visible'); });
    rects.forEach(function (q) {
      var cut = [];
      if (q.left < -0.5 || q.top < -0.5 || q.right > innerWidth + 0.5 || q.bottom > innerHeight + 0.5) cut.push('viewport');
      clips.forEach(function (a) {
        var r = a.getBoundingClientRect(), cs = getComputedStyle(a);
        var l = r.left + a.clientLeft, t = r.top + a.clientTop, rr = l + a.clientWidth, bb = t + a.clientHeight;
        if (q.left < l - 0.5 || q.right > rr + 0.5 || q.top < t - 0.5 || q.bottom > bb + 0.5) cut.push(name(a));
      });
      out.push({ text: n.data.trim().slice(0, 60), el: name(el), x: q.left, y: q.top, w: q.width, h: q.height,
                 fg: fg, bg: bg, fontSize: parseFloat(getComputedStyle(el).fontSize), cut: cut });
    });
  }
  return out;
})
"""


def texts(page, scope: str | None = None) -> list[dict]:
    return page.eval(f"({TEXT_JS})({json.dumps(scope)})")


def luminance(rgb) -> float:
    def ch(c):
        c = c / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (ch(v) for v in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(fg, bg) -> float:
    a, b = sorted((luminance(fg), luminance(bg)), reverse=True)
    return (a + 0.05) / (b + 0.05)


def overlaps(boxes: list[dict], gap: float = 0.5) -> list[tuple[str, str]]:
    """Pairs of boxes that intersect by more than `gap` px both ways."""
    found = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            if (min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"]) > gap and
                    min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"]) > gap):
                found.append((f"{a.get('text')!r} ({a.get('el', '')})", f"{b.get('text')!r} ({b.get('el', '')})"))
    return found


def check_screen(page, scope: str | None = None, min_contrast: float = 4.5) -> list[dict]:
    """Asserts that no visible text is clipped, no two texts overlap and every text has a
    contrast of at least `min_contrast` with what is behind it. Returns the text boxes."""
    boxes = texts(page, scope)
    assert boxes, "no visible text found"
    cut = [(b["text"], b["el"], b["cut"]) for b in boxes if b["cut"]]
    assert not cut, f"clipped text: {cut}"
    assert not overlaps(boxes), f"overlapping text: {overlaps(boxes)}"
    low = [(b["text"], b["el"], round(contrast(b["fg"], b["bg"]), 2)) for b in boxes if contrast(b["fg"], b["bg"]) < min_contrast]
    assert not low, f"text below {min_contrast}:1 contrast: {low}"
    return boxes


PANELS_JS = ("Array.from(document.querySelectorAll('#feed li, .sessions, #tools, #keys, #mousebar, .bar > *'))"
             ".filter(function(e){return e.getClientRects().length;}).map(function(e){var r=e.getBoundingClientRect();"
             "return {x:r.left,y:r.top,w:r.width,h:r.height,text:e.id||e.className};})")


def check_canvas(page, width: float, height: float, top: float = 0) -> dict:
    """Asserts that the live view's last frame drew its labels apart, inside the screen (below
    `top`, the header) and clear of the page's panels (feed rows, session list, toolbar, header
    pills), its rings inside the screen. Returns the frame record."""
    frame = page.eval("JSON.parse(JSON.stringify(window.gesturepad.frame))")
    panels = page.eval(PANELS_JS)
    hidden = [(lb["text"], p["text"]) for lb in frame["labels"] for p in panels if overlaps([lb, p])]
    assert not hidden, f"canvas labels under page panels: {hidden}"
    for lb in frame["labels"]:
        assert lb["x"] >= -0.5 and lb["y"] >= top - 0.5 and lb["x"] + lb["w"] <= width + 0.5 and lb["y"] + lb["h"] <= height + 0.5, \
            f"label outside the screen: {lb}"
    assert not overlaps(frame["labels"]), f"overlapping labels: {overlaps(frame['labels'])}"
    for ring in frame["rings"]:
        assert ring["x"] >= -0.5 and ring["y"] >= -0.5 and ring["x"] + ring["w"] <= width + 0.5 and ring["y"] + ring["h"] <= height + 0.5, \
            f"ring cut by the screen edge: {ring}"
    return frame
