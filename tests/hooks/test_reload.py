"""Reloading the configuration without a restart (docs/outputs.md "Reloading the
configuration"): the real server, its configuration file changed, SIGHUP, then real gestures on
a new connection get the new hook and the new threshold; a file with a mistake changes nothing
and stderr says why, in check-config's words."""
import json
import re
import signal
import stat
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from testkit import Server, binary, eventually, hello, recv_json  # noqa: E402

if not binary().exists():
    pytest.skip(f"{binary()} not built (swift build)", allow_module_level=True)


def config_text(script: str, label: str, tap_max: int) -> str:
    return f"""gestures:
  tapMaxDuration: {tap_max}
hooks:
  - name: tapper-{label}
    gesture: tap
    run: [{script}, {label}, "{{count}}", "{{t:int}}"]
"""


def tap(ws, t: float, held: float) -> list[dict]:
    """A one-finger touch held `held` ms; returns the `tap` events it made (read up to the pong
    of a ping sent after it: the server answers in order)."""
    ws.send(json.dumps([{"type": "down", "id": 1, "x": 100, "y": 100, "t": t, "pointerType": "touch"}]))
    ws.send(json.dumps([{"type": "up", "id": 1, "x": 100, "y": 100, "t": t + held, "pointerType": "touch"}]))
    ws.send(json.dumps({"type": "ping", "t": t + held + 1000}))
    got = []
    while (m := recv_json(ws))["type"] != "pong":
        got.append(m)
    return [m for m in got if m.get("gesture") == "tap"]


def test_sighup_reloads_hooks_and_thresholds_and_a_bad_file_changes_nothing(tmp_path):
    record = tmp_path / "ran.txt"
    script = tmp_path / "hook.sh"
    script.write_text(f'#!/bin/sh\necho "$1 $2 $3" >> "{record}"\n')
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    config = tmp_path / "config.yaml"
    config.write_text(config_text(str(script), "A", 250))

    def ran():
        return record.read_text().splitlines() if record.exists() else []

    with Server(extra=["--config", str(config), "--no-color"]) as server:
        with server.connect() as ws:
            assert hello(ws)["config"]["tapMaxDuration"] == 250
            assert [m["count"] for m in tap(ws, 0, 50)] == [1]
            assert tap(ws, 5000, 320) == []  # held too long for a tap at 250 ms
        assert eventually(lambda: ran() == ["A 1 50"]), ran()

        # A new hook and a longer tap: SIGHUP.
        config.write_text(config_text(str(script), "B", 400))
        server.process.send_signal(signal.SIGHUP)
        assert eventually(lambda: "configuration reloaded: 1 hook" in server.stderr()), server.stderr()
        with server.connect() as ws:
            assert hello(ws)["config"]["tapMaxDuration"] == 400
            assert [m["count"] for m in tap(ws, 0, 320)] == [1]  # a tap now
        # The rule of the old file took no event after the reload: only B ran.
        assert eventually(lambda: ran() == ["A 1 50", "B 1 320"]), ran()

        # A mistake: nothing changes, stderr says where and why.
        config.write_text("gestures:\n  tapMaxDuration: 400\nhooks:\n  - gesture: doubelTap\n    run: [true]\n")
        server.process.send_signal(signal.SIGHUP)
        assert eventually(lambda: "configuration not reloaded" in server.stderr()), server.stderr()
        err = server.stderr()
        assert re.search(re.escape(str(config)) + r":4:\d+: error: .*doubelTap.*did you mean 'doubleTap'", err), err
        assert f"{config}: 1 error" in err
        with server.connect() as ws:
            assert hello(ws)["config"]["tapMaxDuration"] == 400
            assert [m["count"] for m in tap(ws, 0, 330)] == [1]
        assert eventually(lambda: ran() == ["A 1 50", "B 1 320", "B 1 330"]), ran()
        assert server.stop() == 0


def settings_in_force(ws) -> dict:
    """Asks for the connection's control settings (a `settings` message with no change)."""
    ws.send(json.dumps({"type": "settings"}))
    while (m := recv_json(ws))["type"] != "settings":
        pass
    return m


def test_sighup_reloads_control_settings_for_new_connections(tmp_path):
    """The control mapping settings of the file (here `control.speed`, on the touchpad backend
    writing into a file: no /dev/uinput needed) apply to connections opened after the reload;
    a touchpad already connected keeps its own."""
    output = tmp_path / "touchpad.events"
    output.touch()
    config = tmp_path / "config.yaml"
    config.write_text("control:\n  speed: 1.0\n")
    extra = ["--config", str(config), "--control", "touchpad", "--test-touchpad-output", str(output)]
    with Server(extra=extra) as server:
        with server.connect() as before:
            assert hello(before)["control"]["active"] is True
            assert settings_in_force(before)["speed"] == 1
            config.write_text("control:\n  speed: 2.5\n")
            server.process.send_signal(signal.SIGHUP)
            assert eventually(lambda: "configuration reloaded" in server.stderr()), server.stderr()
            with server.connect() as after:
                assert hello(after)["control"]["active"] is True
                assert settings_in_force(after)["speed"] == 2.5
            assert settings_in_force(before)["speed"] == 1
        assert server.stop() == 0
