"""The `touchpad` backend under a real compositor, in the kernel tests: sway 1.7 inside the
User-Mode Linux kernel, its libinput backend reading the server's virtual touchpad, and what a
real Wayland client (a GTK 3 window binding zwp_pointer_gestures_v1) receives as the desktop's
own pointer, scroll and gesture events (inside/sway_scenario.py; docs/control.md). No change to
the touchpad backend may break what the desktop sees.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "sway"))
from sway_session import missing_programs  # noqa: E402

SWIPE_BEGIN, SWIPE_END = 0, 2


@pytest.fixture(scope="module")
def run(run_scenario):
    missing = missing_programs()
    if missing:
        message = "not installed: " + ", ".join(missing) + " (scripts/setup.sh --test)"
        pytest.fail(message) if os.environ.get("GESTUREPAD_REQUIRE_KERNEL") == "1" else pytest.skip(message)
    return run_scenario("sway")


def events(run, name: str, kind: str | None = None) -> list[dict]:
    found = run.segment("sway", name)["events"]
    return [e for e in found if kind is None or e["type"] == kind]


def test_sway_takes_it_as_a_touchpad(run):
    """sway's libinput backend lists "GesturePad touchpad" as a touchpad, with the user's
    settings (tap off until `swaymsg input type:touchpad tap enabled` turns it on)."""
    device = run.segment("sway", "device")
    assert device["input"]["type"] == "touchpad", device
    assert device["input"]["libinput"]["tap"] == "disabled" and device["tap_enabled"], device


def test_one_finger_moves_the_pointer(run):
    """One finger right and down: the window sees the pointer go right and down (with sway's
    touchpad acceleration: no exact distance)."""
    moves = events(run, "one_finger", "motion")
    assert len(moves) >= 10, moves
    assert moves[-1]["x"] - moves[0]["x"] > 50 and moves[-1]["y"] - moves[0]["y"] > 20, (moves[0], moves[-1])


def test_tap_clicks_with_the_users_setting(run):
    assert [(e["type"], e["button"]) for e in events(run, "tap") if e["type"].startswith("button")] == [
        ("button-down", 1), ("button-up", 1)]


def test_two_fingers_scroll_smoothly_with_a_stop(run):
    """Two fingers up: smooth scrolling (finger source) in sway's direction (natural scrolling
    off by default: up), ended by a scroll stop — where GTK starts its own kinetic scroll."""
    scrolls = events(run, "two_finger_scroll", "scroll")
    assert scrolls and all(e["direction"] == 4 for e in scrolls), scrolls
    assert sum(e["dy"] for e in scrolls) < -5, scrolls
    assert scrolls[-1]["stop"] and sum(1 for e in scrolls if e["stop"]) == 1, scrolls[-3:]


@pytest.mark.parametrize("fingers", [3, 4])
def test_swipes_are_the_desktops_gestures(run, fingers):
    """Three and four fingers right: a swipe gesture of that many fingers, begun, going right,
    ended (not cancelled)."""
    swipes = events(run, f"swipe{fingers}", "swipe")
    assert swipes and swipes[0]["phase"] == SWIPE_BEGIN and swipes[-1]["phase"] == SWIPE_END, swipes[:1] + swipes[-1:]
    assert all(e["fingers"] == fingers for e in swipes), swipes
    assert sum(e["dx"] for e in swipes) > 50, swipes


def test_pinch_is_the_desktops_pinch(run):
    """Two fingers spreading from 80 to 300 px: a pinch gesture whose scale grows past 2."""
    pinches = events(run, "pinch", "pinch")
    assert pinches and pinches[0]["phase"] == SWIPE_BEGIN and pinches[-1]["phase"] == SWIPE_END, pinches[-1:]
    assert max(e["scale"] for e in pinches) > 2, [round(e["scale"], 2) for e in pinches]


def test_a_disconnect_mid_drag_releases_the_button(run):
    """Tap-and-drag holds the button (libinput's); the page going away lifts the finger: the
    window gets the release."""
    segment = run.segment("sway", "disconnect_mid_drag")
    assert [(e["type"], e["button"]) for e in segment["held"] if e["type"].startswith("button")][-1:] == [
        ("button-down", 1)], segment["held"]
    assert ("button-up", 1) in [(e["type"], e["button"]) for e in segment["events"] if e["type"].startswith("button")]
