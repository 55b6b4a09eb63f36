"""The display made from stamped positions (stamped_display.frames_of): each frame shows the
last position stamped at or before it, whenever it was read. No clock."""
from __future__ import annotations

import pytest

from stamped_display import StampedDisplay, frames_of
from stroke import Recording, StrokePlan, judge


def test_each_frame_shows_the_last_position_stamped_by_then():
    """Frames every 10 ms from 0 to 40 ms; positions stamped at 5, 10 (on a frame: shown by it),
    12 and 31 ms; before any, where the pointer rested."""
    stamped = [(0.005, 1, 0), (0.010, 2, 0), (0.012, 3, 0), (0.031, 7, 0)]
    frames = frames_of(stamped, (0, 0), 0.0, 0.040, 100)
    assert [f[1:] for f in frames] == [(0, 0), (2, 0), (3, 0), (3, 0), (7, 0)]
    assert [f[0] for f in frames] == pytest.approx([0.0, 0.01, 0.02, 0.03, 0.04])


def test_a_late_stamp_freezes_a_frame_and_jumps():
    """Six 1 px moves a frame apart, each stamped 1 ms after its send, give a pointer that moves
    every frame; move 3 stamped with move 4 (held back a frame) leaves one frame still and
    then jumps 2 px. Read when they came or all at the end: the same frames."""
    plan = StrokePlan(distance=6, duration=0.1, rate=60, frame_rate=60)
    sends = [(i + 1) / 60 for i in range(6)]
    on_time = [(s + 0.001, 100 + i + 1, 50) for i, s in enumerate(sends)]
    late = on_time[:2] + [(sends[3] + 0.001, 103, 50)] + on_time[3:]

    def verdict(stamped):
        frames = frames_of(stamped, (100, 50), 0.008, 0.2, plan.frame_rate)
        return judge(Recording(plan, (100, 50), sends=sends, lateness=[0.0] * 6, samples=frames, final=(106, 50)))

    smooth, held = verdict(on_time), verdict(late)
    assert (smooth.frozen, smooth.frames, smooth.largest_jump_px) == (0, 5, 1)
    assert (held.frozen, held.frames, held.largest_jump_px) == (1, 5, 2) and held.exact


def test_the_display_reads_its_positions_when_stopped():
    """`StampedDisplay` asks for the positions only for its latest and when it stops; before
    any, it shows where the pointer rested."""
    seen: list = []
    display = StampedDisplay(lambda: seen, lambda: (5, 5), 60).start()
    assert display.latest() == (5, 5)
    seen.append((0.0, 9, 5))  # stamped before the display started: shown from its first frame
    assert display.latest() == (9, 5)
    assert {f[1:] for f in display.stop()} == {(9, 5)}


def test_latency_is_to_the_stamp_where_there_is_one():
    """Six 1 px moves a frame apart, each stamped 3 ms after its send, frames 8 ms after each
    send: to the stamp every move takes 3 ms, to the display frame showing it 8 ms; the row
    says which is which. A live reader's recording (no stamps) has only the display's."""
    plan = StrokePlan(distance=6, duration=0.1, rate=60, frame_rate=60)
    sends = [(i + 1) / 60 for i in range(6)]
    stamped = [(s + 0.003, 100 + i + 1, 50) for i, s in enumerate(sends)]
    frames = frames_of(stamped, (100, 50), 0.008, 0.2, plan.frame_rate)
    recording = Recording(plan, (100, 50), sends=sends, lateness=[0.0] * 6, samples=frames, final=(106, 50),
                          stamped=stamped)
    verdict = judge(recording)
    assert verdict.stamped and verdict.reached == 6
    assert verdict.latency_p50_ms == pytest.approx(3) and verdict.latency_p99_ms == pytest.approx(3)
    assert verdict.display_p50_ms == pytest.approx(8) and verdict.display_p99_ms == pytest.approx(8)
    assert "latency p50 3.0 / p99 3.0 ms to the stamp (at the display 8.0 / 8.0 ms)" in verdict.describe()
    recording.stamped = None
    live = judge(recording)
    assert not live.stamped and live.latency_p50_ms == pytest.approx(8) == live.display_p50_ms
    assert "to the stamp" not in live.describe()
