"""The stroke's judge (stroke.judge) on recordings made up here: latency from the send, frozen
display frames, the largest jump and the final position, each worked out by hand or from a
pointer that follows the finger with a known delay. No server, no X, no clock."""
from __future__ import annotations

import math
import os
import subprocess
import sys
import time

import pytest

from stroke import CpuWait, Recording, StrokePlan, judge, percentile

PLAN = StrokePlan()  # 600 px in 3 s at 120 Hz, sampled at 60 Hz
START = (600, 500)


def follow(delay_of, plan: StrokePlan = PLAN, begin: float = 10.0, phase: float = 0.004,
           end_short: int = 0) -> Recording:
    """A recording where move i reaches the pointer `delay_of(i)` s after its send (moves sent
    on time), sampled every frame from 50 ms before the first move (offset `phase`). With
    `end_short`, the last that many moves never arrive."""
    sends = [begin + (i + 1) / plan.rate for i in range(plan.moves)]
    arrivals = [s + delay_of(i) for i, s in enumerate(sends)]
    for i in range(plan.moves - end_short, plan.moves):
        arrivals[i] = math.inf
    samples = []
    frame = 1 / plan.frame_rate
    t = begin - 0.05 + phase
    while t < arrivals[-1] + 0.1 if end_short == 0 else t < sends[-1] + 0.5:
        arrived = [i for i, a in enumerate(arrivals) if a <= t]
        travel = math.floor(plan.travel(max(arrived)) + 1e-6) if arrived else 0
        samples.append((t, START[0] + travel, START[1]))
        t += frame
    final = samples[-1][1:]
    return Recording(plan, START, sends=sends, lateness=[0.0] * plan.moves, samples=samples, final=final)


def test_a_hand_worked_stroke():
    """Six 1 px moves, six samples: every number worked out by hand."""
    plan = StrokePlan(distance=6, duration=0.05, rate=120, frame_rate=60)
    f = 1 / 60
    recording = Recording(
        plan, (100, 50),
        sends=[0.010, 0.018, 0.026, 0.035, 0.043, 0.051],
        lateness=[0.001, 0, 0, 0.0005, 0, 0],
        samples=[(0.0, 100, 50), (f, 101, 50), (2 * f, 103, 50), (3 * f, 103, 50), (4 * f, 106, 50),
                 (5 * f, 106, 50)],
        final=(106, 50))
    verdict = judge(recording)
    # reached at samples 1, 2, 2, 4, 4, 4 → 6.7, 15.3, 7.3, 31.7, 23.7, 15.7 ms
    assert verdict.reached == 6
    assert verdict.latency_p50_ms == pytest.approx((2 * f - 0.018) * 1000)
    assert verdict.latency_p99_ms == pytest.approx((4 * f - 0.035) * 1000)
    # between the first arrival (sample 1) and the last (sample 4): samples 2, 3 (still), 4
    assert (verdict.frozen, verdict.frames) == (1, 3)
    assert verdict.largest_jump_px == 3 and verdict.ideal_step_px == 2 and verdict.jump_ratio == 1.5
    assert verdict.exact and verdict.expected_final == (106, 50)
    assert verdict.sender_late_ms == pytest.approx(1.0)
    assert verdict.sampler_gap_ms == pytest.approx(f * 1000)


def test_an_even_link_freezes_no_frame():
    """Every move 12 ms after its send: latency 12–29 ms (one frame of sampling on top),
    nothing frozen, steps of 3–4 px, the end exact."""
    verdict = judge(follow(lambda i: 0.012))
    assert verdict.reached == PLAN.moves
    assert 12 <= verdict.latency_p50_ms <= 12 + 1000 / 60 and verdict.latency_p99_ms <= 12 + 1000 / 60
    assert verdict.frozen == 0 and 175 <= verdict.frames <= 181
    assert verdict.largest_jump_px in (3, 4)
    assert verdict.exact, verdict.describe()


