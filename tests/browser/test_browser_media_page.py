"""The media and presenter views of the touchpad page (docs/page.md "Media", "Presenter"), in
real headless Chromium (phone emulation, touch) against a real `gesturepad serve --control x11`
on a private Xvfb — and the same views once in each engine.

What the media view shows comes from real players (issue 44): `mpv` with Debian's mpv-mpris
(tests/media/media_kit.py) playing generated tracks with a title, artist, album and a cover of
one plain colour, on a private session bus that the server of this file is on. The page hears
them the way it does on a desktop — the server's `media` and `media-art`, sealed — and what a
tap does is read back from the player over MPRIS (status, title, position, volume, Seeked).
What a tap sends is also read from the frames the tab really sent (CDP), sealed each in a frame
of its own; the presenter's slide keys are read at the X server.

Without mpv, mpv-mpris, ffmpeg or dbus the tests that need a player are skipped with the reason
— or fail, under GESTUREPAD_REQUIRE_MEDIA=1 (`make test`)."""

from __future__ import annotations

import base64
import json
import os
import sys
import time
from pathlib import Path

import pytest
from browser_harness import (
    ARTIFACTS, Player, Server, check_screen, check_wire, forget_prefs, no_console_errors, open_ctl_pad, tap_element,
    wait_wire, wire_messages,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "media"))
import media_kit  # noqa: E402  (tests/media: a real mpv with mpv-mpris on a private session bus)

MEDIA_REQUIRED = os.environ.get("GESTUREPAD_REQUIRE_MEDIA") == "1"

# What a person sees, read from the DOM.
SEEN_JS = r"""
(function () {
  var v = document.getElementById('media-view'), q = function (s) { return v.querySelector(s); };
  var img = q('.cover img');
  return { open: !v.hidden && v.getClientRects().length > 0, none: q('.media-none').hidden ? null : q('.media-none').textContent,
    title: q('.media-title').textContent, artist: q('.media-artist').textContent, album: q('.media-album').textContent,
    status: q('.media-status').textContent, toggle: q('[data-do=toggle]').getAttribute('aria-label'),
    cover: img.hidden ? null : { src: img.getAttribute('src'), loaded: img.complete && img.naturalWidth, alt: img.alt,
      width: img.getBoundingClientRect().width },
    seek: +q('input[name=seek]').value, seekMax: +q('input[name=seek]').max, elapsed: q('.media-elapsed').textContent,
    length: q('.media-length').textContent, volume: q('.media-volume').hidden ? null : +q('input[name=volume]').value,
    choice: q('.media-choice').hidden ? null : Array.from(q('select').options).map(function (o) { return [o.value, o.textContent]; }),
    chosen: q('select').value,
    disabled: Array.from(v.querySelectorAll('button, input, select')).filter(function (e) { return e.disabled && e.getClientRects().length; })
      .map(function (e) { return e.getAttribute('aria-label') || e.name || e.textContent.trim(); }),
    computer: !q('.computer-volume').hidden };
})()
"""

# The colour of the middle of the cover the view holds, as the engine decoded it (null while
# there is none, or it is not decoded yet).
COVER_RGB_JS = ("(function (img) { if (img.hidden || !img.complete || !img.naturalWidth) return null;"
                " var c = document.createElement('canvas'); c.width = c.height = 1; var x = c.getContext('2d');"
                " x.drawImage(img, img.naturalWidth / 2, img.naturalHeight / 2, 1, 1, 0, 0, 1, 1);"
                " return Array.from(x.getImageData(0, 0, 1, 1).data.slice(0, 3)); })"
                "(document.querySelector('#media-view .cover img'))")


def seen(page) -> dict:
    return page.eval(SEEN_JS)


def until(page, predicate, what: str, timeout: float = 5.0) -> dict:
    """What the view shows, once `predicate` holds for it (any engine's page)."""
    return media_kit.wait_for(lambda: (lambda s: s if s and predicate(s) else None)(seen(page)), timeout, what)


def near(rgb, want, tolerance: int) -> bool:
    return bool(rgb) and all(abs(a - b) <= tolerance for a, b in zip(rgb, want))


def shows_cover_of(page, track: media_kit.Track, timeout: float = 5.0) -> dict:
    """Waits until the view shows `track`'s cover, decoded, in its colour; checks that it is the
    very PNG beside the track (mpv-mpris's mpris:artUrl), as a data: URL — never a file's
    address. Returns what the view shows."""
    media_kit.wait_for(lambda: near(page.eval(COVER_RGB_JS), track.rgb, 2), timeout, f"the cover of {track.title!r} {track.rgb}")
    s = seen(page)
    src = s["cover"]["src"]
    assert src.startswith("data:image/png;base64,"), src[:60]
    assert base64.b64decode(src.split(",", 1)[1]) == track.cover.read_bytes()
    assert s["cover"]["loaded"] == 256
    return s


def screen_rgb(page, x: float, y: float) -> list[int]:
    """The colour on the screen at (x, y) CSS px (Chromium: a screenshot of that spot, decoded
    by the page itself)."""
    shot = page.call("Page.captureScreenshot", {"format": "png", "clip": {"x": x - 2, "y": y - 2, "width": 4, "height": 4, "scale": 1}})
    return page.eval("new Promise(function (ok, fail) { var i = new Image(); i.onerror = fail; i.onload = function () {"
                     " var c = document.createElement('canvas'); c.width = i.width; c.height = i.height; var x = c.getContext('2d');"
                     " x.drawImage(i, 0, 0); ok(Array.from(x.getImageData(i.width >> 1, i.height >> 1, 1, 1).data.slice(0, 3))); };"
                     f" i.src = 'data:image/png;base64,{shot['data']}'; }})")


def ax_names(page, names: list[str]) -> dict[str, list[str]]:
    """The roles of the nodes of the accessibility tree that have each name (not ignored, not
    the text inside them)."""
    root = page.call("DOM.getDocument")["root"]["nodeId"]
    out = {}
    for name in names:
        nodes = page.call("Accessibility.queryAXTree", {"nodeId": root, "accessibleName": name})["nodes"]
        out[name] = [n["role"]["value"] for n in nodes
                     if not n.get("ignored") and n["role"]["value"] not in ("StaticText", "InlineTextBox")]
    return out


