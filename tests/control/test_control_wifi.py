"""Issue 41, "Smooth on a real Wi-Fi": a 600 px stroke in 3 s at 120 Hz from a real WebSocket
client, through the link shaper's profiles, into `gesturepad serve --control x11` (flat, speed
1) on a private Xvfb, the pointer read at 60 Hz. The targets:

| profile | target |
|---|---|
| every one | the pointer ends exactly 600 px right of where it started |
| loopback, home | no frozen display frame |
| busy | at most 2 % frozen frames over three seeded strokes, 3 % in each; no jump above 2 × the ideal step (3.3 px) |
| powersave | at most 10 % frozen frames; latency p50 from the send at most 60 ms |

The link's schedule comes from a fixed seed (GESTUREPAD_WIFI_SEED overrides it), so a run can
be repeated. A stroke the machine disturbed (a move sent after the next was due, a display
frame missed by the sampler) and missing its targets is played again, up to five strokes, with
a warning. Each row's numbers are printed (shown with a failure). tests/wifi holds the link
shaper, the stroke's driver and judge, and their own tests.
"""
from __future__ import annotations

import math
import os
import sys
import warnings
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "wifi"))

from linkshaper import PROFILES  # noqa: E402
from stroke import StrokePlan, percentile, stroke_through_link  # noqa: E402
from x11_pointer import X11_FLAT, XPointer  # noqa: E402

PLAN = StrokePlan()
SEED = os.environ.get("GESTUREPAD_WIFI_SEED", "41")
START = (600, 500)  # where the pointer is put first: room for 600 px to the right
ATTEMPTS = 5  # strokes at most, when the machine disturbs them (as tests/browser replays a stalled input)


def link_delays(chunks) -> str:
    """The shaped chunks' arrival → written, p50 / p99 (ms)."""
    delays = [c.delay * 1000 for c in chunks if c.delay is not None]
    if not delays:
        return "no chunk"
    return f"{percentile(delays, 50):.1f} / {percentile(delays, 99):.1f}"


def targets_missed(profile: str, verdict, strokes: int = 1) -> list[str]:
    """What one stroke missed; of several strokes judged together, each may freeze up to 3 %."""
    missed = []
    if not verdict.exact:
        missed.append(f"the pointer ended at {verdict.final}, not {verdict.expected_final}")
    if profile in ("loopback", "home") and verdict.frozen:
        missed.append(f"{verdict.frozen} frozen frames (target: none)")
    if profile == "busy":
        most = 0.02 if strokes == 1 else 0.03
        if verdict.frozen_share > most:
            missed.append(f"{verdict.frozen_share:.1%} frozen frames (target: at most {most:.0%})")
        if verdict.jump_ratio > 2:
            missed.append(f"a jump of {verdict.largest_jump_px:.1f} px, {verdict.jump_ratio:.1f}x the ideal step "
                          f"(target: at most 2x)")
    if profile == "powersave":
        if verdict.frozen_share > 0.10:
            missed.append(f"{verdict.frozen_share:.1%} frozen frames (target: at most 10 %)")
        if verdict.latency_p50_ms is None or verdict.latency_p50_ms > 60:
            missed.append(f"latency p50 {verdict.latency_p50_ms or math.inf:.1f} ms (target: at most 60 ms)")
    return missed


@pytest.fixture(scope="module")
def pointer(xserver):
    """pointer() → (x, y) of the X pointer on the private Xvfb; pointer.warp(x, y)."""
    reader = XPointer(xserver.name)
    try:
        yield reader
    finally:
        reader.close()


def seeds_for(profile: str) -> list[str]:
    """The busy link holds a frame back about once a second, so one stroke's frozen share moves
    by 0.6 % with each held frame: it is judged on three seeded strokes together (each at most
    3 % frozen), as the simulation judges five (PlayoutSimulationTests). One stroke elsewhere."""
    if profile != "busy":
        return [SEED]
    base = int(SEED) if SEED.isdigit() else 0
    return [SEED] + [str(base + k) for k in (1, 2)]


@pytest.mark.parametrize("profile", list(PROFILES))
def test_stroke_over_wifi(profile, start_server, pointer):
    """The strokes through one link profile meet that profile's targets (module docstring)."""
    x11_server = start_server(extra=X11_FLAT[2:])
    seeds = seeds_for(profile)
    missed: list[str] = []
    frozen = frames = 0
    for seed in seeds:
        stroke = stroke_through_link(x11_server.port, x11_server.token, profile, pointer, seed, PLAN,
                                     attempts=ATTEMPTS, reset=lambda: pointer.warp(*START),
                                     keep=lambda v: not targets_missed(profile, v, len(seeds)))
        verdict = stroke.verdict
        frozen += verdict.frozen
        frames += verdict.frames
        for why in stroke.replays:
            warnings.warn(f"{profile}: the stroke was played again: {why}", stacklevel=1)
        row = f"{profile:<9} seed {seed}: {verdict.describe()}; link delay p50 / p99 {link_delays(stroke.chunks)} ms"
        print(row)
        disturbed = verdict.disturbed(PLAN)
        if disturbed:
            row += f"\n(every one of {ATTEMPTS} strokes was disturbed by the machine, the last: {disturbed}; " \
                   "these numbers may be the machine's, not the server's)"
        missed += [f"seed {seed}: {why}\n{row}" for why in targets_missed(profile, verdict, len(seeds))]
    if len(seeds) > 1 and frozen > 0.02 * frames:
        missed.append(f"{frozen}/{frames} frozen frames over seeds {', '.join(seeds)} (target: at most 2 %)")
    assert not missed, f"{profile}: " + "\n".join(missed)
