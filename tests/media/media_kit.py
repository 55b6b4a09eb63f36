"""A real media player on a private session bus, for the media remote's tests (issue 44).

    with SessionBus() as address:
        track = make_track(tmp / "a" / "one.mp3", "Title", "Artist", "Album", hue=210)
        with Player(address, [track]) as player:
            player.metadata()["xesam:title"]   # "Title", read back over MPRIS
            player.play_pause()
            wait_for(lambda: player.status() == "Paused")

- `SessionBus`: a `dbus-daemon` of the test's own (tests/portal's PrivateBus: a session bus
  that activates nothing, so no player or service of this machine's desktop can answer on it).
- `make_track`: a short sine tone made by ffmpeg, tagged with a title, artist and album, with a
  cover of one plain colour (so a page's screenshot can be checked by its colour) both beside
  it as `cover.png` and embedded in the file.
- `Player`: `mpv` with Debian's mpv-mpris plugin, silent and windowless, on a playlist of
  tracks; it is ready once its org.mpris.MediaPlayer2.* name is on the bus and the first track
  is loaded.
- `Mpris`: a D-Bus connection (dbus-fast, driven from a thread of its own so that the calls
  here block) that reads and drives players and records the signals they emit, each with the
  time.monotonic() of its arrival.
- `wait_for`: polls a condition every 20 ms until it holds, or fails after a deadline.

What Debian 12's mpv-mpris 0.7.1 does, which the tests rely on (test_media_kit.py pins it):
the first mpv owns `org.mpris.MediaPlayer2.mpv`, the next ones (the name being taken)
`org.mpris.MediaPlayer2.mpv.instance<PID>`. Its cover is never the picture embedded in the
file (that came with mpv-mpris 1.1, as a `data:image/jpeg;base64,…` URL): it is the first of
Folder.jpg, Folder.png, …, cover.jpg, cover.png, … in the track's folder, as a file:// URL —
so tracks with different covers need folders of their own. Property changes are collected and
sent as one PropertiesChanged every 100 ms; Seeked is sent at once. A file's first Metadata
(as it starts loading) has its file name as title and no tags or length: Player waits past it.
Under `--ao=null` a SetPosition made while paused after playing lands about 0.15–0.2 s early
(the null output's buffered audio); while playing, or paused from the start, Seeked reports
the target within 1 ms. Shuffle means nothing (0.7.1 reads an mpv property that does not exist).
"""
from __future__ import annotations

import asyncio
import colorsys
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable
from urllib.parse import unquote, urlsplit

HERE = Path(__file__).resolve().parent
for folder in (HERE.parent, HERE.parent / "portal"):  # testkit, portal_harness
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from portal_harness import PrivateBus, dbus_daemon_path  # noqa: E402

# Where Debian's mpv-mpris puts the plugin (it also links it into /etc/mpv/scripts/, which
# `--no-config` keeps mpv from reading: the player loads it once, from here).
MPRIS_PLUGIN = Path("/usr/lib/mpv-mpris/mpris.so")
PREFIX = "org.mpris.MediaPlayer2."
OBJECT = "/org/mpris/MediaPlayer2"
ROOT = "org.mpris.MediaPlayer2"
PLAYER = "org.mpris.MediaPlayer2.Player"
PROPERTIES = "org.freedesktop.DBus.Properties"
# The name of the cover mpv-mpris 0.7.1 finds beside a track (one of the names it looks for).
COVER_NAME = "cover.png"


def missing() -> list[str]:
    """What this machine lacks for a real player (empty: nothing), as package names."""
    lacking = [program for program in ("mpv", "ffmpeg") if not shutil.which(program)]
    if not MPRIS_PLUGIN.exists():
        lacking.append("mpv-mpris")
    if not dbus_daemon_path():
        lacking.append("dbus")
    return lacking


def skip_reason(required: bool) -> str | None:
    """Why tests that need a real player are skipped here; None when they run. When `required`
    (GESTUREPAD_REQUIRE_MEDIA=1) nothing is skipped: the tests then fail on what is missing."""
    lacking = missing()
    if not lacking or required:
        return None
    return "not installed: " + ", ".join(lacking) + " (scripts/setup.sh --test)"


