"""The real-player fixture itself: mpv with Debian's mpv-mpris on a private bus shows the tracks
make_track made and does what MPRIS asks, as media_kit reads it back — and what the media
remote can rely on from this player (its name, its signals, its cover URL) is pinned here."""
from __future__ import annotations

import struct
import time

from media_kit import OBJECT, PREFIX, ROOT, Mpris, file_path, make_track, wait_for

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size_and_colour(path) -> tuple[int, int, int]:
    """Width, height (from the IHDR chunk) and colour type of a PNG file."""
    data = path.read_bytes()
    assert data.startswith(PNG_SIGNATURE), f"{path} is not a PNG"
    width, height, _, colour_type = struct.unpack(">IIBB", data[16:26])
    return width, height, colour_type


def test_a_track_is_tagged_with_a_cover_beside_it_and_inside(tmp_path):
    """make_track writes an MP3 with the tags and its cover both as cover.png beside it and as
    an attached picture, in about 0.1 s (the bound is for a loaded machine: parallel workers
    made it 1.5 s once); a second cover for the same folder is refused."""
    started = time.monotonic()
    track = make_track(tmp_path / "a" / "song.mp3", "Title", "Artist", "Album", seconds=60, hue=120)
    took = time.monotonic() - started
    assert took < 5.0, f"making a track took {took:.2f} s"
    assert track.cover == tmp_path / "a" / "cover.png"
    assert png_size_and_colour(track.cover)[:2] == (256, 256)
    # The attached picture is the same PNG (ID3's APIC frame holds its bytes).
    assert track.cover.read_bytes() in track.path.read_bytes()
    assert max(track.rgb) - min(track.rgb) > 100, track.rgb  # a saturated colour, not grey
    try:
        make_track(tmp_path / "a" / "other.mp3", "Other", "Artist", "Album", hue=0)
    except ValueError as error:
        assert "folder of its own" in str(error)
    else:
        raise AssertionError("a second cover for the same folder was accepted")


def test_the_player_shows_title_artist_album_length_and_cover(players, album):
    """Its name, identity and capabilities, and the first track's metadata as mpv-mpris 0.7.1
    gives it: the artist as a list, the length in µs, the cover as a file:// URL of the
    cover.png beside the track (not the embedded picture)."""
    player = players(album[:2])
    assert player.name == PREFIX + "mpv"
    assert player.get("Identity", ROOT) == "mpv" and player.get("DesktopEntry", ROOT) == "mpv"
    capabilities = player.mpris.get_all(player.name)
    for capability in ("CanSeek", "CanGoNext", "CanGoPrevious", "CanPlay", "CanPause", "CanControl"):
        assert capabilities[capability] is True, capability
    assert capabilities["PlaybackStatus"] == "Playing"
    assert capabilities["Rate"] == 1.0 and capabilities["Volume"] == 1.0

    metadata = player.metadata()
    first = album[0]
    assert metadata["xesam:title"] == "Bølgen ☾"
    assert metadata["xesam:artist"] == ["Ane Brun"]
    assert metadata["xesam:album"] == "Nattevakt"
    assert metadata["mpris:trackid"] == "/0"  # mpv-mpris: "/" and the playlist position
    assert file_path(metadata["xesam:url"]) == first.path
    assert abs(metadata["mpris:length"] - 60_000_000) < 500_000, metadata["mpris:length"]
    assert metadata["mpris:artUrl"].startswith("file:///")
    assert file_path(metadata["mpris:artUrl"]) == first.cover
    assert png_size_and_colour(first.cover)[:2] == (256, 256)
    assert player.ready_after < 5, f"the player took {player.ready_after:.2f} s to be ready"


def test_a_track_without_a_cover_has_no_art_url(players, album):
    player = players(album[2:])
    metadata = player.metadata()
    assert metadata["xesam:title"] == "Untitled Sketch"
    assert "mpris:artUrl" not in metadata


def test_play_pause_flips_the_playback_status_and_says_so(players, album):
    """PlayPause pauses and resumes; each change is a PropertiesChanged with PlaybackStatus
    (mpv-mpris sends what changed every 100 ms)."""
    player = players(album[:1])
    assert player.status() == "Playing"
    for expected in ("Paused", "Playing"):
        asked = time.monotonic()
        player.play_pause()
        wait_for(lambda: player.status() == expected, 5, f"PlaybackStatus {expected}")
        changed = wait_for(lambda: [s for s in player.signals("PropertiesChanged", since=asked)
                                    if "PlaybackStatus" in s.changed], 5, "PropertiesChanged")
        assert changed[0].changed["PlaybackStatus"] == expected
        assert changed[0].at - asked < 1.0


