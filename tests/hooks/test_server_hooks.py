"""End to end: the real `gesturepad serve` with a configuration file, the JSON log and hooks.

Needs tests/testkit.py (the server's integration helpers) and a built binary; skipped otherwise.
"""
import json
import os
import signal
import stat
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
try:
    from testkit import Server, binary, collect, eventually, hello, load_trace, recv_json, send_paced  # noqa: E402
except ImportError:  # the server's test kit is not in this tree
    pytest.skip("needs tests/testkit.py", allow_module_level=True)

if not binary().exists():
    pytest.skip(f"{binary()} not built (swift build)", allow_module_level=True)


@pytest.fixture
def page(tmp_path):
    """A minimal page folder (the tests talk WebSocket only)."""
    folder = tmp_path / "page"
    folder.mkdir()
    (folder / "index.html").write_text("<!doctype html><title>test</title>")
    return folder


def script(path: Path, body: str) -> str:
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def play(server, trace: str, settle: float = 1.0) -> tuple[str, list[dict]]:
    """Plays a trace on a new touchpad connection; returns its session and the gesture
    messages the page received."""
    lines = load_trace(trace + ".jsonl")
    with server.connect() as ws:
        ws.send(lines[0])  # the trace's hello
        welcome = recv_json(ws)
        assert welcome["type"] == "welcome"
        send_paced(ws, lines[1:])
        events = collect(ws, settle, types=("gesture",))
    return welcome["session"], events