def tap_at(page, x: float, y: float, hold_ms: float = 50) -> None:
    p = Player(page, realtime=True)
    p.down(0, f9=(x, y))
    p.up(hold_ms)
    p.finish()


def box_of(page, selector: str) -> list[float]:
    return page.eval("(function (r) { return [r.left, r.top, r.width, r.height]; })"
                     f"(document.querySelector({json.dumps(selector)}).getBoundingClientRect())")


def set_range(page, name: str, value: float) -> None:
    """A range of the view moved to `value` as a finger's drag ends: the value set, then `input`
    and `change` (what the page listens to)."""
    page.eval(f"(function (r) {{ r.value = {json.dumps(str(value))}; r.dispatchEvent(new Event('input', {{ bubbles: true }}));"
              " r.dispatchEvent(new Event('change', { bubbles: true })); return 1; })"
              f"(document.querySelector('#media-view input[name={name}]'))")


def choose_player(page, name: str) -> None:
    """The chooser is a native <select>: its list is the browser's, so the choice is made as a
    person's would end, with the value set and `change`."""
    page.eval(f"(function (s) {{ s.value = {json.dumps(name)}; s.dispatchEvent(new Event('change')); return 1; }})"
              "(document.querySelector('#media-view select'))")


def page_clock(page) -> tuple[float, float]:
    """The page's clock (performance.now(), ms) against this process's time.monotonic() (s):
    `offset` such that monotonic = page_ms / 1000 + offset, within `error` s (half the shortest
    of a few round trips)."""
    best = None
    for _ in range(8):
        before = time.monotonic()
        now = page.eval("performance.now()")
        after = time.monotonic()
        if best is None or after - before < best[0]:
            best = (after - before, (before + after) / 2 - now / 1000)
    return best[1], best[0] / 2


WATCH = {"type": "media", "do": "watch"}


def media_sent(page) -> list[dict]:
    """The `media` commands the tab put on the wire (after its `watch`)."""
    return [m for m in wire_messages(page, ("media",)) if m != WATCH]


def open_media(page) -> None:
    """One tap on the toolbar's Media button (there once the server spoke of media)."""
    page.wait_for("!document.getElementById('media-open').hidden")
    tap_element(page, "#media-open")
    page.wait_for("window.gesturepad.view === 'media'")


def check_calm_line(page, line: str) -> None:
    """`line` in the view, as a status (not an alert), the player's controls gone, the computer's
    volume still there; no toast, no notice, no dialog."""
    s = until(page, lambda s: s["none"] == line, f"the line {line!r}")
    assert s["computer"] is True
    assert page.eval("document.querySelector('#media-view .media-none').getAttribute('role')") == "status"
    assert page.eval("document.querySelector('#media-view .media-now').getClientRects().length") == 0
    assert page.eval("document.getElementById('toast').hidden") and page.eval("document.getElementById('notice').hidden")
    assert page.eval("document.getElementById('sheet').hidden")
    assert page.eval("document.querySelectorAll('[role=alert]:not([hidden]), [role=alertdialog], dialog[open]').length") == 0


# ---- the players, on a bus of this file's own ---------------------------------------------------

def need_media() -> None:
    """Skips a test that needs a real player on a machine without one (saying what is missing),
    or fails it under GESTUREPAD_REQUIRE_MEDIA=1."""
    reason = media_kit.skip_reason(MEDIA_REQUIRED)
    if reason:
        pytest.skip(reason)
    lacking = media_kit.missing()
    if lacking:
        pytest.fail("not installed: " + ", ".join(lacking) + " (scripts/setup.sh --test); GESTUREPAD_REQUIRE_MEDIA=1 is set")


@pytest.fixture(scope="module")
def media_bus():
    """A private session bus (media_kit.SessionBus) for this file's server and players; None
    on a machine without dbus-daemon (the server then has no bus, and every test that needs a
    player says why it does not run)."""
    if not media_kit.dbus_daemon_path():
        yield None
        return
    with media_kit.SessionBus() as address:
        yield address


@pytest.fixture(scope="module")
def album(tmp_path_factory):
    """Tracks made once for the file, each in a folder of its own (mpv-mpris 0.7.1 reports the
    cover.png beside a track): blue, orange, none, green with long names."""
    need_media()
    root = tmp_path_factory.mktemp("media-page")
    return [
        media_kit.make_track(root / "one" / "one.mp3", "Bølgen ☾", "Ane Brun", "Nattevakt", hue=210),
        media_kit.make_track(root / "two" / "two.mp3", "Second Light", "Artist B", "Nattevakt", hue=30),
        media_kit.make_track(root / "three" / "three.mp3", "Untitled Sketch", "Artist C", "Demos", cover=False),
        media_kit.make_track(root / "long" / "long.mp3", "A Rather Long Title of a Track That Goes On", "The Testers",
                             "Fixtures, Deluxe Edition", hue=120),
    ]


@pytest.fixture
def players(media_bus, album):
    """players(tracks, **options) → a running media_kit.Player on the file's bus; every player
    is stopped after the test."""
    need_media()
    started: list[media_kit.Player] = []

    def start(tracks, **options) -> media_kit.Player:
        player = media_kit.Player(media_bus, tracks, **options)
        started.append(player)
        return player

    yield start
    for player in reversed(started):
        player.stop()


@pytest.fixture
def mpv(players, album):
    """One player, playing the first three tracks from the first (started before the page of
    a test that names it first)."""
    return players(album[:3])


# ---- a server of its own: x11 on the private Xvfb, on the players' bus ---------------------

