"""Gestures over the socket: the same as `replay`, timers without input, observers, cancel on
disconnect."""
import json
import os
import time

import pytest

from testkit import TRACES, Server, collect, hello, load_trace, recv_json, replay, send_paced, sinks_available

# A representative set by default; GESTUREPAD_ALL_TRACES=1 runs every public trace.
TRACE_NAMES = (sorted(p.name[:-len(".jsonl")] for p in TRACES.glob("*.jsonl"))
               if os.environ.get("GESTUREPAD_ALL_TRACES") else
               ["tap_single", "tap_double", "long_press", "swipe_batched", "drag_slow", "pinch_rotate",
                "hover_pen", "cancel_drag", "scroll_two_finger", "long_press_drag"])


def gestures_only(messages):
    return [m for m in messages if m.get("type") == "gesture"]


@pytest.mark.parametrize("name", TRACE_NAMES)
def test_trace_over_socket_matches_replay(server, name):
    path = TRACES / f"{name}.jsonl"
    expected = replay(path)
    assert expected, "the trace should produce gestures"
    # Timers run on real time: the comparison holds when the messages went out on schedule.
    # On a machine too busy to keep the pace, the run is repeated (at most three times).
    for attempt in range(3):
        with server.connect() as ws:
            last_t, lateness = send_paced(ws, load_trace(f"{name}.jsonl"))
            received = collect(ws, 1.5)
        if lateness < 40 or attempt == 2:
            break
    session = next((m["session"] for m in received if m["type"] == "welcome"), None)
    assert session is not None
    got = gestures_only(received)
    assert all(g["session"] == session for g in got)
    horizon = (last_t or 0) + 1000
    normalized = [{**g, "session": "replay"} for g in got if g["t"] <= horizon]
    assert normalized == expected, f"sent up to {lateness:.0f} ms late"


def test_long_press_fires_without_further_input(server):
    with server.connect() as ws:
        hello(ws)
        ws.send(json.dumps({"type": "down", "id": 1, "x": 200, "y": 400, "t": 5000.0, "pointerType": "touch"}))
        sent = time.monotonic()
        gestures = []
        while time.monotonic() - sent < 2.0:
            message = recv_json(ws, timeout=2.0)
            if message.get("type") == "gesture":
                gestures.append(message)
                if message["gesture"] == "longPress":
                    break
        long_press = [g for g in gestures if g["gesture"] == "longPress"]
        assert long_press and long_press[0]["phase"] == "began"
        assert long_press[0]["t"] == pytest.approx(5500.0)
        assert time.monotonic() - sent >= 0.45


def drag(ws, t0=1000.0, steps=8):
    ws.send(json.dumps({"type": "down", "id": 1, "x": 100, "y": 400, "t": t0, "pointerType": "touch"}))
    for step in range(1, steps + 1):
        ws.send(json.dumps({"type": "move", "id": 1, "x": 100 + step * 10, "y": 400, "t": t0 + step * 16,
                            "pointerType": "touch"}))


def notice(welcome, state):
    """The observer notice of the touchpad that got `welcome`: PROTOCOL.md's three fields, then
    the run and the paired device's name (docs/protocol.md "Server identity")."""
    return {"type": "session", "session": welcome["session"], "state": state, "run": welcome["run"],
            "name": welcome["device"]["name"]}


def test_observer_sees_touchpad_gestures_and_session_notices(server):
    with server.connect() as observer:
        assert hello(observer, role="observer")["type"] == "welcome"
        with server.connect() as touchpad:
            welcome = hello(touchpad)
            session = welcome["session"]
            assert recv_json(observer) == notice(welcome, "open")
            touchpad.send(json.dumps({"type": "down", "id": 1, "x": 50, "y": 60, "t": 100.0, "pointerType": "touch"}))
            touchpad.send(json.dumps({"type": "up", "id": 1, "x": 50, "y": 60, "t": 150.0, "pointerType": "touch"}))
            own = gestures_only(collect(touchpad, 0.6))
            seen = gestures_only(collect(observer, 0.6))
            assert own and seen == own
            assert all(g["session"] == session for g in seen)
            assert any(g["gesture"] == "tap" for g in seen)
        closed = [m for m in collect(observer, 1.0) if m["type"] == "session"]
        assert closed == [notice(welcome, "closed")]