def test_a_stall_freezes_frames_then_jumps():
    """Moves 120–131 (100 ms of them) held until the 132nd arrives: about six frozen frames,
    then a jump of about 100 ms of travel (20 px) plus a step."""
    held_until = 10.0 + 133 / 120 + 0.012

    def delay(i):
        send = 10.0 + (i + 1) / 120
        return held_until - send if 120 <= i <= 132 else 0.012

    verdict = judge(follow(delay))
    assert 5 <= verdict.frozen <= 7, verdict.describe()
    assert 20 <= verdict.largest_jump_px <= 26 and verdict.jump_ratio > 6
    assert verdict.latency_p99_ms >= 87  # the 4th longest wait (p99 of 360): move 123, 87 ms
    assert verdict.exact


def test_moves_that_never_arrive():
    """The last 30 moves never reach the pointer: they have no latency, the frames after the last
    motion count as frozen, and the end is not exact."""
    verdict = judge(follow(lambda i: 0.012, end_short=30))
    assert verdict.reached == PLAN.moves - 30
    assert not verdict.exact and verdict.final == (START[0] + 550, START[1])
    assert verdict.frozen >= 15, verdict.describe()
    assert "NOT exact" in verdict.describe()


def test_percentile_is_nearest_rank():
    values = list(range(1, 101))
    assert percentile(values, 50) == 50 and percentile(values, 99) == 99 and percentile(values, 100) == 100
    assert percentile([7.0], 99) == 7.0 and percentile([], 50) is None


def test_what_disturbs_a_stroke():
    """A stroke is the machine's, not the server's, when a move went out after the next was due,
    two reads were 1.5 frames apart or more, or a read took over a quarter frame (its stamp is
    that unsure); an undisturbed one says nothing."""
    quiet = follow(lambda i: 0.012)
    assert judge(quiet).disturbed(PLAN) is None
    late = follow(lambda i: 0.012)
    late.lateness[40] = 0.009  # past the next move's time (8.3 ms at 120 Hz)
    assert "a move went out 9.0 ms late" in judge(late).disturbed(PLAN)
    slow_read = follow(lambda i: 0.012)
    slow_read.slowest_read = 0.004
    assert judge(slow_read).disturbed(PLAN) is None, "4 ms is within a quarter of a 16.7 ms frame"
    slow_read.slowest_read = 0.0045
    verdict = judge(slow_read)
    assert verdict.sampler_read_ms == pytest.approx(4.5)
    assert "a pointer read took 4.5 ms" in verdict.disturbed(PLAN)
    assert "the slowest read 4.5 ms" in verdict.describe()
    starved = follow(lambda i: 0.012)
    starved.cpu_wait = 0.004
    assert judge(starved).disturbed(PLAN) is None
    starved.cpu_wait = 0.0064
    assert "waited 6.4 ms for a CPU in one frame" in judge(starved).disturbed(PLAN)
    assert CpuWait.longest([1.0, 2.0], [1.001, 2.005]) == pytest.approx(0.005), "one thread's, not the sum"
    assert "waited for a CPU at most 6.4 ms a frame" in judge(starved).describe()


def test_cpu_wait_counts_what_shares_one_cpu():
    """Two processes spinning on one CPU each wait for it about half the time they run: the
    kernel's run_delay of one of their threads, as the sampler reads it per frame, grows past
    0.1 s while they run (they spin up to 5 s; killed once it has)."""
    spin = "import time\nend = time.monotonic() + 5\nwhile time.monotonic() < end: pass"
    cpu = min(os.sched_getaffinity(0))
    children = [subprocess.Popen([sys.executable, "-c", spin]) for _ in range(2)]
    try:
        for child in children:
            os.sched_setaffinity(child.pid, {cpu})
        waited = CpuWait([c.pid for c in children])
        before = waited.read()
        grown = 0.0
        while all(c.poll() is None for c in children) and grown <= 0.1:
            time.sleep(0.01)
            grown = CpuWait.longest(before, waited.read())
        assert grown > 0.1, "two spinners on one CPU wait for it while they run"
        waited.close()
    finally:
        for child in children:
            child.kill()
            child.wait()
