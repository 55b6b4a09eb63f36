"""The computer's own volume (issue 44; docs/control.md "Media players and presenter mode"),
through its sound server: a real PipeWire with WirePlumber and a null output on a private
runtime directory and session bus (sound_server.py), the real server, and a client that speaks
the page's `media` messages. What the page is told is read back with `wpctl`, and what it asks
is what `wpctl` then says — with no media player at all, and with control off."""
from __future__ import annotations

import json
import os

import pytest

from media_kit import wait_for
from sound_server import SoundServer, missing
from testkit import Server

SECRET = "computer-volume-" + os.urandom(16).hex()
HELLO = {"type": "hello", "protocol": 1, "role": "touchpad", "width": 390, "height": 844}


@pytest.fixture
def sound(bus):
    lacking = missing()
    if lacking:
        pytest.fail("not installed: " + ", ".join(lacking) + " (scripts/setup.sh --test)")
    server = SoundServer(bus)
    with server:
        yield server


def told(ws, predicate, what: str) -> dict:
    """The next `media` message that satisfies `predicate` (others are skipped)."""
    def next_media():
        message = json.loads(ws.recv(timeout=5))
        return message if message.get("type") == "media" and predicate(message) else None
    return wait_for(next_media, 10, what)


def test_the_page_reads_and_sets_the_computers_volume(sound):
    env = {k: sound.env[k] for k in ("XDG_RUNTIME_DIR", "DBUS_SESSION_BUS_ADDRESS")}
    with Server(token=SECRET, extra=["--control", "off"], env=env) as server, server.connect(token=SECRET) as ws:
        ws.send(json.dumps(HELLO))
        assert json.loads(ws.recv(timeout=5))["type"] == "welcome"
        ws.send(json.dumps({"type": "media", "do": "watch"}))
        volume, muted = sound.volume()
        first = told(ws, lambda m: "computer" in m, "the computer's volume")
        assert first["available"] is False and first["why"] == "no-player"  # no player, still a volume
        assert abs(first["computer"]["volume"] - min(volume, 1)) < 0.01 and first["computer"]["muted"] is muted

        ws.send(json.dumps({"type": "media", "do": "computer-volume", "volume": 0.3}))
        wait_for(lambda: (v := sound.volume()) and abs(v[0] - 0.3) < 0.01, 5, "wpctl to read 0.30")
        told(ws, lambda m: abs(m["computer"]["volume"] - 0.3) < 0.01, "0.3 told back")

        ws.send(json.dumps({"type": "media", "do": "computer-mute"}))
        wait_for(lambda: sound.volume()[1] != muted, 5, "the output to mute")
        told(ws, lambda m: m["computer"]["muted"] is (not muted), "the mute told back")

        # A change made elsewhere (the keyboard's volume keys) shows when the page looks again.
        sound.wpctl("set-volume", "@DEFAULT_AUDIO_SINK@", "0.7")
        ws.send(json.dumps({"type": "media", "do": "watch"}))
        told(ws, lambda m: abs(m["computer"]["volume"] - 0.7) < 0.01, "0.7 read again")


def test_without_a_sound_server_nothing_is_said_of_it(bus, tmp_path):
    env = {"DBUS_SESSION_BUS_ADDRESS": bus, "XDG_RUNTIME_DIR": str(tmp_path)}
    with Server(token=SECRET, env=env) as server, server.connect(token=SECRET) as ws:
        ws.send(json.dumps(HELLO))
        assert json.loads(ws.recv(timeout=5))["type"] == "welcome"
        ws.send(json.dumps({"type": "media", "do": "watch"}))
        message = told(ws, lambda m: True, "the players' state")
        assert "computer" not in message
        ws.send(json.dumps({"type": "media", "do": "computer-mute"}))
        error = json.loads(ws.recv(timeout=5))
        assert error["type"] == "error" and error["code"] == "media_unavailable" and "sound server" in error["message"]
