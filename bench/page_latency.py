#!/usr/bin/env python3
"""Touch → pointer latency through the page (issue 21): real headless Chromium driving the real
page, the real `gesturepad serve --control x11` moving a private Xvfb's pointer.

For each page and input rate, one finger moves back and forth at 60 or 120 Hz, each touch
dispatched with CDP `Input.dispatchTouchEvent` at its own time with that time as its
`timestamp` (so the event's `timeStamp` is when the touch "happened"). Instrumentation put in
the tab before the page's scripts records, on the page's clock:
  - when each move's `pointerrawupdate` and `pointermove` were dispatched (a listener on
    `window`, capture phase: before the page sees them). `pointerrawupdate` is the floor: the
    earliest moment any page can know of the move;
  - when the page handed each move to the WebSocket (`WebSocket.prototype.send` wrapped), the
    move found by its `t`.
An X client records the pointer's motion with the X server's timestamps (the monotonic clock,
in ms), matched to the touches by position (flat acceleration, speed 1: one CSS px of finger
travel is one screen px).

The pages, in the same run and the same browser:
  - today: `Public/` as it was at TODAY_REF (`git archive`; before issue 21), served by the same
    server binary;
  - new: this tree's `Public/`;
  - new, no pointerrawupdate: this tree's page with the event handler property deleted before
    its scripts run (what a browser without the event gets: Safari).

Timing the CDP call itself would measure Chromium's acknowledgement, not the page: nothing
here does. Prints one JSON object (also written to --out).

    python3 bench/page_latency.py BINARY [--seconds 4] [--rounds 2] [--out FILE]
Needs Xvfb, Chromium (Debian `chromium`), Python websockets and python-xlib.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.request
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "browser"))
sys.path.insert(0, str(ROOT / "tests" / "control"))

from browser_cdp import Browser  # noqa: E402
from x11_harness import XWatcher, Xvfb  # noqa: E402

# "Today's page": main just before issue 21 changed the page (moves on pointerrawupdate).
TODAY_REF = "adb900e"
TOKEN = "bench-page-latency-Secret0123456789abcdefZ"
STEP_PX = 3  # finger travel per touch sample, CSS px (= screen px: flat, speed 1)
MATCH_AHEAD = 6  # how many moves ahead an X motion is matched to a touch (see measure)
HOME = (960, 540)

INSTRUMENT = """
(function () {
  var b = window.__bench = { raw: [], move: [], sends: [] };
  function stamp(list) {
    return function (e) {
      var now = performance.now(), c = e.getCoalescedEvents ? e.getCoalescedEvents() : [];
      (c.length ? c : [e]).forEach(function (x) { list.push([Math.round(x.timeStamp * 1000) / 1000, now]); });
    };
  }
  window.addEventListener('pointerrawupdate', stamp(b.raw), true);
  window.addEventListener('pointermove', stamp(b.move), true);
  var send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    b.sends.push([performance.now(), typeof data === 'string' ? data : '']);
    return send.apply(this, arguments);
  };
})();
"""
NO_RAW_UPDATES = """
[window, Window.prototype, Document.prototype, HTMLElement.prototype, SVGElement.prototype, Element.prototype]
  .forEach(function (o) { delete o.onpointerrawupdate; });
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def percentile(values: list[float], p: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def summary(values: list[float]) -> dict:
    return {"n": len(values), "p50": percentile(values, 50), "p90": percentile(values, 90),
            "p99": percentile(values, 99)}


def today_page(work: Path) -> Path | None:
    """Public/ at TODAY_REF, or None when this clone cannot give it (no git, a shallow clone)."""
    try:
        data = subprocess.run(["git", "-C", str(ROOT), "archive", TODAY_REF, "Public"], capture_output=True,
                              check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    with tarfile.open(fileobj=BytesIO(data)) as archive:
        try:
            archive.extractall(work / "today", filter="data")
        except TypeError:  # Python before 3.11.4: no filters (the archive is this repository's own)
            archive.extractall(work / "today")
    return work / "today" / "Public"


class Serve:
    """`gesturepad serve --control x11 --acceleration flat --speed 1` for one page folder."""

    def __init__(self, binary: str, public: Path, display: str, work: Path):
        self.port = free_port()
        self.state = tempfile.mkdtemp(prefix="state-", dir=work)
        self.log = open(work / f"serve-{self.port}.log", "wb")
        self.process = subprocess.Popen(
            [binary, "serve", "--host", "127.0.0.1", "--port", str(self.port), "--token", TOKEN, "--no-qr",
             "--quiet", "--notify", "off", "--public", str(public), "--control", "x11",
             "--acceleration", "flat", "--speed", "1"],
            stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True,
            env={**os.environ, "DISPLAY": display, "XDG_STATE_HOME": self.state})
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gesturepad serve exited: see {self.log.name}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/", timeout=1):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("gesturepad serve did not come up")

    def stop(self) -> None:
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=10)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.log.close()


def open_tab(browser: Browser, serve: Serve, scripts: list[str]):
    page = browser.new_page(test_hook=False)
    page.phone()
    for source in scripts:
        page.call("Page.addScriptToEvaluateOnNewDocument", {"source": source})
    page.navigate(f"http://127.0.0.1:{serve.port}/#token={TOKEN}")
    page.wait_for("document.querySelector('#status b') && document.querySelector('#status b').textContent === 'live'", 15)
    return page


def play(page, hz: float, seconds: float) -> list[tuple[float, float]]:
    """One finger down at (40, 420), moving STEP_PX at a time back and forth between x 40 and
    340, `hz` touches a second for `seconds`, each dispatched at its own (epoch) time with that
    time as its timestamp; then up. Returns (epoch timestamp, finger x) of every move."""
    step = 1.0 / hz
    count = int(hz * seconds)
    base = time.time() + 0.1
    pending = []

    def touch(kind: str, at: float, x: float | None):
        delay = at - time.time()
        if delay > 0:
            time.sleep(delay)
        points = [] if x is None else [{"x": x, "y": 420, "id": 1, "radiusX": 6, "radiusY": 6, "force": 1}]
        pending.append(page.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points, "timestamp": at}))

    x, direction, moves = 40.0, 1, []
    touch("touchStart", base, x)
    for k in range(1, count + 1):
        if not 40 <= x + direction * STEP_PX <= 340:
            direction = -direction
        x += direction * STEP_PX
        at = base + k * step
        touch("touchMove", at, x)
        moves.append((at, x))
    touch("touchEnd", base + (count + 1) * step, None)
    for p in pending:
        p.wait(20)
    return moves