def wait_for(predicate: Callable[[], Any], timeout: float = 10.0, what: str | None = None) -> Any:
    """Polls `predicate` every 20 ms until it returns something true, and returns that. After
    `timeout` seconds (a deadline for something that should come much sooner, not a duration
    the test expects) raises TimeoutError naming `what` and the last value seen."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise TimeoutError(f"timed out after {timeout} s waiting for {what or predicate}: last {value!r}")
        time.sleep(0.02)


class SessionBus:
    """A private session bus while the `with` block runs; `with SessionBus() as address:` gives
    its address, the DBUS_SESSION_BUS_ADDRESS of every process meant to be on it."""

    def __enter__(self) -> str:
        self.bus = PrivateBus()
        return self.bus.address

    def __exit__(self, *exc) -> None:
        self.bus.close()


# -- tracks ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Track:
    """A generated audio file and what it was made with."""
    path: Path
    title: str
    artist: str
    album: str
    seconds: float
    cover: Path | None  # the cover.png beside it (None: made without a cover)
    rgb: tuple[int, int, int] | None  # the cover's one colour

    @property
    def url(self) -> str:
        """The file's URL (mpv-mpris's xesam:url names the same file; compare with file_path)."""
        return self.path.as_uri()


def make_track(path: Path | str, title: str, artist: str, album: str, seconds: float = 60.0,
               cover: bool = True, hue: float = 210.0) -> Track:
    """Writes a `seconds`-long 440 Hz tone to `path` (an .mp3: 8 kHz mono, ID3 tags), in about
    0.1 s. With `cover`, a 256×256 PNG of one colour (`hue` in degrees, saturated and bright) is
    written beside it as cover.png — which is what mpv-mpris 0.7.1 reports — and embedded in
    the file as its front cover picture (what newer players read). A folder holds one cover,
    so tracks with different covers, or one without a cover, need folders of their own: a
    track that would get another track's cover is refused (ValueError)."""
    path = Path(path).resolve()
    if path.suffix.lower() != ".mp3":
        raise ValueError(f"{path}: make_track writes MP3 files (ID3 tags with an embedded picture)")
    path.parent.mkdir(parents=True, exist_ok=True)
    beside = path.parent / COVER_NAME
    tags = ["-metadata", f"title={title}", "-metadata", f"artist={artist}", "-metadata", f"album={album}"]
    tone = ["-f", "lavfi", "-i", f"sine=frequency=440:sample_rate=8000:duration={seconds}"]
    audio = ["-map", "0:a", "-c:a", "libmp3lame", "-b:a", "8k", "-ac", "1", "-id3v2_version", "3"]
    rgb = None
    if cover:
        red, green, blue = colorsys.hsv_to_rgb((hue % 360) / 360, 0.65, 0.85)
        rgb = (round(red * 255), round(green * 255), round(blue * 255))
        picture = ["-f", "lavfi", "-i", "color=c=0x{:02x}{:02x}{:02x}:s=256x256:d=1".format(*rgb)]
        # Two outputs of one ffmpeg: the PNG beside the track into a temporary name first, so
        # that it can be compared with a cover already there; the track with the same picture
        # as its attached (cover) picture.
        fresh = path.parent / f".{path.name}.cover.png"
        outputs = ["-map", "1:v", "-frames:v", "1", "-c:v", "png", "-f", "image2", "-update", "1", str(fresh),
                   *audio, "-map", "1:v", "-frames:v", "1", "-c:v", "png", "-disposition:v", "attached_pic",
                   "-metadata:s:v", "title=Cover", "-metadata:s:v", "comment=Cover (front)", *tags, str(path)]
        _ffmpeg([*tone, *picture, *outputs])
        if beside.exists() and beside.read_bytes() != fresh.read_bytes():
            fresh.unlink()
            path.unlink()
            raise ValueError(f"{beside} is another track's cover: put this track in a folder of its own")
        fresh.replace(beside)
    else:
        if beside.exists():
            raise ValueError(f"{beside} would be this track's cover too: put it in a folder of its own")
        _ffmpeg([*tone, *audio, *tags, str(path)])
    return Track(path, title, artist, album, seconds, beside if cover else None, rgb)


def _ffmpeg(arguments: list[str]) -> None:
    result = subprocess.run(["ffmpeg", "-nostdin", "-hide_banner", "-loglevel", "error", "-y", *arguments],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=60)
    if result.returncode != 0:
        raise RuntimeError(f"ffmpeg failed ({result.returncode}): {result.stderr.strip()}")


# -- reading and driving players over D-Bus -------------------------------------------------------

class MprisError(RuntimeError):
    """A D-Bus error reply: `name` (org.freedesktop.DBus.Error.…) and its message."""

    def __init__(self, name: str, message: str):
        super().__init__(f"{name}: {message}")
        self.name = name


