"""What a new user sees of the observer, of renames and of the page's own commands, on the wire
(docs/protocol.md "Server identity", "`device` notice", "What the computer was told"): the real
server on a loopback port, real WebSocket clients.

- `welcome` names the computer (`host`) and the server's run (`run`), new at every start;
- an observer's session notices carry the run and the paired phone's name, so sessions of two
  runs are told apart even when a restarted server reuses a session id;
- `gesturepad devices rename` reaches the connected phone at once (`device`) and the observers
  (the session notice again, with the new name);
- a page's `text`, `key` and `button` messages, once carried out, come back to it and to every
  observer as `command` notices — the number of characters typed, never the text.
"""
import json
import os
import socket
import subprocess
import time

from testkit import Server, binary, collect, hello, recv_json
from test_devices import SECRET, devices, pair



def restart(server: Server) -> None:
    """Stops `server` (SIGTERM) and starts it again on the same port with the same state
    directory, as a user's `make run` after Ctrl-C."""
    assert server.stop() == 0
    server.returncode = None
    server.process = subprocess.Popen(server.args, stdout=server.out, stderr=server.err, env=server.env)
    server._wait_ready()


def until(ws, predicate, timeout=5.0):
    """Reads messages until one satisfies `predicate`; returns it (fails after `timeout`)."""
    deadline = time.monotonic() + timeout
    seen = []
    while (left := deadline - time.monotonic()) > 0:
        try:
            message = json.loads(ws.recv(timeout=left))
        except TimeoutError:
            break
        seen.append(message)
        if predicate(message):
            return message
    raise AssertionError(f"no such message within {timeout} s; saw {seen}")


def tap(ws, t0, x=100, y=100, pointer=1):
    ws.send(json.dumps([{"type": "down", "id": pointer, "x": x, "y": y, "t": t0, "pointerType": "touch"}]))
    ws.send(json.dumps([{"type": "up", "id": pointer, "x": x, "y": y, "t": t0 + 60, "pointerType": "touch"}]))


def test_welcome_names_the_computer_and_a_run_new_at_each_start():
    with Server(token=SECRET) as server:
        ws, first = pair(server)
        assert first["host"] == socket.gethostname().split(".")[0]
        assert isinstance(first["run"], str) and len(first["run"]) >= 8
        key = first["device"]["key"]
        ws.close()
        with server.connect(token=key) as again:
            assert hello(again)["run"] == first["run"], "one run, one id"
        restart(server)
        with server.connect(token=key) as after:
            welcome = hello(after)
            assert welcome["run"] != first["run"] and welcome["host"] == first["host"]


def test_observer_sessions_carry_the_phone_name_and_the_run_across_a_restart():
    """The observer hears each touchpad's session with its phone's name and the run; after a
    restart the phone's new session (same id, as ids start again at 1) has another run."""
    with Server(token=SECRET) as server:
        phone, welcome = pair(server)
        key = welcome["device"]["key"]
        phone.close()
        observer, _ = pair(server, agent="Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0.0.0 Safari/537.36",
                           role="observer")
        observer_key = _["device"]["key"]
        with server.connect(token=key) as phone:
            mine = hello(phone)
            opened = until(observer, lambda m: m["type"] == "session" and m["state"] == "open")
            assert opened == {"type": "session", "session": mine["session"], "state": "open",
                              "run": mine["run"], "name": "Pixel 8 · Chrome"}
            tap(phone, 1000.0)
            gesture = until(observer, lambda m: m["type"] == "gesture")
            assert gesture["session"] == mine["session"], "gestures keep their session id only"
        closed = until(observer, lambda m: m["type"] == "session" and m["state"] == "closed")
        assert closed["name"] == "Pixel 8 · Chrome" and closed["run"] == mine["run"]
        observer.close()

        restart(server)
        observer = server.connect(token=observer_key)
        seen = hello(observer, role="observer")
        # Connections are numbered from 1 again: this one takes the number the first run's
        # pairing connection had, so that the phone's next session reuses its id.
        server.connect(token=key).close()
        with server.connect(token=key) as phone:
            again = hello(phone)
            opened = until(observer, lambda m: m["type"] == "session" and m["state"] == "open")
        observer.close()
        assert again["session"] == mine["session"], "the restarted server reuses the session id"
        assert opened["run"] == again["run"] == seen["run"] != mine["run"]
        assert opened["name"] == "Pixel 8 · Chrome"