def test_late_observer_learns_open_sessions(server):
    with server.connect() as touchpad:
        welcome = hello(touchpad)
        with server.connect() as observer:
            hello(observer, role="observer")
            assert recv_json(observer) == notice(welcome, "open")


def test_touchpad_does_not_receive_other_sessions(server):
    with server.connect() as first, server.connect() as second:
        hello(first)
        hello(second)
        drag(first)
        assert gestures_only(collect(first, 0.5))
        assert gestures_only(collect(second, 0.5)) == []


def test_disconnect_mid_drag_cancels_for_observer(server):
    with server.connect() as observer:
        hello(observer, role="observer")
        with server.connect() as touchpad:
            welcome = hello(touchpad)
            session = welcome["session"]
            drag(touchpad)
            seen = gestures_only(collect(observer, 0.5))
            assert any(g["gesture"] == "drag" and g["phase"] == "began" for g in seen)
        after = collect(observer, 1.0)
        gestures = gestures_only(after)
        assert {"gesture": "drag", "phase": "cancelled"} in [{"gesture": g["gesture"], "phase": g["phase"]} for g in gestures]
        ends = [g for g in gestures if g["gesture"] == "end"]
        assert ends and ends[-1]["reason"] == "cancel"
        assert all(g["session"] == session for g in gestures)
        # The closed notice comes after the cancel events.
        assert after[-1] == notice(welcome, "closed")


def test_disconnect_mid_drag_is_cancelled_in_json_log(page_dir, tmp_path):
    if not sinks_available():
        pytest.skip("the JSON log (--log-json) has not landed")
    log = tmp_path / "gestures.jsonl"
    with Server(public=page_dir, extra=["--log-json", str(log)]) as server:
        with server.connect() as touchpad:
            welcome = hello(touchpad)
            session = welcome["session"]
            drag(touchpad)
            assert gestures_only(collect(touchpad, 0.5))
        time.sleep(0.5)
        assert server.stop() == 0
    entries = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    mine = [e for e in entries if e.get("session") == session]
    assert any(e["gesture"] == "drag" and e["phase"] == "began" for e in mine)
    assert any(e["gesture"] == "drag" and e["phase"] == "cancelled" for e in mine)
    assert mine[-1]["gesture"] == "end" and mine[-1]["reason"] == "cancel"


def test_input_waiting_in_a_stalled_server_goes_before_its_timers(server):
    """The server is stopped past a tap's confirmation deadline while the second tap of a
    double tap (on time by the page's clock) waits in the socket: on waking, the input is
    judged first, as `replay` would, so it is a double tap and no single tap is confirmed."""
    import signal
    with server.connect() as ws:
        hello(ws)
        tap = lambda i, t: [  # noqa: E731
            json.dumps({"type": "down", "id": i, "x": 100, "y": 100, "t": t, "pointerType": "touch"}),
            json.dumps({"type": "up", "id": i, "x": 100, "y": 100, "t": t + 60, "pointerType": "touch"})]
        for message in tap(1, 1000.0):
            ws.send(message)
        assert any(g["gesture"] == "tap" for g in gestures_only(collect(ws, 0.1)))
        server.process.send_signal(signal.SIGSTOP)
        try:
            time.sleep(0.5)  # past the 300 ms confirmation deadline, in real time
            for message in tap(2, 1200.0):  # 140 ms after the first up, by the page's clock
                ws.send(message)
            time.sleep(0.05)
        finally:
            server.process.send_signal(signal.SIGCONT)
        later = gestures_only(collect(ws, 1.0))
    names = [g["gesture"] for g in later]
    assert "doubleTap" in names
    assert "singleTapConfirmed" not in names
