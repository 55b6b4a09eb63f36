"""Fixtures for tests/media: a private session bus per test, tracks made once per session, and
real mpv players (media_kit.Player) stopped after each test.

Skipped, with the reason in the header, when mpv, mpv-mpris, ffmpeg or dbus is missing — unless
GESTUREPAD_REQUIRE_MEDIA=1 (`make test`) says they must be there, then that is a failure.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from media_kit import Player, SessionBus, make_track, missing, skip_reason  # noqa: E402
from testkit import skip_under  # noqa: E402  (media_kit put tests/ on the path)

REQUIRED = os.environ.get("GESTUREPAD_REQUIRE_MEDIA") == "1"


def pytest_report_header(config):
    reason = skip_reason(REQUIRED)
    return f"media tests skipped: {reason}" if reason else None


def pytest_collection_modifyitems(config, items):
    skip_under(HERE, items, skip_reason(REQUIRED))


@pytest.fixture
def bus():
    """The address of a private session bus of the test's own."""
    lacking = missing()
    if lacking:
        pytest.fail("not installed: " + ", ".join(lacking) + " (scripts/setup.sh --test)")
    with SessionBus() as address:
        yield address


@pytest.fixture(scope="session")
def album(tmp_path_factory):
    """Three tracks, each in a folder of its own with a cover of its own colour (blue, orange,
    none), one with a title outside ASCII."""
    root = tmp_path_factory.mktemp("media")
    return [
        make_track(root / "one" / "one.mp3", "Bølgen ☾", "Ane Brun", "Nattevakt", hue=210),
        make_track(root / "two" / "two.mp3", "Second Light", "Artist B", "Nattevakt", hue=30),
        make_track(root / "three" / "three.mp3", "Untitled Sketch", "Artist C", "Demos", cover=False),
    ]


@pytest.fixture
def players(bus):
    """players(tracks, **options) → a running media_kit.Player on the test's bus; every player
    is stopped after the test."""
    started: list[Player] = []

    def start(tracks, **options) -> Player:
        player = Player(bus, tracks, **options)
        started.append(player)
        return player

    yield start
    for player in reversed(started):
        player.stop()
