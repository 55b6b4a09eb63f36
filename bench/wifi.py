#!/usr/bin/env python3
"""A stroke over Wi-Fi, per link profile (issue 41): a benchmark, not a test.

Starts a private Xvfb and `gesturepad serve --control x11 --acceleration flat --speed 1` on it,
then for each link profile plays the 600 px, 3 s, 120 Hz stroke `--runs` times through the
link shaper and judges what the pointer did at 60 Hz (tests/wifi: linkshaper.py, stroke.py).
With `--against B` a second binary runs beside the first, strokes alternated A B, B A, … with
the same link seed for both in each run. Prints a Markdown table:

    bench/wifi.py [BINARY] [--against BINARY_B] [--runs N] [--profiles busy,powersave]
                  [--seed S] [--markdown FILE] [--json FILE]

BINARY: else $GESTUREPAD_BIN, else .build/debug/gesturepad. Latency percentiles pool every
move of every run; frozen frames add up over the runs; the largest jump is the largest of any
run. A stroke the machine disturbed is played again (up to three strokes), as in the tests;
the table says how many were. Needs Xvfb, and Python websockets and python-xlib.
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
for folder in ("tests", "tests/control", "tests/wifi"):
    sys.path.insert(0, str(REPO / folder))

from linkshaper import PROFILES  # noqa: E402
from stroke import StrokePlan, percentile, stroke_through_link  # noqa: E402
from testkit import Server, binary  # noqa: E402
from x11_harness import Xvfb  # noqa: E402
from x11_pointer import X11_FLAT, XPointer  # noqa: E402

START = (600, 500)


@dataclass
class Row:
    profile: str
    label: str  # "A" / "B", or "" without --against
    latencies: list[float] = field(default_factory=list)
    link_delays: list[float] = field(default_factory=list)
    frozen: int = 0
    frames: int = 0
    jump: float = 0.0
    ideal: float = 0.0
    exact: int = 0
    runs: int = 0
    replayed: int = 0

    def add(self, stroke) -> None:
        verdict = stroke.verdict
        self.latencies += verdict.latencies_ms
        self.link_delays += [c.delay * 1000 for c in stroke.chunks if c.delay is not None]
        self.frozen += verdict.frozen
        self.frames += verdict.frames
        self.jump = max(self.jump, verdict.largest_jump_px)
        self.ideal = verdict.ideal_step_px
        self.exact += verdict.exact
        self.runs += 1
        self.replayed += len(stroke.replays)

    def summary(self) -> dict:
        return {"profile": self.profile, "binary": self.label, "backend": "x11", "runs": self.runs,
                "latencyP50Ms": percentile(self.latencies, 50), "latencyP99Ms": percentile(self.latencies, 99),
                "frozen": self.frozen, "frames": self.frames, "largestJumpPx": self.jump,
                "largestJumpIdeal": self.jump / self.ideal if self.ideal else None,
                "exact": self.exact, "replayed": self.replayed,
                "linkDelayP50Ms": percentile(self.link_delays, 50), "linkDelayP99Ms": percentile(self.link_delays, 99)}


def markdown(rows: list[dict], binaries: dict[str, str], runs: int, seed: str) -> str:
    def ms(value):
        return "n/a" if value is None else f"{value:.1f}"

    ab = len(binaries) > 1
    head = ["profile", "backend"] + (["binary"] if ab else []) + [
        "latency p50 / p99 (ms)", "frozen display frames", "largest jump (px, x ideal)", "final position exact",
        "link delay p50 / p99 (ms)"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        share = r["frozen"] / r["frames"] if r["frames"] else 0.0
        exact = f"{r['exact']}/{r['runs']}" + (f" ({r['replayed']} replayed)" if r["replayed"] else "")
        cells = [r["profile"], r["backend"]] + ([r["binary"]] if ab else []) + [
            f"{ms(r['latencyP50Ms'])} / {ms(r['latencyP99Ms'])}", f"{r['frozen']}/{r['frames']} ({share:.1%})",
            f"{r['largestJumpPx']:.0f} ({r['largestJumpIdeal']:.1f}x)", exact,
            f"{ms(r['linkDelayP50Ms'])} / {ms(r['linkDelayP99Ms'])}"]
        lines.append("| " + " | ".join(cells) + " |")
    plan = StrokePlan()
    legend = (f"\n{plan.distance:.0f} px in {plan.duration:g} s at {plan.rate:g} Hz through the link shaper "
              f"(tests/wifi/linkshaper.py), pointer read at {plan.frame_rate:g} Hz; {runs} run(s) per profile, "
              f"seed {seed}; ideal step {plan.ideal_step:.2f} px per frame.")
    for label, path in binaries.items():
        legend += f"\n{label + ': ' if ab else 'binary: '}{path}"
    return "\n".join(lines) + "\n" + legend + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description="A stroke over each Wi-Fi link profile, judged at the X pointer.")
    parser.add_argument("binary", nargs="?", help="gesturepad (default: $GESTUREPAD_BIN, else .build/debug/gesturepad)")
    parser.add_argument("--against", metavar="BINARY_B", help="a second gesturepad, alternated with the first")
    parser.add_argument("--runs", type=int, default=3, help="strokes per profile and binary (default 3)")
    parser.add_argument("--profiles", default=",".join(PROFILES), help="comma-separated (default: all)")
    parser.add_argument("--seed", default="41", help="link seed; run i uses SEED-i")
    parser.add_argument("--markdown", help="also write the table here")
    parser.add_argument("--json", help="write the rows as JSON here")
    args = parser.parse_args()
    profiles = [p for p in args.profiles.split(",") if p]
    unknown = [p for p in profiles if p not in PROFILES]
    if unknown:
        parser.error(f"unknown profile(s) {', '.join(unknown)}; known: {', '.join(PROFILES)}")
    binaries = {"A": str(Path(args.binary).resolve() if args.binary else binary())}
    if args.against:
        binaries["B"] = str(Path(args.against).resolve())

    xvfb = Xvfb()
    servers: dict[str, Server] = {}
    try:
        pointer = XPointer(xvfb.name)
        for label, path in binaries.items():
            servers[label] = Server(program=path, extra=X11_FLAT, env={"DISPLAY": xvfb.name})
        rows = {(p, label): Row(p, label if args.against else "") for p in profiles for label in binaries}
        for profile in profiles:
            for run in range(args.runs):
                order = list(binaries) if run % 2 == 0 else list(reversed(binaries))
                for label in order:
                    server = servers[label]
                    stroke = stroke_through_link(server.port, server.token, profile, pointer, f"{args.seed}-{run}",
                                                 reset=lambda: pointer.warp(*START))
                    rows[(profile, label)].add(stroke)
                    print(f"{profile} {label} run {run + 1}: {stroke.verdict.describe()}", file=sys.stderr, flush=True)
        pointer.close()
    finally:
        for server in servers.values():
            server.__exit__(None, None, None)
        xvfb.close()

    summaries = [row.summary() for row in rows.values()]
    table = markdown(summaries, binaries, args.runs, args.seed)
    print(table)
    if args.markdown:
        Path(args.markdown).write_text(table)
    if args.json:
        Path(args.json).write_text(json.dumps({"bench": "wifi", "binaries": binaries, "runs": args.runs,
                                               "seed": args.seed, "rows": summaries}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