@pytest.fixture(scope="module")
def media_server(xserver, media_bus, tmp_path_factory):
    """`gesturepad serve --control x11` on the private Xvfb, on the file's private session bus
    (its runtime directory its own too: nothing of this machine's desktop reaches it)."""
    runtime = tmp_path_factory.mktemp("media-runtime")
    bus = media_bus or f"unix:path={runtime}/no-bus"
    srv = Server(control="x11", log_name="browser-server-media.log",
                 env={"DISPLAY": xserver.name, "DBUS_SESSION_BUS_ADDRESS": bus, "XDG_RUNTIME_DIR": str(runtime)})
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


# The server answered the page's `watch`.
ANSWERED = "window.gesturepad.received.some(function (m) { return m.type === 'media'; })"


@pytest.fixture
def media_pad(browser, media_server, xwatcher):
    """A touchpad tab live on that server (its settings answered, its `watch` answered)."""
    page = open_ctl_pad(browser, media_server)
    try:
        page.wait_for(ANSWERED, 5)
        yield page
    finally:
        forget_prefs(page)
        page.eval("sessionStorage.removeItem('gesturepad.presenterTimer'), 1")
        page.close()


def server_media(page) -> list[dict]:
    """What the real server said of media."""
    return [m for m in page.state()["received"] if m.get("type") in ("media", "media-art")]


# ---- media ------------------------------------------------------------------------------------

def test_media_view_shows_the_real_player(mpv, media_pad, album):
    """A player that plays before the view is opened: the page asked to hear the players after
    its settings, sealed alone; the Media button is there, one tap opens the view with the
    player's title, artist, album, its cover (the PNG beside the track, decoded, its colour on
    the screen), "Playing · mpv", a Pause button, the track's length and the player's volume,
    and a seek bar that moves on by itself where the player really is; one tap on Touchpad goes
    back, the focus on the Media button."""
    page, track = media_pad, album[0]
    frames = [json.loads(f) for f in page.wire_sent()]
    assert isinstance(frames[2], list) and {"type": "settings"} in frames[2], frames[:4]
    assert frames[3] == WATCH, frames[:4]
    told = [m for m in server_media(page) if m["type"] == "media"]
    assert told and told[-1]["available"] is True and told[-1]["player"] == mpv.name, told
    assert page.eval("document.getElementById('media-view').hidden")
    open_media(page)
    assert page.eval("document.activeElement.id") == "media-heading"
    assert page.eval("document.getElementById('media-open').getAttribute('aria-pressed')") == "true"
    # The surface, the toolbar and the feed are behind the view.
    assert page.eval("document.elementFromPoint(195, 420).closest('#media-view') !== null")
    assert page.eval("document.getElementById('tools').getClientRects().length") == 0
    s = until(page, lambda s: s["title"] == track.title, "the player's title")
    assert s["open"] and s["none"] is None
    assert (s["title"], s["artist"], s["album"], s["status"], s["toggle"]) == (
        track.title, track.artist, track.album, "Playing · mpv", "Pause")
    length = mpv.metadata()["mpris:length"] / 1000
    assert abs(s["seekMax"] - length) <= 1 and s["length"] == "1:00", (s["seekMax"], length)
    assert (s["volume"], s["choice"], s["computer"], s["disabled"]) == (1, None, True, [])
    s = shows_cover_of(page, track)
    assert s["cover"]["alt"] == "Cover of Nattevakt" and s["cover"]["width"] >= 150, "the cover is shown large"
    x, y, w, h = box_of(page, "#media-view .cover img")
    assert near(screen_rgb(page, x + w / 2, y + h / 2), track.rgb, 4), "the cover's colour on the screen"
    # The bar moves on by itself while the player plays, where the player is (the page reckons
    # it from the message's position and rate and the time since; the bar's step is a second).
    first = seen(page)["seek"]
    page.wait_for(f"+document.querySelector('#media-view input[name=seek]').value >= {first + 2000}", 5)
    reckoned = page.module("js/media.js", "m.positionAt(window.gesturepad.media, performance.now())")
    real = mpv.position() / 1000
    assert abs(reckoned - real) <= 250, (reckoned, real)
    bar = seen(page)["seek"]
    assert abs(bar - real) <= 750, (bar, real)
    page.screenshot(str(ARTIFACTS / "media-view.png"))
    check_screen(page)
    # Back in one tap.
    tap_element(page, "#media-view [data-view=touchpad]")
    page.wait_for("window.gesturepad.view === null")
    assert page.eval("document.activeElement.id") == "media-open"
    assert page.eval("document.elementFromPoint(195, 420).id") == "surface"
    assert mpv.status() == "Playing", "looking changed nothing"
    no_console_errors(page)


def test_position_is_reckoned_from_position_rate_and_time(media_pad):
    """js/media.js positionAt at known times: moved on by rate × the time since while playing,
    not while paused, never past the track's length nor before its start."""
    page = media_pad
    playing = {"type": "media", "available": True, "player": "org.mpris.MediaPlayer2.mpv", "status": "playing",
               "title": "Night Drive", "length": 185000, "position": 12500, "rate": 1}
    cases = [
        ({**playing}, 1000, 3000, 14500),
        ({**playing, "rate": 2}, 1000, 3000, 16500),
        ({**playing, "status": "paused"}, 1000, 30000, 12500),
        ({**playing, "position": 184000}, 1000, 9000, 185000),
        ({**playing, "length": None}, 0, 1000, 13500),
        ({**playing}, 5000, 4000, 12500),  # a clock that went back moves nothing
    ]
    for message, at, now, want in cases:
        got = page.module("js/media.js", f"m.positionAt(m.mediaState({json.dumps(message)}, {at}), {now})")
        assert got == want, (message, at, now, got)
    assert page.module("js/media.js", "[0, 7000, 185000, 3723000].map(m.clockText)") == ["0:00", "0:07", "3:05", "1:02:03"]
    assert page.module("js/media.js", "[m.coverUrl('data:image/png;base64,AAAA'), m.coverUrl('file:///home/me/a.png'),"
                                      " m.coverUrl('data:text/html;base64,AAAA'), m.coverUrl('http://x/a.png')]") == [
        "data:image/png;base64,AAAA", None, None, None]