def test_observer_joining_late_hears_open_sessions_with_their_names():
    with Server(token=SECRET) as server:
        phone, welcome = pair(server)
        observer, _ = pair(server, agent="Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0", role="observer")
        notice = until(observer, lambda m: m["type"] == "session")
        assert notice["name"] == "Pixel 8 · Chrome" and notice["session"] == welcome["session"]
        phone.close()
        observer.close()


def test_no_pairing_no_name_but_still_the_run():
    """Without authentication there is no device: the notice has no name (the page says
    "phone N"), and still the run."""
    with Server(token=None, extra=["--no-auth"]) as server:
        with server.connect(token=None) as observer:
            seen = hello(observer, role="observer")
            assert "device" not in seen and seen["run"]
            with server.connect(token=None) as phone:
                hello(phone)
                notice = until(observer, lambda m: m["type"] == "session")
            assert notice["run"] == seen["run"] and "name" not in notice


def test_rename_reaches_the_connected_phone_and_the_observer_at_once():
    with Server(token=SECRET) as server:
        phone, welcome = pair(server)
        observer, _ = pair(server, agent="Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0", role="observer")
        until(observer, lambda m: m["type"] == "session" and m["state"] == "open")
        run = devices(server, "rename", "Pixel 8 · Chrome", "Kitchen phone")
        assert "running server" in run.stdout
        told = until(phone, lambda m: m["type"] == "device")
        assert told == {"type": "device", "device": {"id": welcome["device"]["id"], "name": "Kitchen phone"}}
        renamed = until(observer, lambda m: m["type"] == "session")
        assert renamed == {"type": "session", "session": welcome["session"], "state": "open",
                           "run": welcome["run"], "name": "Kitchen phone"}
        # The observer's own device was not renamed: it hears nothing about itself.
        assert collect(observer, 0.3, ("device",)) == []
        phone.close()
        observer.close()


def test_commands_come_back_to_the_phone_and_observers_without_the_text(tmp_path):
    """With control on (the touchpad backend writing into a file instead of /dev/uinput), what
    the page typed, the keys and the bar's buttons come back as `command` notices: the number of
    characters, the key and its modifiers, the button and its action — never the text."""
    output = tmp_path / "touchpad-events"
    output.write_bytes(b"")
    with Server(token=SECRET, extra=["--control", "touchpad", "--test-touchpad-output", str(output)]) as server:
        phone, welcome = pair(server)
        assert welcome["control"]["active"] is True
        observer, _ = pair(server, agent="Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0", role="observer")
        until(observer, lambda m: m["type"] == "session")
        phone.send(json.dumps([{"type": "text", "text": "password"},
                               {"type": "key", "key": "c", "modifiers": ["Control"]},
                               {"type": "button", "button": "right", "action": "click"}]))
        expected = [
            {"type": "command", "session": welcome["session"], "command": "text", "characters": 8},
            {"type": "command", "session": welcome["session"], "command": "key", "key": "c", "modifiers": ["Control"]},
            {"type": "command", "session": welcome["session"], "command": "button", "button": "right",
             "action": "click"},
        ]
        for ws in (phone, observer):
            got = [until(ws, lambda m: m["type"] == "command") for _ in expected]
            assert got == expected
        assert "password" not in json.dumps(got)
        # A refused command (a control character) says nothing of the kind.
        phone.send(json.dumps({"type": "text", "text": "\u0007"}))
        assert recv_json(phone)["type"] == "error"
        assert collect(observer, 0.3, ("command",)) == []
        phone.close()
        observer.close()