@dataclass(frozen=True)
class Signal:
    """A signal as it arrived: `at` on time.monotonic()'s clock, the sender's unique name,
    the member (PropertiesChanged, Seeked, NameOwnerChanged) and its arguments as plain
    Python values (PropertiesChanged: [interface, {property: value}, [invalidated]])."""
    at: float
    sender: str
    member: str
    body: list

    @property
    def changed(self) -> dict:
        """PropertiesChanged's changed properties ({} for other signals)."""
        return self.body[1] if self.member == "PropertiesChanged" else {}


def plain(value: Any) -> Any:
    """A D-Bus value with its variants unwrapped: str, int, float, bool, list, dict (the fake
    portal's unwrapping, the same values)."""
    from fake_portal import plain as unwrapped

    return unwrapped(value)


def file_path(url: str | None) -> Path | None:
    """The local file a file:// URL (xesam:url, mpris:artUrl) names; None for any other URL.
    Compare paths rather than URLs: GLib and Python escape different characters."""
    if not url or not url.startswith("file://"):
        return None
    return Path(unquote(urlsplit(url).path))


class Mpris:
    """A connection to the bus at `address` that reads and drives MPRIS players by bus name,
    and records every signal they send (PropertiesChanged, Seeked) and players arriving and
    leaving (NameOwnerChanged), from the moment it connects. Calls block, each for at most
    `timeout` seconds; dbus-fast runs in a thread of its own. Close it (or use `with`)."""

    # The match rules: what the bus daemon forwards to this connection besides replies.
    RULES = (
        f"type='signal',interface='{PROPERTIES}',member='PropertiesChanged',path='{OBJECT}'",
        f"type='signal',interface='{PLAYER}',member='Seeked',path='{OBJECT}'",
        f"type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0namespace='{ROOT}'",
    )

    def __init__(self, address: str, timeout: float = 5.0):
        self.address = address
        self.timeout = timeout
        self._signals: list[Signal] = []
        self._lock = threading.Lock()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="media_kit D-Bus", daemon=True)
        self._thread.start()
        try:
            self._bus = self._run(self._connect())
        except BaseException:
            self._stop_loop()
            raise

    async def _connect(self):
        from dbus_fast.aio import MessageBus

        bus = await MessageBus(bus_address=self.address).connect()
        bus.add_message_handler(self._received)
        for rule in self.RULES:
            await self._checked(bus, self._message("org.freedesktop.DBus", "/org/freedesktop/DBus",
                                                   "org.freedesktop.DBus", "AddMatch", "s", [rule]))
        return bus

    def close(self) -> None:
        if self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._bus.disconnect)
            self._stop_loop()

    def _stop_loop(self) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=5)
        if not self._thread.is_alive():
            self._loop.close()

    def __enter__(self) -> "Mpris":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- the plumbing: one method call, waited for from the caller's thread ---------------------
    def _run(self, coroutine):
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result(self.timeout)

    @staticmethod
    def _message(destination: str, path: str, interface: str, member: str, signature: str = "",
                 body: list | None = None):
        from dbus_fast import Message

        return Message(destination=destination, path=path, interface=interface, member=member,
                       signature=signature, body=body or [])

    @staticmethod
    async def _checked(bus, message) -> list:
        from dbus_fast import MessageType

        reply = await bus.call(message)
        if reply.message_type == MessageType.ERROR:
            raise MprisError(reply.error_name, str(reply.body[0]) if reply.body else "")
        return reply.body

    def call(self, destination: str, interface: str, member: str, signature: str = "", *args,
             path: str = OBJECT) -> list:
        """Calls `interface.member(args)` (`signature` their D-Bus types) on `destination`'s
        `path`; returns the reply's values, plain. A D-Bus error raises MprisError."""
        message = self._message(destination, path, interface, member, signature, list(args))
        return plain(self._run(self._checked(self._bus, message)))

    def _received(self, message) -> None:
        from dbus_fast import MessageType

        if message.message_type == MessageType.SIGNAL:
            record = Signal(time.monotonic(), message.sender, message.member, plain(message.body))
            with self._lock:
                self._signals.append(record)

    # -- the bus ----------------------------------------------------------------------------------
    def _daemon(self, member: str, signature: str = "", *args) -> list:
        return self.call("org.freedesktop.DBus", "org.freedesktop.DBus", member, signature, *args,
                         path="/org/freedesktop/DBus")

    def players(self) -> list[str]:
        """The MPRIS players on the bus: their org.mpris.MediaPlayer2.* names, sorted."""
        return sorted(name for name in self._daemon("ListNames")[0] if name.startswith(PREFIX))

    def owner(self, name: str) -> str:
        """The unique name (":1.7") that owns `name`: the sender of its signals."""
        return self._daemon("GetNameOwner", "s", name)[0]

    def pid(self, name: str) -> int:
        """The process that owns `name`, as the bus daemon knows it."""
        return self._daemon("GetConnectionUnixProcessID", "s", name)[0]

    def signals(self, sender: str | None = None, member: str | None = None, since: float = 0.0) -> list[Signal]:
        """The signals recorded so far, oldest first: from unique name `sender` (None: any),
        of `member` (None: any), arrived at or after `since` (time.monotonic())."""
        with self._lock:
            recorded = list(self._signals)
        return [s for s in recorded
                if (sender is None or s.sender == sender) and (member is None or s.member == member)
                and s.at >= since]

    # -- one player's properties --------------------------------------------------------------
    def get(self, name: str, prop: str, interface: str = PLAYER) -> Any:
        """Property `prop` of player `name` (org.mpris.MediaPlayer2.Player's by default)."""
        return self.call(name, PROPERTIES, "Get", "ss", interface, prop)[0]

    def get_all(self, name: str, interface: str = PLAYER) -> dict:
        """Every property of `interface` of player `name`."""
        return self.call(name, PROPERTIES, "GetAll", "s", interface)[0]

    def set(self, name: str, prop: str, signature: str, value: Any, interface: str = PLAYER) -> None:
        """Sets property `prop` (of D-Bus type `signature`: "d", "b", "s") of player `name`."""
        from dbus_fast import Variant

        self.call(name, PROPERTIES, "Set", "ssv", interface, prop, Variant(signature, value))

    def status(self, name: str) -> str:
        """PlaybackStatus: "Playing", "Paused" or "Stopped"."""
        return self.get(name, "PlaybackStatus")

    def metadata(self, name: str) -> dict:
        """Metadata: xesam:title, xesam:artist (a list), xesam:album, mpris:artUrl, mpris:length
        (µs), mpris:trackid, xesam:url, … as plain values."""
        return self.get(name, "Metadata")

    def position(self, name: str) -> int:
        """Position in µs (mpv-mpris: the playback position at the moment of the call)."""
        return self.get(name, "Position")

    def rate(self, name: str) -> float:
        return self.get(name, "Rate")

    def volume(self, name: str) -> float:
        """Volume: 1.0 is mpv's 100 %; mpv goes up to 1.3."""
        return self.get(name, "Volume")

    def set_volume(self, name: str, volume: float) -> None:
        self.set(name, "Volume", "d", float(volume))

    def set_rate(self, name: str, rate: float) -> None:
        self.set(name, "Rate", "d", float(rate))

    # -- one player's methods -----------------------------------------------------------------
    def play_pause(self, name: str) -> None:
        self.call(name, PLAYER, "PlayPause")

    def next(self, name: str) -> None:
        self.call(name, PLAYER, "Next")

    def previous(self, name: str) -> None:
        self.call(name, PLAYER, "Previous")

    def set_position(self, name: str, microseconds: int, track_id: str | None = None) -> None:
        """SetPosition(track_id, microseconds); `track_id` defaults to the current track's
        mpris:trackid (mpv-mpris ignores the call, without an error, for any other)."""
        track_id = track_id or self.metadata(name)["mpris:trackid"]
        self.call(name, PLAYER, "SetPosition", "ox", track_id, int(microseconds))

    def quit(self, name: str) -> None:
        """org.mpris.MediaPlayer2.Quit: the player ends itself (mpv exits with status 0)."""
        self.call(name, ROOT, "Quit")