def test_media_controls_drive_the_real_player(mpv, media_pad, album):
    """Pause and play, next and previous, the seek bar and a tap on the volume slider change
    the player (read back over MPRIS), and the view follows what the player then says; each
    command went out as `media` sealed in a frame of its own, and buzzed. The computer's volume
    keys go out as `key`."""
    page = media_pad
    open_media(page)
    until(page, lambda s: s["title"] == album[0].title and s["toggle"] == "Pause", "the first track, playing")
    page.eval("document.querySelector('#media-view .media-now').scrollIntoView(), 1")
    # Pause, and play again.
    tap_element(page, "#media-view [data-do=toggle]")
    media_kit.wait_for(lambda: mpv.status() == "Paused", 5, "the player to pause")
    s = until(page, lambda s: s["toggle"] == "Play", "the view to say it paused")
    assert s["status"] == "Paused · mpv"
    # Paused, the bar stays where the player is.
    real = mpv.position() / 1000
    assert abs(page.module("js/media.js", "m.positionAt(window.gesturepad.media, performance.now())") - real) <= 250
    tap_element(page, "#media-view [data-do=toggle]")
    media_kit.wait_for(lambda: mpv.status() == "Playing", 5, "the player to play")
    until(page, lambda s: s["toggle"] == "Pause" and s["status"] == "Playing · mpv", "the view to say it plays")
    # Next and previous: the player changes track, and the view shows the new one, its cover too.
    tap_element(page, "#media-view [data-do=next]")
    media_kit.wait_for(lambda: mpv.title() == album[1].title, 5, "the player's next track")
    s = until(page, lambda s: s["title"] == album[1].title, "the next track")
    assert (s["artist"], s["album"]) == (album[1].artist, album[1].album)
    shows_cover_of(page, album[1])
    tap_element(page, "#media-view [data-do=previous]")
    media_kit.wait_for(lambda: mpv.title() == album[0].title, 5, "the player's previous track")
    until(page, lambda s: s["title"] == album[0].title, "the previous track")
    shows_cover_of(page, album[0])
    # Seek to 0:30: the player jumps there (its Seeked says exactly where), and the bar follows it.
    since = time.monotonic()
    set_range(page, "seek", 30000)
    seeked = media_kit.wait_for(lambda: mpv.signals("Seeked", since), 5, "the player's Seeked")
    assert abs(seeked[0].body[0] / 1000 - 30000) <= 50, seeked
    real = mpv.position() / 1000
    assert 29950 <= real <= 30000 + (time.monotonic() - since) * 1000 + 100, real
    page.wait_for("window.gesturepad.received.some(function (m) { return m.type === 'media' && m.position >= 29900"
                  " && m.position <= 31000; })", 3)
    reckoned = page.module("js/media.js", "m.positionAt(window.gesturepad.media, performance.now())")
    assert abs(reckoned - mpv.position() / 1000) <= 250, reckoned
    # The player's volume: a tap on the slider at a quarter of its width.
    vx, vy, vw, vh = box_of(page, "#media-view input[name=volume]")
    tap_at(page, vx + vw / 4, vy + vh / 2)
    sent = media_kit.wait_for(lambda: [m for m in media_sent(page) if m["do"] == "volume"], 3, "the volume sent")
    assert len(sent) == 1 and set(sent[0]) == {"type", "do", "volume"} and abs(sent[0]["volume"] - 0.25) <= 0.08, sent
    volume = sent[0]["volume"]
    media_kit.wait_for(lambda: abs(mpv.volume() - volume) < 0.005, 5, "the player's volume")
    until(page, lambda s: s["volume"] is not None and abs(s["volume"] - volume) < 0.005, "the view to show the player's volume")
    # What went out: each command once, in order, sealed each alone.
    assert [m["do"] for m in media_sent(page)] == ["pause", "play", "next", "previous", "seek", "volume"], media_sent(page)
    assert [m for m in media_sent(page) if m["do"] == "seek"] == [{"type": "media", "do": "seek", "position": 30000}]
    # The computer's volume: the keys of the key row.
    for key in ("AudioVolumeDown", "AudioVolumeMute", "AudioVolumeUp"):
        tap_element(page, f"#media-view [data-key={key}]")
    keys = [m for m in wait_wire(page, 3, ("key",)) if m["type"] == "key"]
    assert keys == [{"type": "key", "key": k} for k in ("AudioVolumeDown", "AudioVolumeMute", "AudioVolumeUp")]
    check_wire(page, page.state())
    whys = [h["why"] for h in page.state()["haptics"]]
    assert (whys.count("media"), whys.count("seek"), whys.count("volume"), whys.count("key")) == (4, 1, 1, 3), whys
    assert page.eval("document.getElementById('toast').hidden")
    no_console_errors(page)


def test_the_computers_volume_through_its_sound_server(browser, xserver, xwatcher):
    """With a sound server the server can ask (a private PipeWire with a null output, as a
    PipeWire desktop has it), the computer's volume buttons show its level and set it there —
    `media` `computer-volume` in 5 % steps and `computer-mute`, read back with `wpctl` — instead
    of sending the media keys; with no player at all."""
    need_media()
    from sound_server import SoundServer, missing as sound_missing

    if sound_missing():
        pytest.fail("not installed: " + ", ".join(sound_missing()) + " (scripts/setup.sh --test)")
    with media_kit.SessionBus() as bus:
        sound = SoundServer(bus)
        with sound as env:
            sound.wpctl("set-volume", "@DEFAULT_AUDIO_SINK@", "0.5")
            srv = Server(control="x11", log_name="browser-server-sound.log",
                         env={"DISPLAY": xserver.name, "DBUS_SESSION_BUS_ADDRESS": bus,
                              "XDG_RUNTIME_DIR": env["XDG_RUNTIME_DIR"]})
            srv.start()
            page = open_ctl_pad(browser, srv)
            try:
                open_media(page)
                level = "document.querySelector('#media-view .computer-level')"
                page.wait_for(f"{level}.textContent === '50 %' && !{level}.hidden", 5)
                tap_element(page, "#media-view [data-key=AudioVolumeDown]")
                media_kit.wait_for(lambda: abs(sound.volume()[0] - 0.45) < 0.01, 5, "wpctl to read 0.45")
                page.wait_for(f"{level}.textContent === '45 %'", 5)
                tap_element(page, "#media-view [data-key=AudioVolumeMute]")
                media_kit.wait_for(lambda: sound.volume()[1], 5, "the output to mute")
                page.wait_for(f"{level}.textContent === 'muted'", 5)
                pressed = "document.querySelector('#media-view [data-key=AudioVolumeMute]').getAttribute('aria-pressed')"
                assert page.eval(pressed) == "true"
                sent = [m for m in media_sent(page) if m["do"].startswith("computer")]
                assert sent == [{"type": "media", "do": "computer-volume", "volume": 0.45}, {"type": "media", "do": "computer-mute"}]
                assert not [m for m in wire_messages(page, ("key",))], "a media key went out as well"
                no_console_errors(page)
            finally:
                forget_prefs(page)
                page.close()
                srv.stop()