def measure(page, watcher: XWatcher, hz: float, seconds: float, clocks: dict) -> dict:
    watcher.warp(*HOME)
    mark = watcher.mark()
    moves = play(page, hz, seconds)
    time.sleep(0.5)  # the last frames, the last X events
    bench = page.eval("JSON.parse(JSON.stringify(window.__bench))")
    page.eval("window.__bench.raw.length = window.__bench.move.length = window.__bench.sends.length = 0")
    raw = {t: now for t, now in bench["raw"]}
    frame = {t: now for t, now in bench["move"]}
    sent: dict[float, float] = {}
    for now, text in bench["sends"]:
        try:
            data = json.loads(text)
        except ValueError:
            continue
        for m in data if isinstance(data, list) else [data]:
            if isinstance(m, dict) and m.get("type") == "move":
                sent.setdefault(m["t"], now)
    # The page's clock against the epoch: each move's `t` is its CDP timestamp on the page's
    # clock; their difference is constant but for rounding (the median is taken).
    ts = sorted(raw or frame)
    if len(ts) == len(moves):
        page_to_epoch = percentile([at * 1000 - t for (at, _), t in zip(moves, ts)], 50)
    else:  # a move the browser dropped: its clock's origin instead
        page_to_epoch = page.eval("performance.timeOrigin")
    # X motion matched to the moves in order, by the pointer's position. The finger goes back and
    # forth, so a position comes again: a match is looked for only a few moves ahead (a move the
    # browser coalesced away, an X event for two moves), never far down the list, and a pointer
    # motion before its touch is no match.
    events = [e for e in watcher.events(mark) if e.kind == "motion"]
    x_to_epoch = clocks["epochMinusMonotonic"] * 1000 + clocks["monotonicMinusX"]
    pointer, k, start_x = [], 0, moves[0][1] - STEP_PX if moves else 0
    for e in events:
        at = e.time + x_to_epoch
        match = next((i for i in range(k, min(k + MATCH_AHEAD, len(moves)))
                      if HOME[0] + round(moves[i][1] - start_x) == e.x and at >= moves[i][0] * 1000), None)
        if match is None:
            continue
        pointer.append((match, at))
        k = match + 1
    by_index = dict(enumerate(ts)) if len(ts) == len(moves) else {}
    return {
        "floor": [raw[t] - t for t in ts if t in raw],
        "pointermove": [frame[t] - t for t in ts if t in frame],
        "page": [sent[t] - t for t in ts if t in sent],
        "pageOverFloor": [sent[t] - raw[t] for t in ts if t in sent and t in raw],
        "touchToPointer": [at - moves[i][0] * 1000 for i, at in pointer],
        "sendToPointer": [at - (sent[by_index[i]] + page_to_epoch) for i, at in pointer
                          if i in by_index and by_index[i] in sent],
        "sentBeforePointermove": [1.0 if sent[t] < frame[t] else 0.0 for t in ts if t in sent and t in frame],
        "moves": [float(len(moves))], "matchedPointer": [float(len(pointer))],
    }


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("--seconds", type=float, default=4.0, help="seconds of input per page and rate")
    parser.add_argument("--rounds", type=int, default=2, help="rounds over all pages and rates")
    parser.add_argument("--out")
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="gesturepad-page-latency-"))
    xvfb = Xvfb()
    servers, browser, watcher = [], None, None
    load_start = os.getloadavg()[0]
    try:
        watcher = XWatcher(xvfb.name)
        # X time is CLOCK_MONOTONIC in ms (Xvfb's GetTimeInMillis): measured against this
        # process's monotonic clock on real events, not assumed.
        watcher.warp(HOME[0] + 1, HOME[1])
        watcher.warp(*HOME)
        sample = watcher.events(0)
        clocks = {"epochMinusMonotonic": time.time() - time.monotonic(),
                  "monotonicMinusX": min((e.received * 1000 - e.time for e in sample), default=0.0)}
        pages = [("new", ROOT / "Public", [INSTRUMENT]),
                 ("new, no pointerrawupdate", ROOT / "Public", [NO_RAW_UPDATES, INSTRUMENT])]
        today = today_page(work)
        if today is not None:
            pages.insert(0, ("today", today, [INSTRUMENT]))
        for name, public, scripts in pages:
            servers.append((name, Serve(args.binary, public, xvfb.name, work), scripts))
        browser = Browser()
        samples: dict[str, dict[str, list[float]]] = {}
        for _ in range(args.rounds):  # the pages in turn, so that other jobs' load falls on all alike
            for name, serve, scripts in servers:
                page = open_tab(browser, serve, scripts)
                try:
                    for hz in (60, 120):
                        run = measure(page, watcher, hz, args.seconds, clocks)
                        merged = samples.setdefault(f"{name} @ {hz} Hz", {})
                        for what, values in run.items():
                            merged.setdefault(what, []).extend(values)
                finally:
                    page.close()
        runs = {}
        for key, merged in samples.items():
            runs[key] = {what: summary(values) for what, values in merged.items()
                         if what not in ("sentBeforePointermove", "moves", "matchedPointer")}
            early = merged.get("sentBeforePointermove") or []
            runs[key]["sentBeforePointermove"] = sum(early) / len(early) if early else None
            runs[key]["moves"] = int(sum(merged.get("moves", [])))
            runs[key]["matchedPointer"] = int(sum(merged.get("matchedPointer", [])))
        result = {"bench": "page-latency", "todayRef": TODAY_REF if today is not None else None,
                  "seconds": args.seconds, "rounds": args.rounds, "loadStart": load_start,
                  "loadEnd": os.getloadavg()[0], "chromium": browser.call("Browser.getVersion")["product"],
                  "runs": runs}
    finally:
        if browser:
            browser.close()
        for _, serve, _ in servers:
            serve.stop()
        if watcher:
            watcher.close()
        xvfb.close()
        shutil.rmtree(work, ignore_errors=True)
    text = json.dumps(result)
    if args.out:
        Path(args.out).write_text(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
