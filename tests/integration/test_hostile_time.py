"""A `t` no page would send cannot crash or stall the server, nor move a stroke's clock.

Two hostile times, each once a finding of a hardening review: a `move` whose `t` jumps by
9.3e20 ms (the engine's deadlines were computed from it: arming a timer that far off overflowed),
and a `down` at 1e19 ms (a timer loop stepped towards it forever). PROTOCOL.md's `t` is a
finite number; the server refuses one beyond ±1e12 ms (31 years) with `bad_field`, naming the
field, and keeps the connection and the stroke as they were."""
import json
import subprocess

from testkit import binary, hello, recv_json


def pointer(kind, t, x=100):
    return json.dumps({"type": kind, "id": 1, "x": x, "y": 100, "t": t, "pointerType": "touch"})


def test_huge_time_jump_is_refused_and_the_server_lives(server):
    """hello, down, a move with `t` jumping by 9.3e20 ms: refused, and both this connection and
    another answer at once."""
    with server.connect() as ws, server.connect() as bystander:
        hello(ws)
        hello(bystander)
        ws.send(pointer("down", 10.0))
        ws.send(pointer("move", 9.3e20, x=120))
        error = recv_json(ws)
        while error["type"] != "error":
            error = recv_json(ws)
        assert error["code"] == "bad_field"
        assert '"t"' in error["message"]
        # Both connections still answer at once.
        for client in (ws, bystander):
            client.send(json.dumps({"type": "ping", "t": 20.0}))
            reply = recv_json(client)
            while reply["type"] != "pong":
                reply = recv_json(client)
    assert server.process.poll() is None


def test_down_at_1e19_does_not_stall(server):
    with server.connect() as ws:
        hello(ws)
        ws.send(pointer("down", 1e19))
        assert recv_json(ws)["code"] == "bad_field"
        ws.send(json.dumps({"type": "ping", "t": 5.0}))
        reply = recv_json(ws, timeout=2.0)
        while reply["type"] != "pong":
            reply = recv_json(ws, timeout=2.0)
    assert server.process.poll() is None


def test_replay_refuses_the_hostile_lines_and_keeps_the_stroke(tmp_path):
    """The same lines through `gesturepad replay`: each refused with its line number and the
    bound, and the finger lifted at t = 60 still ends its stroke as a 50 ms tap — had either
    hostile `t` been taken, the stroke's clock would have jumped past every tap's limit."""
    trace = tmp_path / "jump.jsonl"
    trace.write_text("\n".join([
        json.dumps({"type": "hello", "protocol": 1, "role": "touchpad", "width": 400, "height": 800}),
        pointer("down", 10.0),
        pointer("move", 9.3e20, x=120),
        pointer("down", 1e19),
        pointer("up", 60.0),
    ]) + "\n")
    run = subprocess.run([str(binary()), "replay", str(trace)], capture_output=True, text=True, timeout=20)
    assert run.returncode == 0, run.stderr
    refused = {}
    for line in run.stderr.splitlines():
        number, _, message = line.partition(": ")
        if number.startswith("line "):
            refused[number] = json.loads(message)
    assert set(refused) == {"line 3", "line 4"}, run.stderr
    for message, kind in ((refused["line 3"], "move"), (refused["line 4"], "down")):
        assert message["code"] == "bad_field"
        assert message["message"].startswith(f'{kind}: field "t"') and "1e12" in message["message"]
    gestures = [json.loads(line) for line in run.stdout.splitlines() if line.strip()]
    taps = [g for g in gestures if g["gesture"] == "tap"]
    assert len(taps) == 1 and taps[0]["t"] == 60 and (taps[0]["x"], taps[0]["y"]) == (100, 100), run.stdout
    ended = next(g for g in gestures if g["gesture"] == "end")
    assert ended["duration"] == 50 and ended["reason"] == "release"
