"""What the Wi-Fi scenarios inside the UML kernel share (inside/wifi_scenario.py: the touchpad
through libinput; inside/uinput_wifi_scenario.py: the uinput device's own events): a sender
kept on time, and tests/wifi's rows stroked profile by profile into a results file, one
segment a profile, for the host-side test to judge (docs/testing.md "A Wi-Fi link in user
space").
"""
from __future__ import annotations

import os
import sys
from collections.abc import Callable

from kernel_kit import REPO, Results

sys.path.insert(0, str(REPO / "tests" / "wifi"))
from stroke import StrokePlan  # noqa: E402
from wifi_rows import PROFILES, stroke_profile  # noqa: E402


def realtime() -> None:
    """The UML kernel has one CPU, shared by the server, the readers and this process; with every
    system call trapping, a sender at normal priority goes out tens of ms late (a late move is a
    worse link than the profile's). Real time for this process (its threads inherit it) keeps
    the finger on time; it sleeps between moves, so the others still run."""
    os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(10))


def stroke_profiles(results: Results, server, pointer, plan: StrokePlan,
                    check: Callable | None = None, facts: Callable[[], dict] | None = None) -> None:
    """Every profile's strokes into `server` (kernel_kit.serve), watched by `pointer` — a
    reader with `reset()` and `display(read_pointer, rate)` — each profile a segment of
    `results`: its rows, what missed (`checks`: of them, what `check` said), the replays, each
    verdict's numbers, and what `facts()` adds."""
    for profile in PROFILES:
        with results.segment(profile) as seg:
            # The guest's one CPU may hold a frame back on a clean link too: one frozen frame
            # there is the machine's (the touchpad's loopback row showed one in a full make test).
            run = stroke_profile(profile, server.port, server.token, pointer, reset=pointer.reset, plan=plan,
                                 display=pointer.display, check=check, clean_slack=1)
            seg.update(rows=run.rows, missed=run.missed, checks=run.checks, replays=run.replays,
                       verdicts=[{"latency_p50_ms": v.latency_p50_ms, "latency_p99_ms": v.latency_p99_ms,
                                  "display_p50_ms": v.display_p50_ms, "display_p99_ms": v.display_p99_ms,
                                  "frozen": v.frozen, "frames": v.frames, "jump_ratio": v.jump_ratio,
                                  "final": v.final, "expected_final": v.expected_final}
                                 for v in run.verdicts])
            seg.update(facts() if facts else {})
            print("\n".join(run.rows + run.missed + run.replays), flush=True)
