"""Hardening findings 1 and 2: a `t` no page would send cannot crash or stall the server."""
import json
import subprocess

from testkit import binary, hello, recv_json


def pointer(kind, t, x=100):
    return json.dumps({"type": kind, "id": 1, "x": x, "y": 100, "t": t, "pointerType": "touch"})


def test_huge_time_jump_is_refused_and_the_server_lives(server):
    """The audit's three messages: hello, down, move with t jumping by 9.3e20 ms."""
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


def test_replay_of_the_audit_lines_exits_zero(tmp_path):
    trace = tmp_path / "jump.jsonl"
    trace.write_text("\n".join([
        json.dumps({"type": "hello", "protocol": 1, "role": "touchpad", "width": 400, "height": 800}),
        pointer("down", 10.0),
        pointer("move", 9.3e20, x=120),
        pointer("down", 1e19),
    ]) + "\n")
    run = subprocess.run([str(binary()), "replay", str(trace)], capture_output=True, text=True, timeout=20)
    assert run.returncode == 0
    assert "line 3: " in run.stderr and "line 4: " in run.stderr