def test_next_and_previous_change_the_track_and_its_metadata(players, album):
    """Next shows the second track (title, cover, track id) and announces it with one
    PropertiesChanged carrying the whole new Metadata; Previous goes back."""
    player = players(album)
    asked = time.monotonic()
    player.next()
    wait_for(lambda: player.title() == "Second Light", 5, "the second title")
    announced = wait_for(lambda: [s for s in player.signals("PropertiesChanged", since=asked)
                                  if s.changed.get("Metadata", {}).get("xesam:title") == "Second Light"],
                         5, "the new Metadata in a PropertiesChanged")
    metadata = announced[0].changed["Metadata"]
    assert metadata["mpris:trackid"] == "/1"
    assert file_path(metadata["mpris:artUrl"]) == album[1].cover
    assert "mpris:length" in metadata
    assert announced[0].at - asked < 1.0
    player.previous()
    wait_for(lambda: player.title() == "Bølgen ☾", 5, "the first title again")


def test_set_position_moves_the_position_and_sends_seeked(players, album):
    """SetPosition (with the current track id, µs) moves Position there and sends Seeked at
    once with the new position; with another track's id it is ignored without an error. While
    playing, Position advances at Rate."""
    player = players(album[:2], paused=True)
    asked = time.monotonic()
    player.set_position(20_000_000)
    seeked = wait_for(lambda: player.signals("Seeked", since=asked), 5, "Seeked")
    assert abs(seeked[0].body[0] - 20_000_000) < 1_000, seeked[0].body
    assert abs(player.position() - 20_000_000) < 1_000
    player.set_position(5_000_000, track_id="/1")
    assert abs(player.position() - 20_000_000) < 1_000, "a SetPosition for another track moved this one"

    player.play_pause()
    wait_for(lambda: player.status() == "Playing", 5, "Playing")
    start, at = player.position(), time.monotonic()
    wait_for(lambda: player.position() > start + 500_000, 5, "Position to advance")
    advanced = (player.position() - start) / 1e6
    assert 0.5 <= advanced <= (time.monotonic() - at) * player.rate() + 0.1


def test_volume_and_rate_set_over_mpris_read_back(players, album):
    """Volume and Rate set over MPRIS read back and arrive in a PropertiesChanged."""
    player = players(album[:1])
    asked = time.monotonic()
    player.set_volume(0.4)
    player.set_rate(1.5)
    wait_for(lambda: player.volume() == 0.4 and player.rate() == 1.5, 5, "Volume 0.4 and Rate 1.5")
    changes = {}
    wait_for(lambda: [changes.update(s.changed) for s in player.signals("PropertiesChanged", since=asked)]
             and "Volume" in changes and "Rate" in changes, 5, "Volume and Rate in PropertiesChanged")
    assert changes["Volume"] == 0.4 and changes["Rate"] == 1.5


def test_a_second_player_has_a_name_of_its_own_and_its_leaving_removes_it(bus, players, album):
    """Two players at once: the second is org.mpris.MediaPlayer2.mpv.instance<PID>; when it
    stops (or quits over MPRIS) its name leaves the bus (NameOwnerChanged) and the first stays."""
    with Mpris(bus) as watcher:
        first = players(album[:1])
        second = players(album[1:2])
        assert second.name == f"{PREFIX}mpv.instance{second.process.pid}"
        assert watcher.players() == sorted([first.name, second.name])
        assert second.title() == "Second Light" and first.title() == "Bølgen ☾"

        left = time.monotonic()
        assert second.stop() is not None
        wait_for(lambda: second.name not in watcher.players(), 5, "the second name to leave")
        gone = [s for s in watcher.signals(member="NameOwnerChanged", since=left) if s.body[0] == second.name]
        assert gone and gone[0].body[2] == ""
        assert watcher.players() == [first.name]

        third = players(album[2:])
        assert third.name.startswith(f"{PREFIX}mpv.instance")
        assert third.quit() == 0
        wait_for(lambda: watcher.players() == [first.name], 5, "the third name to leave")


def test_one_player_is_one_name(players, album):
    """mpv-mpris is loaded once (--no-config keeps Debian's /etc/mpv/scripts link out): a
    single player owns a single MPRIS name, and the object answers at /org/mpris/MediaPlayer2."""
    player = players(album[:1])
    assert player.mpris.players() == [player.name]
    [xml] = player.mpris.call(player.name, "org.freedesktop.DBus.Introspectable", "Introspect", path=OBJECT)
    assert f'interface name="{ROOT}"' in xml and f'interface name="{ROOT}.Player"' in xml
