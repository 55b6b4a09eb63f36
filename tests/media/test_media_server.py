"""The server as the computer's media remote (issue 44; docs/protocol.md "Media", docs/control.md
"Media players"), against real players: `mpv` with Debian's mpv-mpris on a private session bus
(media_kit), the real server, and a real WebSocket client that speaks the page's `media`
messages. What the page is told is checked against what the player says over MPRIS, and what the
page asks is read back from the player."""
from __future__ import annotations

import base64
import json
import os
import tempfile
import time

from media_kit import wait_for
from testkit import Server

SECRET = "media-remote-" + os.urandom(16).hex()
HELLO = {"type": "hello", "protocol": 1, "role": "touchpad", "width": 390, "height": 844}


class Page:
    """A touchpad client (`?token=` from loopback) that asked to hear the players: keeps every
    `media` and `media-art` message it receives, with when (monotonic s)."""

    def __init__(self, server: Server):
        self.ws = server.connect(token=SECRET)
        self.ws.send(json.dumps(HELLO))
        assert json.loads(self.ws.recv(timeout=5))["type"] == "welcome"
        self.media: list[tuple[float, dict]] = []
        self.art: dict[str, str] = {}
        self.send({"type": "media", "do": "watch"})

    def send(self, message: dict) -> None:
        self.ws.send(json.dumps(message))

    def read(self, timeout: float = 0.2) -> None:
        """Takes in what arrived within `timeout` s."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                message = json.loads(self.ws.recv(timeout=left))
            except TimeoutError:
                return
            if message.get("type") == "media":
                self.media.append((time.monotonic(), message))
            elif message.get("type") == "media-art":
                self.art[message["art"]] = message["data"]
            elif message.get("type") == "error":
                raise AssertionError(f"the server refused a message: {message}")

    def latest(self) -> dict:
        self.read(0.05)
        return self.media[-1][1] if self.media else {}

    def until(self, predicate, timeout: float = 5.0, what: str = "the page to be told") -> dict:
        def seen():
            latest = self.latest()
            return latest if latest and predicate(latest) else None
        return wait_for(seen, timeout, what)

    def close(self) -> None:
        self.ws.close()


def serve(bus: str) -> Server:
    # A runtime directory of its own: no sound server there, so the messages say nothing of the
    # computer's volume (test_media_computer.py's).
    return Server(token=SECRET, env={"DBUS_SESSION_BUS_ADDRESS": bus, "XDG_RUNTIME_DIR": tempfile.mkdtemp()})


def test_the_page_sees_the_player_and_drives_it(bus, players, album):
    player = players(album, paused=False)
    with serve(bus) as server:
        page = Page(server)
        try:
            told = page.until(lambda m: m.get("title") == album[0].title)
            # What the player says over MPRIS, as the page is told it.
            assert told["available"] is True and told["player"] == player.name
            assert told["artist"] == album[0].artist and told["album"] == album[0].album
            assert told["status"] == "playing" and told["canSeek"] and told["canNext"]
            assert abs(told["length"] - player.metadata()["mpris:length"] / 1000) <= 1
            assert [p["id"] for p in told["players"]] == [player.name]
            # The cover: the PNG beside the track, sent once, over the sealed-or-not connection
            # itself (never a path of this computer).
            assert told["art"] in page.art
            data = page.art[told["art"]]
            assert data.startswith("data:image/png;base64,")
            assert base64.b64decode(data.split(",", 1)[1]) == album[0].cover.read_bytes()
            assert str(album[0].cover) not in json.dumps(told)

            page.send({"type": "media", "do": "play-pause"})
            wait_for(lambda: player.status() == "Paused", 5, "the player to pause")
            paused = page.until(lambda m: m["status"] == "paused")
            position = paused["position"]
            assert abs(position - player.position() / 1000) < 250

            page.send({"type": "media", "do": "seek", "position": 30000})
            wait_for(lambda: abs(player.position() / 1000 - 30000) < 500, 5, "the player to seek")
            page.until(lambda m: abs(m["position"] - 30000) < 500)

            page.send({"type": "media", "do": "volume", "volume": 0.25})
            wait_for(lambda: abs(player.volume() - 0.25) < 0.01, 5, "the player's volume")
            page.until(lambda m: abs(m.get("volume", 0) - 0.25) < 0.01)

            page.send({"type": "media", "do": "next"})
            wait_for(lambda: player.title() == album[1].title, 5, "the next track")
            page.until(lambda m: m.get("title") == album[1].title)
            page.send({"type": "media", "do": "previous"})
            wait_for(lambda: player.title() == album[0].title, 5, "the previous track")
        finally:
            page.close()


def test_a_track_change_reaches_the_page_within_200_ms(bus, players, album):
    player = players(album)
    with serve(bus) as server:
        page = Page(server)
        try:
            page.until(lambda m: m.get("title") == album[0].title)
            delays = []
            for expected in (album[1].title, album[2].title):
                page.read(0.2)  # settle
                start = time.monotonic()
                player.next()  # the player changes by itself, not through the page
                told = page.until(lambda m, t=expected: m.get("title") == t)
                at = next(when for when, message in page.media if message is told)
                delays.append(at - start)
            assert max(delays) < 0.2, delays
            # The third track has no cover: the page is told none.
            assert "art" not in page.latest()
        finally:
            page.close()


def test_a_second_player_appears_in_the_chooser_and_its_leaving_shows(bus, players, album):
    first = players(album[:1])
    with serve(bus) as server:
        page = Page(server)
        try:
            page.until(lambda m: [p["id"] for p in m.get("players", [])] == [first.name])
            second = players(album[1:2], paused=True)
            told = page.until(lambda m: len(m.get("players", [])) == 2, what="the second player")
            assert {p["id"] for p in told["players"]} == {first.name, second.name}
            # The page chooses the second: the state follows it, and so do the commands.
            page.send({"type": "media", "do": "player", "player": second.name})
            page.until(lambda m: m["player"] == second.name and m.get("title") == album[1].title)
            page.send({"type": "media", "do": "play-pause"})
            wait_for(lambda: second.status() == "Playing", 5, "the chosen player to play")
            assert first.status() == "Playing"  # untouched
            second.stop()
            told = page.until(lambda m: [p["id"] for p in m.get("players", [])] == [first.name],
                              what="the second player to leave")
            assert told["player"] == first.name
            first.stop()
            told = page.until(lambda m: m.get("available") is False, what="no player")
            assert told == {"type": "media", "available": False, "why": "no-player"}
            # A command with no player is answered, calmly: the connection stays.
            page.send({"type": "media", "do": "next"})
            error = json.loads(page.ws.recv(timeout=3))
            assert error["type"] == "error" and error["code"] == "media_unavailable"
        finally:
            page.close()


def test_no_session_bus_is_said_calmly(tmp_path):
    env = {"DBUS_SESSION_BUS_ADDRESS": f"unix:path={tmp_path}/no-bus", "XDG_RUNTIME_DIR": str(tmp_path)}
    with Server(token=SECRET, env=env) as server:
        page = Page(server)
        try:
            told = page.until(lambda m: m.get("available") is False)
            assert told == {"type": "media", "available": False, "why": "no-bus"}
        finally:
            page.close()
        assert "Traceback" not in server.stderr() and " error " not in server.stderr().lower()


def test_a_page_that_does_not_ask_hears_nothing(bus, players, album):
    players(album[:1])
    with serve(bus) as server:
        with server.connect(token=SECRET) as ws:
            ws.send(json.dumps(HELLO))
            assert json.loads(ws.recv(timeout=5))["type"] == "welcome"
            ws.send(json.dumps({"type": "ping", "t": 1}))
            assert json.loads(ws.recv(timeout=5))["type"] == "pong"
            try:
                extra = ws.recv(timeout=0.5)
            except TimeoutError:
                extra = None
            assert extra is None, extra
