"""Hooks on player events (issue 44; docs/outputs.md "Player events"), end to end: a real `mpv`
with mpv-mpris on a private session bus, the real server with a configuration file whose rules
say `media:`, and real processes for the hooks. The hooks run on what the player does by
itself; a client that asked to hear the players only tells the test when the server has read
the bus."""
from __future__ import annotations

import json
import os
import textwrap
from pathlib import Path

from media_kit import wait_for
from testkit import Server

SECRET = "media-hooks-" + os.urandom(16).hex()
HELLO = {"type": "hello", "protocol": 1, "role": "touchpad", "width": 390, "height": 844}

RECORDER = """\
#!/bin/sh
# One line per event: the JSON on stdin, then argv and the variables this test reads.
line=$(cat)
printf '%s\\t%s\\t%s\\t%s\\n' "$line" "$*" "$GESTUREPAD_TITLE" "$GESTUREPAD_PLAYER_NAME" >> "$(dirname "$0")/events.log"
"""


def events(folder: Path) -> list[tuple[dict, str, str, str]]:
    log = folder / "events.log"
    if not log.exists():
        return []
    out = []
    for line in log.read_text().splitlines():
        stdin, argv, title, name = line.split("\t")
        out.append((json.loads(stdin), argv, title, name))
    return out


def test_a_track_and_a_pause_run_the_users_hooks(bus, players, album, tmp_path):
    script = tmp_path / "record.sh"
    script.write_text(RECORDER)
    script.chmod(0o755)
    config = tmp_path / "config.yaml"
    config.write_text(textwrap.dedent("""\
        hooks:
          - name: now playing
            media: [track, paused, stopped]
            player: mpv
            run: [./record.sh, "{event}", "{status}", "{length:int}"]
          - name: not this player
            media: [track, paused]
            player: spotify
            run: [./record.sh, other]
        """))
    first = players(album[:2])
    with Server(token=SECRET, extra=["--config", str(config), "--control", "off"],
                env={"DBUS_SESSION_BUS_ADDRESS": bus}) as server, server.connect(token=SECRET) as ws:
        ws.send(json.dumps(HELLO))
        assert json.loads(ws.recv(timeout=5))["type"] == "welcome"
        ws.send(json.dumps({"type": "media", "do": "watch"}))
        wait_for(lambda: json.loads(ws.recv(timeout=5)).get("title") == album[0].title, 10, "the server to read the bus")
        # What plays at the server's start is no event; the next track is.
        first.next()
        track = wait_for(lambda: next((e for e in events(tmp_path) if e[0]["event"] == "track"), None), 10,
                         "the track hook")
        stdin, argv, title, name = track
        assert stdin["type"] == "media" and stdin["title"] == album[1].title == title
        assert stdin["artist"] == album[1].artist and stdin["player"] == first.name and name == stdin["name"]
        assert argv.split(" ")[:2] == ["track", "playing"]
        assert abs(int(argv.split(" ")[2]) - first.metadata()["mpris:length"] / 1000) <= 1
        first.play_pause()
        paused = wait_for(lambda: next((e for e in events(tmp_path) if e[0]["event"] == "paused"), None), 10,
                          "the paused hook")
        assert paused[1].startswith("paused paused ") and paused[0]["title"] == album[1].title
        first.stop()
        stopped = wait_for(lambda: next((e for e in events(tmp_path) if e[0]["event"] == "stopped"), None), 10,
                           "the stopped hook")
        assert stopped[0]["status"] == "stopped"
        assert not [e for e in events(tmp_path) if e[1].startswith("other")]  # `player: spotify` never ran
        kinds = [e[0]["event"] for e in events(tmp_path)]
        assert kinds.count("track") == 1, kinds  # the first track, playing at the start, was no event
    assert os.path.exists(tmp_path / "events.log")