def test_what_the_player_cannot_do_is_disabled(media_pad):
    """What a player says it cannot do (mpv always can: this is the page's own MediaView on a
    detached copy of the view, told so): Next and Seek disabled, a click on Next sends nothing;
    no volume, no slider; no cover, no picture."""
    page = media_pad
    got = page.module("js/media.js", """(function () {
      var root = document.getElementById('media-view').cloneNode(true), sent = [];
      var v = new m.MediaView({ root: root, state: {}, send: function (x) { sent.push(x); return true; },
        sendKey: function () { return true; }, frame: function () {} });
      v.setUsable(true);
      v.message({ type: 'media', available: true, player: 'p', players: [{ id: 'p', name: 'mpv' }], status: 'playing',
        title: 'T', length: 185000, position: 0, rate: 1, canSeek: false, canNext: false, canPrevious: true });
      var q = function (s) { return root.querySelector(s); };
      q('[data-do=next]').click();
      q('[data-do=previous]').click();
      return { next: q('[data-do=next]').disabled, previous: q('[data-do=previous]').disabled,
        seek: q('input[name=seek]').disabled, volume: q('.media-volume').hidden, cover: q('.cover img').hidden, sent: sent };
    })()""")
    assert got == {"next": True, "previous": False, "seek": True, "volume": True, "cover": True,
                   "sent": [{"type": "media", "do": "previous"}]}, got
    no_console_errors(page)


def test_a_track_change_by_the_player_reaches_the_page_within_200_ms(mpv, media_pad, album):
    """The player changes track by itself (MPRIS Next, not through the page): the page has the
    new title on screen within 200 ms of the call — timed by the page's own clock at the
    message it rendered, set against the test's — and a track without a cover shows none."""
    page = media_pad
    open_media(page)
    shows_cover_of(page, album[0])
    offset, error = page_clock(page)
    assert error < 0.01, error
    delays = []
    for track in album[1:3]:
        start = time.monotonic()
        mpv.next()
        at = media_kit.wait_for(lambda t=track: page.eval(
            f"(function (m) {{ return m && m.title === {json.dumps(t.title)} && m.at; }})(window.gesturepad.media)"),
            2, f"the page to have {track.title!r}")
        polled = time.monotonic() - start
        assert seen(page)["title"] == track.title
        delay = at / 1000 + offset - start
        assert -error <= delay <= polled + error, (delay, polled)
        delays.append(round(delay * 1000))
    assert max(delays) < 200, f"ms from the player's Next to the page: {delays}"
    # The third track has no cover: the view shows the empty frame, no picture.
    s = seen(page)
    assert s["cover"] is None and page.eval("document.querySelector('#media-view .cover').classList.contains('empty')")
    assert s["artist"] == album[2].artist
    no_console_errors(page)


def test_a_second_player_appears_in_the_chooser_and_its_leaving_shows(players, album, media_pad):
    """A second player appears: the chooser shows both (two of one program told apart); choosing
    it makes the view follow it, and Play reaches it alone. It leaves: the chooser goes, the view
    follows the one left. That one leaves too: one calm line, "No media player…"."""
    page = media_pad
    first = players(album[:1])
    open_media(page)
    s = until(page, lambda s: s["title"] == album[0].title, "the first player")
    assert s["choice"] is None and s["status"] == "Playing · mpv"
    second = players(album[1:2], paused=True)
    s = until(page, lambda s: s["choice"] is not None, "the second player in the chooser")
    assert sorted(p[0] for p in s["choice"]) == sorted([first.name, second.name]), s["choice"]
    assert [p[1] for p in s["choice"]] == ["mpv", "mpv (2)"], s["choice"]
    assert s["chosen"] == page.eval("window.gesturepad.media.player")
    check_screen(page)
    choose_player(page, second.name)
    s = until(page, lambda s: s["title"] == album[1].title, "the view to follow the second player")
    assert (s["chosen"], s["status"], s["toggle"], s["artist"]) == (second.name, "Paused", "Play", album[1].artist)
    shows_cover_of(page, album[1])
    tap_element(page, "#media-view [data-do=toggle]")
    media_kit.wait_for(lambda: second.status() == "Playing", 5, "the chosen player to play")
    until(page, lambda s: s["toggle"] == "Pause", "the view to say it plays")
    assert first.status() == "Playing", "the other player untouched"
    assert [m for m in media_sent(page)] == [{"type": "media", "do": "player", "player": second.name},
                                            {"type": "media", "do": "play"}]
    check_wire(page, page.state())
    assert [h["why"] for h in page.state()["haptics"]] == ["player", "media"]
    second.stop()
    s = until(page, lambda s: s["choice"] is None, "the second player to leave the chooser")
    s = until(page, lambda s: s["title"] == album[0].title, "the view to follow the one left")
    assert s["status"] == "Playing · mpv"
    first.stop()
    check_calm_line(page, "No media player is playing on the computer")
    no_console_errors(page)