def log_events(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def without_time(event: dict) -> dict:
    return {k: v for k, v in event.items() if k != "time"}


TRACES = ["tap_double", "drag_slow", "pinch_rotate", "swipe_left", "long_press_drag", "scroll_two_finger"]


def test_json_log_holds_every_event_of_traces(tmp_path, page):
    """--log-json holds exactly the gesture messages each page received, in order, with a time."""
    log = tmp_path / "gestures.jsonl"
    with Server(public=page, extra=["--log-json", str(log), "--verbose", "--no-color"]) as server:
        played = [play(server, trace) for trace in TRACES]
        assert eventually(lambda: len(log_events(log)) >= sum(len(events) for _, events in played))
        server.stop()
        logged = log_events(log)
        for session, events in played:
            mine = [without_time(e) for e in logged if e["session"] == session]
            assert mine == events, session  # byte-identical encoders: exact equality
            assert events, "the trace produced gesture events"
        assert all(e["time"].endswith("Z") and "T" in e["time"] for e in logged)
        # The terminal log printed a readable line per event (verbose: changed included).
        out = server.stdout()
        assert sum(len(events) for _, events in played) <= sum(1 for l in out.splitlines() if "  x=" in l)


def test_json_log_survives_rotation(tmp_path, page):
    """mv + SIGHUP: earlier events stay in the old file, later ones go to the new file."""
    log = tmp_path / "gestures.jsonl"
    with Server(public=page, extra=["--log-json", str(log)]) as server:
        _, first = play(server, "tap_double")
        assert eventually(lambda: len(log_events(log)) == len(first))
        log.rename(tmp_path / "gestures.jsonl.1")
        server.process.send_signal(signal.SIGHUP)
        assert eventually(lambda: "reopen" in server.stderr().lower() or log.exists(), within=3)
        time.sleep(0.2)
        _, second = play(server, "swipe_left")
        server.stop()
    assert [without_time(e) for e in log_events(tmp_path / "gestures.jsonl.1")] == first
    assert [without_time(e) for e in log_events(log)] == second


def test_hooks_end_to_end(tmp_path, page):
    """run hooks get stdin/env/argv, never the server's access token (GESTUREPAD_TOKEN in its
    environment); a pipe follows drags; a hanging hook is killed at its timeout while other
    connections keep their normal latency."""
    out = tmp_path / "out"
    out.mkdir()
    tap = script(tmp_path / "tap.sh", f'cat > "{out}/tap-$1.json"; '
                 f'echo "$GESTUREPAD_SESSION $GESTUREPAD_COUNT ${{GESTUREPAD_TOKEN-none}}" > "{out}/tap-$1.env"\n')
    hang = script(tmp_path / "hang.sh", f'echo $$ > "{out}/hang.pid"; sleep 60\n')
    pipe = script(tmp_path / "pipe.sh", f'while IFS= read -r line; do printf "%s\\n" "$line" >> "{out}/pipe.jsonl"; done\n')
    config = tmp_path / "gesturepad.yaml"
    config.write_text(f"""
hooks:
  - name: tap-recorder
    gesture: tap
    run: [{tap}, "{{count}}"]
  - name: hanger
    gesture: doubleTap
    run: [{hang}]
    timeout: 1.5
  - name: drag-pipe
    gesture: drag
    pipe: [{pipe}]
    queue: 10000  # never behind in this test: every event must arrive as sent
""")
    secret = "token-from-the-environment-Secret0123456789abcdefZ"
    with Server(public=page, token=None, env={"GESTUREPAD_TOKEN": secret}, extra=["--config", str(config), "--quiet"]) as server:
        server.token = secret  # what the clients use
        session, events = play(server, "tap_double", settle=0.5)
        assert [e["gesture"] for e in events if e["gesture"] in ("tap", "doubleTap")] == ["tap", "tap", "doubleTap"]
        assert eventually(lambda: (out / "hang.pid").exists())
        hung_at = time.monotonic()
        # While the hook hangs, another connection answers pings at normal latency.
        with server.connect() as ws:
            hello(ws)
            worst = 0.0
            for i in range(20):
                sent = time.monotonic()
                ws.send(json.dumps({"type": "ping", "t": float(i)}))
                while recv_json(ws)["type"] != "pong":
                    pass
                worst = max(worst, time.monotonic() - sent)
        assert worst < 1.0  # a server waiting for the hook would take seconds (timeout, slow reader)
        pid = int((out / "hang.pid").read_text())
        assert eventually(lambda: not Path(f"/proc/{pid}").exists() or "Z" in Path(f"/proc/{pid}/stat").read_text().split(")")[1][:3], within=5)
        assert time.monotonic() - hung_at < 5
        # Each rule's threads carry its name (cut to the kernel's 15 bytes), as `top -H` shows them.
        threads = {comm.read_text().strip() for comm in Path(f"/proc/{server.process.pid}/task").glob("*/comm")}
        assert {"gpr-tap-recorde", "gpr-hanger", "gpp-drag-pipe", "gpo-drag-pipe"} <= threads, sorted(threads)
        # Both taps ran the recorder with the event on stdin and in the environment.
        assert eventually(lambda: (out / "tap-1.json").exists() and (out / "tap-2.json").exists())
        tap2 = json.loads((out / "tap-2.json").read_text())
        assert tap2["gesture"] == "tap" and tap2["count"] == 2 and tap2["session"] == session
        assert eventually(lambda: (out / "tap-2.env").exists() and (out / "tap-2.env").read_text().strip() == f"{session} 2 none")
        # The pipe received the drag events, in order.
        _, drags = play(server, "drag_slow", settle=0.5)
        expected = [e for e in drags if e["gesture"] == "drag"]
        assert expected
        assert eventually(lambda: (out / "pipe.jsonl").exists() and len((out / "pipe.jsonl").read_text().splitlines()) == len(expected))
        piped = [without_time(json.loads(l)) for l in (out / "pipe.jsonl").read_text().splitlines()]
        assert piped == expected
        assert server.stop() == 0
        assert "run hook timed out" in server.stderr()


def test_slow_pipe_and_crashing_hook_cost_no_latency(tmp_path, page):
    """A pipe that reads slowly and a run hook that crashes on every event never slow the
    server: pings on another connection stay fast while drags flood both."""
    out = tmp_path / "out"
    out.mkdir()
    slow = script(tmp_path / "slow.sh", f'echo $$ >> "{out}/slow.pids"; while IFS= read -r line; do sleep 0.2; echo x >> "{out}/slow.lines"; done\n')
    crash = script(tmp_path / "crash.sh", "kill -SEGV $$\n")
    config = tmp_path / "gesturepad.yaml"
    config.write_text(f"""
hooks:
  - gesture: [drag, press, release, end]
    pipe: [{slow}]
    queue: 8
  - gesture: [drag, press, release]
    run: [{crash}]
    concurrency: 2
    queue: 4
""")
    with Server(public=page, extra=["--config", str(config), "--quiet"]) as server:
        lines = load_trace("drag_slow.jsonl")
        with server.connect() as observer:
            hello(observer)
            worst = 0.0
            for _ in range(3):
                with server.connect() as ws:
                    ws.send(lines[0])
                    recv_json(ws)
                    for line in lines[1:]:  # as fast as possible: a flood
                        ws.send(line)
                    sent = time.monotonic()
                    observer.send(json.dumps({"type": "ping", "t": 1.0}))
                    while recv_json(observer)["type"] != "pong":
                        pass
                    worst = max(worst, time.monotonic() - sent)
            assert worst < 1.0  # a server waiting for the slow pipe would stall for seconds
        assert len((out / "slow.pids").read_text().split()) == 1, "the pipe never died"
        assert server.stop() == 0
        err = server.stderr()
        assert "run hook failed" in err
        assert "falling behind" in err or "dropped" in err
