"""The terminal log: by default one line per thing the person did, the phases with
`--verbose`, every event in the JSON log."""
from __future__ import annotations

import json
import re
import time

from testkit import Server, collect, hello

LINE = re.compile(r"^\d\d:\d\d:\d\d\.\d{3}  (\S+)  (.*)$")


def pointer(kind: str, pid: int, x: float, y: float, t: float) -> dict:
    return {"type": kind, "id": pid, "x": x, "y": y, "t": t, "pointerType": "touch"}


def stroke(pid_xy: dict[int, tuple[float, float]], to: dict[int, tuple[float, float]], t0: float, ms: float,
           step: float = 16) -> list[list[dict]]:
    """Moves of every finger from `pid_xy` to `to` over `ms`, one batch per step."""
    n = round(ms / step)
    frames = []
    for i in range(1, n + 1):
        f = i / n
        frames.append([pointer("move", pid, round(x + (to[pid][0] - x) * f, 2), round(y + (to[pid][1] - y) * f, 2),
                               round(t0 + ms * f, 3)) for pid, (x, y) in pid_xy.items()])
    return frames


def person() -> list[list[dict]]:
    """A tap, a double tap, a tap-and-drag, a two-finger scroll, a pinch, a pointer move and a
    scroll flick, on the page's clock
    (recognition depends only on `t`; the last ping moves the clock past every timer)."""
    frames = [
        [pointer("down", 1, 100, 100, 0)], [pointer("up", 1, 100, 100, 60)],
        [pointer("down", 1, 200, 200, 1000)], [pointer("up", 1, 200, 200, 1050)],
        [pointer("down", 1, 200, 200, 1150)], [pointer("up", 1, 200, 200, 1200)],
        # tap, then touch again and drag 149 px to the right, still for 100 ms before the lift
        [pointer("down", 1, 100, 400, 2000)], [pointer("up", 1, 100, 400, 2050)],
        [pointer("down", 1, 100, 400, 2150)],
        *stroke({1: (100, 400)}, {1: (249, 400)}, 2150, 256),
        [pointer("up", 1, 249, 400, 2506)],
        # two fingers down 120 px
        [pointer("down", 1, 100, 600, 3000), pointer("down", 2, 160, 600, 3000)],
        *stroke({1: (100, 600), 2: (160, 600)}, {1: (100, 720), 2: (160, 720)}, 3000, 320),
        [pointer("up", 1, 100, 720, 3420), pointer("up", 2, 160, 720, 3420)],
        # fingers apart: 100 px → 200 px
        [pointer("down", 1, 150, 500, 4000), pointer("down", 2, 250, 500, 4000)],
        *stroke({1: (150, 500), 2: (250, 500)}, {1: (100, 500), 2: (300, 500)}, 4000, 320),
        [pointer("up", 1, 100, 500, 4420), pointer("up", 2, 300, 500, 4420)],
        # one finger moves the pointer 102 px, then rests before the lift (no flick)
        [pointer("down", 1, 100, 300, 5000)],
        *stroke({1: (100, 300)}, {1: (202, 300)}, 5000, 320),
        [pointer("up", 1, 202, 300, 5420)],
        # an ordinary brisk scroll: two fingers 180 px up in 160 ms, lifted at speed (the
        # engine ends it with a swipe, `ends: "scroll"`)
        [pointer("down", 1, 150, 600, 6000), pointer("down", 2, 210, 600, 6000)],
        *stroke({1: (150, 600), 2: (210, 600)}, {1: (150, 420), 2: (210, 420)}, 6000, 160),
        [pointer("up", 1, 150, 420, 6168), pointer("up", 2, 210, 420, 6168)],
        [{"type": "ping", "t": 8000}],
    ]
    return frames


def play(server: Server) -> list[dict]:
    """Plays `person()` as one touchpad; returns the gesture messages it got back."""
    with server.connect() as ws:
        assert hello(ws)["type"] == "welcome"
        for frame in person():
            ws.send(json.dumps(frame))
        got = collect(ws, 1.0, ("gesture", "pong"))
    return [m for m in got if m["type"] == "gesture"]


def lines_of(server: Server, session: str = "1", until: str | None = None) -> list[str]:
    """The session's terminal lines (text after the clock and session), once `until` is among them."""
    deadline = time.monotonic() + 5
    while True:
        found = [m.group(2).rstrip() for m in map(LINE.match, server.stdout().splitlines()) if m and m.group(1) == session]
        if until is None or until in found or time.monotonic() > deadline:
            return found
        time.sleep(0.02)


def test_one_line_per_thing_done(tmp_path):
    """Default: a tap is one line, a double tap is `tap ×2`, a tap-and-drag is the tap and the
    drag with its distance (no stray confirmation after it), then the scroll and the pinch; a
    plain one-finger move is `pointer` and a flicked scroll is a scroll, as the page says
    (docs/outputs.md "One vocabulary"). stderr has no info lines: the same events are not
    told twice in two formats."""
    with Server(extra=["--no-color"]) as server:
        received = play(server)
        lines = lines_of(server, until="session closed")
        assert server.stop() == 0
        err = server.stderr()
    assert lines == ["session opened", "tap", "tap ×2", "tap", "drag → 149 px", "scroll ↓ 120 px", "pinch ×2.00",
                     "pointer → 102 px", "scroll ↑ 180 px", "session closed"], lines
    flick = [m for m in received if m["gesture"] == "swipe"]
    assert [(m["direction"], m["pointers"], m["ends"]) for m in flick] == [("up", 2, "scroll")]
    for info in ("connection opened", "touchpad session opened", "connection closed", " info "):
        assert info not in err, err
    assert "shutting down" in err  # notices stay


def test_verbose_adds_the_info_lines_on_stderr(tmp_path):
    """`--verbose` brings the logger's info lines back, beside the phases on stdout."""
    with Server(extra=["--no-color", "--verbose"]) as server:
        with server.connect() as ws:
            assert hello(ws)["type"] == "welcome"
        assert server.stop() == 0
        err = server.stderr()
    for info in ("connection opened", "touchpad session opened", "connection closed"):
        assert info in err, err


def test_verbose_shows_the_phases_and_the_json_log_keeps_every_event(tmp_path):
    """`--verbose` adds every event with its phase (press, release, end, singleTapConfirmed, the
    changes); the JSON log has every event the touchpad received, whatever the terminal shows."""
    log = tmp_path / "events.jsonl"
    with Server(extra=["--no-color", "--log-json", str(log)]) as quiet:
        received = play(quiet)
    with Server(extra=["--no-color", "--verbose"]) as verbose:
        play(verbose)
        lines = lines_of(verbose, until="session closed")
    names = [line.split()[0] for line in lines]
    for name in ("press", "release", "end", "singleTapConfirmed", "doubleTap", "drag", "scroll", "pinch"):
        assert name in names, (name, lines)
    assert any(line.split()[:2] == ["drag", "changed"] for line in lines)
    assert "tap ×2" in lines and "drag → 149 px" in lines  # what the person did, still there
    events = [json.loads(line) for line in log.read_text().splitlines()]
    assert [{k: v for k, v in e.items() if k != "time"} for e in events] == received
    # The engine confirms the lone tap and, after the drag's end, the tap before it (GESTURES.md):
    # the JSON log keeps both; the terminal's default lines showed neither.
    assert [e["t"] for e in events if e["gesture"] == "singleTapConfirmed"] == [360, 2506]