def test_no_player_is_one_calm_line(media_pad, players, album):
    """No player runs: one calm line in the view (a status, not an alert; no toast, no
    dialog), the player's controls gone, the computer's volume still there. A player appearing
    brings them back."""
    page = media_pad
    assert server_media(page) == [{"type": "media", "available": False, "why": "no-player"}]
    open_media(page)
    check_calm_line(page, "No media player is playing on the computer")
    check_screen(page)
    page.screenshot(str(ARTIFACTS / "media-view-none.png"))
    players(album[:1])
    s = until(page, lambda s: s["title"] == album[0].title, "the player that appeared")
    assert s["none"] is None and s["toggle"] == "Pause"
    no_console_errors(page)


def test_no_session_bus_is_one_calm_line(browser, xserver, xwatcher, tmp_path):
    """A server outside a desktop session (no session bus): the page is told `no-bus` once,
    and the view says it in one calm line."""
    srv = Server(control="x11", log_name="browser-server-media-no-bus.log",
                 env={"DISPLAY": xserver.name, "DBUS_SESSION_BUS_ADDRESS": f"unix:path={tmp_path}/no-bus",
                      "XDG_RUNTIME_DIR": str(tmp_path)})
    srv.start()
    try:
        page = open_ctl_pad(browser, srv)
        try:
            page.wait_for(ANSWERED, 5)
            assert server_media(page) == [{"type": "media", "available": False, "why": "no-bus"}]
            open_media(page)
            check_calm_line(page, "The computer has no desktop session for media")
            check_screen(page)
            no_console_errors(page)
        finally:
            forget_prefs(page)
            page.close()
    finally:
        srv.stop()


def test_media_view_controls_have_names(mpv, media_pad, album):
    """Every control of the media view has its accessible name (a screen reader says "Pause",
    "Next track"…), once; every target is large enough for a thumb."""
    page = media_pad
    open_media(page)
    until(page, lambda s: s["title"] == album[0].title and s["toggle"] == "Pause", "the track, playing")
    names = ax_names(page, ["Pause", "Previous track", "Next track", "Seek", "Player volume", "Volume down", "Mute",
                            "Volume up", "Touchpad", "Presenter", "Media"])
    for name, roles in names.items():
        # The view is a region named by its heading.
        want = ["slider"] if name in ("Seek", "Player volume") else ["region", "heading"] if name == "Media" else ["button"]
        assert roles == want, (name, roles)
    assert page.eval("document.querySelector('#media-view input[name=seek]').getAttribute('aria-valuetext')").endswith(" of 1:00")
    small = page.eval("Array.from(document.querySelectorAll('#media-view button, #media-view input, #media-view select'))"
                      ".filter(function (e) { return e.getClientRects().length; }).map(function (e) { var r = e.getBoundingClientRect();"
                      " return [e.getAttribute('aria-label') || e.name, r.width, r.height]; })"
                      ".filter(function (b) { return b[1] < 48 || b[2] < 48; })")
    assert small == [], small
    no_console_errors(page)