# -- a real player ----------------------------------------------------------------------------

class Player:
    """`mpv` playing `tracks` (a playlist, from the first) on the bus at `address`, with
    Debian's mpv-mpris: no audio device (`--ao=null` plays in real time into nothing), no
    video, no window, none of this machine's mpv configuration. `paused` starts it paused,
    `loop` repeats the playlist (else it stays, "Stopped", after the last track). The
    constructor returns once the player's MPRIS name is on the bus and its first track is
    loaded (`ready_after`: seconds from start; `name_after`: until the name appeared), within
    `timeout` seconds. `name` is its bus name, `owner` its unique name; the MPRIS calls below
    go through its own `mpris` connection, which also records its signals. Stop it with
    `stop()` (SIGTERM) or `quit()` (MPRIS Quit), or use `with`."""

    def __init__(self, address: str, tracks: list[Track], paused: bool = False, loop: bool = False,
                 timeout: float = 10.0, extra: list[str] | None = None):
        self.tracks = list(tracks)
        self.log = tempfile.NamedTemporaryFile(prefix="gesturepad-mpv-", suffix=".log", delete=False)
        arguments = ["mpv", "--no-config", "--load-scripts=no", f"--script={MPRIS_PLUGIN}",
                     "--ao=null", "--vid=no", "--audio-display=no", "--idle=yes", "--input-terminal=no",
                     "--msg-level=all=warn", "--volume=100"]
        arguments += ["--pause"] if paused else []
        arguments += ["--loop-playlist=inf"] if loop else []
        arguments += list(extra or [])
        arguments += ["--", *(str(track.path) for track in self.tracks)]
        environment = dict(os.environ, DBUS_SESSION_BUS_ADDRESS=address)
        self.returncode: int | None = None
        self._output: str | None = None
        # Connected before mpv starts, so that its arrival (NameOwnerChanged) is recorded too.
        self.mpris = Mpris(address)
        started = time.monotonic()
        self.process = subprocess.Popen(arguments, stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log,
                                        env=environment, start_new_session=True)
        try:
            self.name = wait_for(self._own_name, timeout, "mpv's MPRIS name")
            self.name_after = time.monotonic() - started
            self.owner = self.mpris.owner(self.name)
            first = self.tracks[0].path if self.tracks else None
            wait_for(lambda: self._running() and self._loaded(first), timeout, "the first track to load")
            self.ready_after = time.monotonic() - started
        except BaseException:
            self.stop()
            raise

    def _loaded(self, path: Path | None) -> bool:
        metadata = self.metadata()
        return "mpris:length" in metadata and file_path(metadata.get("xesam:url")) == path

    def _running(self) -> bool:
        if self.process.poll() is not None:
            raise RuntimeError(f"mpv exited with {self.process.returncode}: {self.output()}")
        return True

    def _own_name(self) -> str | None:
        """This process's org.mpris.MediaPlayer2.* name, once it has one."""
        self._running()
        for name in self.mpris.players():
            try:
                if self.mpris.pid(name) == self.process.pid:
                    return name
            except MprisError:  # the name's owner left between the two calls
                continue
        return None

    def output(self) -> str:
        """What mpv wrote (warnings and errors only)."""
        if self._output is not None:
            return self._output
        return Path(self.log.name).read_text(errors="replace")

    # -- reading it back ----------------------------------------------------------------------
    def status(self) -> str:
        return self.mpris.status(self.name)

    def metadata(self) -> dict:
        return self.mpris.metadata(self.name)

    def title(self) -> str | None:
        return self.metadata().get("xesam:title")

    def position(self) -> int:
        return self.mpris.position(self.name)

    def rate(self) -> float:
        return self.mpris.rate(self.name)

    def volume(self) -> float:
        return self.mpris.volume(self.name)

    def get(self, prop: str, interface: str = PLAYER) -> Any:
        return self.mpris.get(self.name, prop, interface)

    def signals(self, member: str | None = None, since: float = 0.0) -> list[Signal]:
        """The signals this player sent since its `mpris` connected (see Mpris.signals)."""
        return self.mpris.signals(self.owner, member, since)

    # -- driving it ---------------------------------------------------------------------------
    def play_pause(self) -> None:
        self.mpris.play_pause(self.name)

    def next(self) -> None:
        self.mpris.next(self.name)

    def previous(self) -> None:
        self.mpris.previous(self.name)

    def set_position(self, microseconds: int, track_id: str | None = None) -> None:
        self.mpris.set_position(self.name, microseconds, track_id)

    def set_volume(self, volume: float) -> None:
        self.mpris.set_volume(self.name, volume)

    def set_rate(self, rate: float) -> None:
        self.mpris.set_rate(self.name, rate)

    # -- ending it ----------------------------------------------------------------------------
    def quit(self, timeout: float = 5.0) -> int | None:
        """Asks the player to quit over MPRIS and waits (`timeout` s) for it to exit; its exit
        status (0)."""
        self.mpris.quit(self.name)
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            pass  # stop() ends it, and its status says so
        return self.stop()

    def stop(self, timeout: float = 5.0) -> int | None:
        """Ends mpv (SIGTERM; SIGKILL if it is still there after `timeout` s) and closes the
        connection; mpv's exit status (0 after quit(), -15 for the SIGTERM, -9 when it had to be
        killed). Calling it again does nothing more."""
        if self._output is not None:
            return self.returncode
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.returncode = self.process.returncode
        self.mpris.close()
        self._output = self.output()
        self.log.close()
        Path(self.log.name).unlink(missing_ok=True)
        return self.returncode

    def __enter__(self) -> "Player":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()