def test_media_view_on_its_side_and_narrow(players, album, media_pad):
    """Two players, one with a long title and album: at 360 × 740 and on its side (844 × 390)
    the whole view fits, nothing cut or overlapping, every text 4.5:1."""
    page = media_pad
    long = players(album[3:4])
    players(album[1:2], paused=True)
    open_media(page)
    until(page, lambda s: s["choice"] is not None and len(s["choice"]) == 2, "both players in the chooser")
    choose_player(page, long.name)
    until(page, lambda s: s["title"] == album[3].title, "the long title")
    shows_cover_of(page, album[3])
    try:
        for width, height in ((360, 740), (844, 390)):
            page.call("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 3, "mobile": True})
            page.wait_for(f"innerWidth === {width}")
            page.wait_for("window.gesturepad && document.querySelector('#media-view .cover img').naturalWidth > 0")
            check_screen(page)
            inside = page.eval("Array.from(document.querySelectorAll('#media-view button, #media-view input, #media-view select, #media-view .art'))"
                               ".filter(function (e) { return e.getClientRects().length; }).every(function (e) { var r = e.getBoundingClientRect();"
                               " return r.left >= -0.5 && r.top >= 50 && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5 && r.height > 20; })")
            assert inside, (width, height)
        page.screenshot(str(ARTIFACTS / "media-view-landscape.png"))
    finally:
        page.call("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True})
    no_console_errors(page)


def test_feed_words_for_media_and_spotlight_notices(media_pad):
    """What the feed (the page's and the observer's) writes for a `command` notice of a media
    command or of the spotlight, from the page's own module."""
    words = media_pad.eval(
        "import('./js/feed-words.js').then(function (w) { return ["
        "{command: 'media', do: 'next'}, {command: 'media', do: 'play-pause'}, {command: 'media', do: 'seek', position: 65400},"
        "{command: 'media', do: 'volume', volume: 0.25}, {command: 'media', do: 'player', player: 'org.mpris.MediaPlayer2.vlc'},"
        "{command: 'spotlight', do: 'show'}, {command: 'spotlight', do: 'hide'}].map(w.commandWords); })")
    assert words == ["next track", "play/pause", "seek to 1:05", "player volume 25 %", "player chosen", "spotlight on",
                     "spotlight off"]


# ---- presenter --------------------------------------------------------------------------------

PAGE_DOWN, PAGE_UP = {"Next", "Page_Down"}, {"Prior", "Page_Up"}  # the keysym's X names


def test_presenter_slide_keys_reach_the_x_server(media_pad, x):
    """One tap opens the presenter. The whole lower half is Next slide, the upper left Previous
    slide: a tap anywhere there sends `PageDown` / `PageUp`, Blank screen sends `b` — on the wire
    and at the X server's window —, each buzzing its own way; the first slide change starts the
    timer; Pointer goes back to the touchpad in one tap, with the spotlight drawn on the X server
    around its pointer until the pill or the presenter turns it off."""
    from x11_harness import describe, keys

    page = media_pad
    tap_element(page, "#presenter-open")
    page.wait_for("window.gesturepad.view === 'presenter'")
    assert page.eval("document.activeElement.id") == "presenter-heading"
    # The lower half, edge to edge, is Next slide; the upper left Previous slide.
    half = page.eval("(function (r) { return [r.left, r.top, r.right, r.bottom, innerWidth, innerHeight]; })"
                     "(document.querySelector('#presenter-view .slide.next').getBoundingClientRect())")
    assert half == [0, 422, 390, 844, 390, 844], half
    for px, py in ((5, 430), (385, 840), (195, 600), (20, 830)):
        assert page.eval(f"!!document.elementFromPoint({px}, {py}).closest('.slide.next')"), (px, py)
    prev = page.eval("(function (r) { return [r.left, r.top, r.right, r.bottom]; })"
                     "(document.querySelector('#presenter-view .slide.previous').getBoundingClientRect())")
    assert prev[0] <= 20 and prev[2] >= 195 and prev[3] <= 422 and prev[3] - prev[1] >= 120, prev
    assert page.state()["presenter"]["running"] is False
    tap_at(page, 300, 700)                       # Next slide
    tap_element(page, "#presenter-view .slide.previous")
    tap_element(page, "#presenter-view .slide.blank")
    sent = [m for m in wait_wire(page, 3, ("key",)) if m["type"] == "key"]
    assert sent == [{"type": "key", "key": "PageDown"}, {"type": "key", "key": "PageUp"}, {"type": "key", "key": "b"}]
    x.wait_for(lambda ev: ("up", "b") in keys(ev), x.start, timeout=5)
    got = keys(x.wait_quiet(x.start, quiet=0.2))
    assert len(got) == 6 and got[0][1] in PAGE_DOWN and got[2][1] in PAGE_UP and got[4:] == [("down", "b"), ("up", "b")], describe(x.events(x.start))
    assert [k[0] for k in got] == ["down", "up"] * 3
    assert x.held_keycodes() == []
    pulses = {h["why"]: h["pattern"] for h in page.state()["haptics"]}
    assert (pulses["next slide"], pulses["previous slide"], pulses["blank slide"]) == (15, [10, 50, 10], 40)
    # The first slide change started the timer; pause, reset.
    st = page.state()["presenter"]
    assert st["running"] is True
    page.wait_for("document.querySelector('#presenter-view .presenter-elapsed').textContent === '0:01'", 3)
    tap_element(page, "#presenter-view [data-action=timer]")
    page.wait_for("window.gesturepad.presenter.running === false")
    assert page.eval("document.querySelector('#presenter-view [data-action=timer]').getAttribute('aria-label')") == "Resume timer"
    tap_element(page, "#presenter-view [data-action=reset]")
    page.wait_for("window.gesturepad.presenter.timer.elapsed === 0")
    assert page.eval("document.querySelector('#presenter-view .presenter-elapsed').textContent") == "0:00"
    tap_element(page, "#presenter-view [data-action=timer]")
    page.wait_for("window.gesturepad.presenter.running === true")
    clock = page.eval("document.querySelector('#presenter-view .presenter-clock').textContent")
    assert clock == page.eval("new Date().toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })")
    # The pointer: back to the touchpad in one tap, with the spotlight on the computer's pointer
    # (x11 draws one: a ring of its own window, centred on the pointer), the presenter one tap away.
    tap_element(page, "#presenter-view [data-view=touchpad]")
    page.wait_for("window.gesturepad.view === null")
    assert page.eval("document.elementFromPoint(195, 420).id") == "surface"
    page.wait_for("window.gesturepad.spotlight === true")
    assert [m for m in wait_wire(page, 1, ("spotlight",)) if m["type"] == "spotlight"] == [{"type": "spotlight", "do": "show"}]
    pointer = x.pointer()[:2]
    assert wait_spotlight(x, lambda at: at == pointer) == pointer, "no spotlight around the X server's pointer"
    assert ax_names(page, ["Spotlight"])["Spotlight"] == ["button"]
    assert page.eval("document.getElementById('spotlight-off').getAttribute('aria-pressed')") == "true"
    # One tap on the pill turns it off, at the X server too; Pointer turns it on again, and
    # opening the presenter turns it off.
    tap_element(page, "#spotlight-off")
    page.wait_for("window.gesturepad.spotlight === false")
    assert wait_spotlight(x, lambda at: at is None) is None, "the spotlight stayed on the screen"
    assert page.eval("document.getElementById('spotlight-off').hidden") is True
    tap_element(page, "#presenter-open")
    page.wait_for("window.gesturepad.view === 'presenter'")
    assert page.state()["presenter"]["running"] is True, "the timer ran on meanwhile"
    tap_element(page, "#presenter-view [data-view=touchpad]")
    assert wait_spotlight(x, lambda at: at is not None) is not None
    tap_element(page, "#presenter-open")
    page.wait_for("window.gesturepad.view === 'presenter'")
    assert wait_spotlight(x, lambda at: at is None) is None
    assert [m["do"] for m in wait_wire(page, 4, ("spotlight",)) if m["type"] == "spotlight"] == ["show", "hide", "show", "hide"]
    no_console_errors(page)


def wait_spotlight(x, predicate, timeout: float = 3.0):
    """The centre of the server's spotlight window on the X server while it is mapped (None
    when hidden or absent), once `predicate` holds or at the timeout."""
    from Xlib import X

    def centre():
        for child in x.root.query_tree().children:
            try:
                if child.get_wm_name() != "GesturePad spotlight" or child.get_attributes().map_state != X.IsViewable:
                    continue
                g = child.get_geometry()
            except Exception:  # noqa: BLE001 — a window that went between two requests
                continue
            return g.x + g.width // 2, g.y + g.height // 2
        return None

    deadline = time.monotonic() + timeout
    while True:
        at = centre()
        if predicate(at) or time.monotonic() > deadline:
            return at
        time.sleep(0.02)


def test_presenter_names_targets_and_screens(media_pad):
    """The presenter's controls by name, every target at least 48 px, readable in the dark
    upright and on its side."""
    page = media_pad
    tap_element(page, "#presenter-open")
    page.wait_for("window.gesturepad.view === 'presenter'")
    names = ax_names(page, ["Next slide", "Previous slide", "Blank screen", "Start timer", "Reset timer", "Pointer"])
    assert all(roles == ["button"] for roles in names.values()), names
    assert page.eval("document.querySelector('#presenter-view [role=timer]') !== null")
    # Its bar's Media button: the server has said something of media.
    assert page.eval("document.querySelector('#presenter-view [data-view=media]').getClientRects().length") == 1
    small = page.eval("Array.from(document.querySelectorAll('#presenter-view button')).filter(function (e) { return e.getClientRects().length; })"
                      ".map(function (e) { var r = e.getBoundingClientRect(); return [e.textContent.trim() || e.getAttribute('aria-label'), r.width, r.height]; })"
                      ".filter(function (b) { return b[1] < 48 || b[2] < 48; })")
    assert small == [], small
    page.screenshot(str(ARTIFACTS / "presenter-view.png"))
    check_screen(page)
    try:
        for width, height in ((360, 740), (844, 390)):
            page.call("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 3, "mobile": True})
            page.wait_for(f"innerWidth === {width}")
            check_screen(page)
            small = page.eval("Array.from(document.querySelectorAll('#presenter-view button')).filter(function (e) { return e.getClientRects().length; })"
                              ".filter(function (e) { var r = e.getBoundingClientRect(); return r.width < 48 || r.height < 48 || r.top < 50; }).length")
            assert small == 0, (width, height)
            top = page.eval("document.querySelector('#presenter-view .slide.next').getBoundingClientRect().top")
            assert top == height / 2
        page.screenshot(str(ARTIFACTS / "presenter-view-landscape.png"))
    finally:
        page.call("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 3, "mobile": True})
    no_console_errors(page)


def test_views_switch_and_close_without_touching_the_computer(media_pad):
    """Media ↔ presenter from each view's bar, Escape back to the touchpad; opening a view closes
    the keyboard and the settings sheet; nothing is sent by moving between views."""
    page = media_pad
    page.wait_for("!document.getElementById('media-open').hidden")
    tap_element(page, "#keyboard")
    page.wait_for("window.gesturepad.keyboard.open")
    tap_element(page, "#presenter-open")
    page.wait_for("window.gesturepad.view === 'presenter'")
    assert page.state()["keyboard"]["open"] is False
    tap_element(page, "#presenter-view [data-view=media]")
    page.wait_for("window.gesturepad.view === 'media'")
    tap_element(page, "#media-view [data-view=presenter]")
    page.wait_for("window.gesturepad.view === 'presenter'")
    page.call("Input.dispatchKeyEvent", {"type": "keyDown", "key": "Escape", "code": "Escape", "windowsVirtualKeyCode": 27})
    page.call("Input.dispatchKeyEvent", {"type": "keyUp", "key": "Escape", "code": "Escape", "windowsVirtualKeyCode": 27})
    page.wait_for("window.gesturepad.view === null")
    assert page.eval("document.activeElement.id") == "presenter-open"
    assert [m for m in wire_messages(page, ("media", "key", "text", "button"))] == [WATCH]
    no_console_errors(page)


# ---- every engine -----------------------------------------------------------------------------

def test_media_and_presenter_in_every_engine(engine, mpv, album, media_server, x):
    """In Chromium, Firefox ESR and WebKitGTK, with a real player: the media view shows its
    title, artist and cover (the track's PNG, decoded in its colour) and the seek bar moving on;
    a tap on Pause pauses the player (read back over MPRIS) and the view says so. The
    presenter's Next slide reaches the X server as Page Down."""
    from engines import open_page
    from x11_harness import describe, keys

    page = open_page(engine, media_server, control=True)
    try:
        page.wait_for(ANSWERED)
        page.wait_for("!document.getElementById('media-open').hidden")
        page.tap_at(*center_of(page, "#media-open"))
        page.wait_for("window.gesturepad.view === 'media'")
        s = until(page, lambda s: s["title"] == album[0].title and s["toggle"] == "Pause", f"{engine.name}: the player's track")
        assert (s["artist"], s["album"], s["status"]) == (album[0].artist, album[0].album, "Playing · mpv"), (engine.name, s)
        shows_cover_of(page, album[0])
        page.wait_for(f"+document.querySelector('#media-view input[name=seek]').value >= {s['seek'] + 1000}", 6)
        page.tap_at(*center_of(page, "#media-view [data-do=toggle]"))
        media_kit.wait_for(lambda: mpv.status() == "Paused", 5, f"{engine.name}: the player to pause")
        until(page, lambda s: s["toggle"] == "Play" and s["status"] == "Paused · mpv", f"{engine.name}: the view to say it paused")
        assert page.eval("window.gesturepad.sent.filter(function (m) { return m.type === 'media'; })") == [
            WATCH, {"type": "media", "do": "pause"}]
        page.tap_at(*center_of(page, "#media-view [data-view=presenter]"))
        page.wait_for("window.gesturepad.view === 'presenter'")
        mark = x.mark()
        page.tap_at(195, 700)
        page.wait_for("window.gesturepad.sent.some(function (m) { return m.type === 'key' && m.key === 'PageDown'; })")
        x.wait_for(lambda ev: len(keys(ev)) >= 2, mark, timeout=5)
        got = keys(x.wait_quiet(mark, quiet=0.2))
        assert len(got) == 2 and got[0][1] in PAGE_DOWN and got[1] == ("up", got[0][1]), describe(x.events(mark))
        assert page.console_errors() == []
    finally:
        page.eval("sessionStorage.removeItem('gesturepad.presenterTimer'), localStorage.clear(), 1")
        page.close()


def center_of(page, selector: str) -> tuple[int, int]:
    return tuple(page.eval(f"(function (r) {{ return [Math.round(r.left + r.width / 2), Math.round(r.top + r.height / 2)]; }})"
                           f"(document.querySelector({json.dumps(selector)}).getBoundingClientRect())"))
