#!/usr/bin/env python3
"""Prints the `make bench` table from the JSON files bench/run.sh leaves in OUT (argv[1]).

Also writes OUT/table.md (the same table, Markdown) for BENCHMARKS.md.
"""

import json
import os
import sys

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "out")


def load(name):
    path = os.path.join(out, name)
    try:
        with open(path) as f:
            text = f.read().strip()
        return json.loads(text) if text else None
    except (OSError, ValueError):
        return None


def load_lines(name):
    rows = {}
    try:
        with open(os.path.join(out, name)) as f:
            for line in f:
                if line.strip():
                    row = json.loads(line)
                    rows[row["bench"]] = row
    except (OSError, ValueError):
        pass
    return rows


def si(value, unit=""):
    if value is None:
        return "n/a"
    for factor, prefix in ((1e6, " M"), (1e3, " k")):
        if abs(value) >= factor:
            return f"{value / factor:.2f}{prefix}{unit}"
    return f"{value:.2f}{unit and ' ' + unit}"


def pct(value):
    return "n/a" if value is None else f"{value:.0f}%"


def ms(value):
    return "n/a" if value is None else f"{value:.3f}"


rows = []  # (what, result, target, verdict)


def verdict(ok):
    return "n/a" if ok is None else ("MET" if ok else "not met")


machine = load("machine.json") or {}
micro = load_lines("micro.jsonl")
alloc = load_lines("alloc.jsonl")

engine = micro.get("engine", {}).get("perSecond")
rows.append(("engine alone, pre-built inputs (events/s, one core)", si(engine), ">= 10 M", verdict(engine and engine >= 10e6)))
replay = micro.get("replay", {}).get("perSecond")
rows.append(("replay incl. parsing, batch lines (messages/s)", si(replay), ">= 1 M", verdict(replay and replay >= 1e6)))
decode = micro.get("decode", {}).get("perSecond")
rows.append(("FrameDecoder alone, batch lines (messages/s)", si(decode), "", ""))
speed = replay / decode if replay and decode else None
rows.append(("ratio replay / FrameDecoder alone, same run (encoding as cheap as parsing)",
             "n/a" if speed is None else f"{speed:.2f}", ">= 0.45", verdict(None if speed is None else speed >= 0.45)))
instructions = load_lines("instructions.jsonl")


def per_pass(name):  # callgrind instructions of one pass (3 passes minus 1, halved)
    row = instructions.get(name)
    return (row["instructions3"] - row["instructions1"]) / 2 if row else None


dec_i, rep_i = per_pass("decode"), per_pass("replay")
if dec_i and rep_i:
    ratio_i = dec_i / rep_i
    units = instructions["replay"]["inputsPerPass"]
    rows.append(("same ratio by callgrind instructions per message: decode / replay (machine-independent)",
                 f"{ratio_i:.3f} ({dec_i / units:.0f} / {rep_i / units:.0f} instructions per message)",
                 ">= 0.45", verdict(ratio_i >= 0.45)))
single = micro.get("replay-single", {}).get("perSecond")
rows.append(("replay incl. parsing, one message per line (messages/s)", si(single), "", ""))
session = micro.get("session", {}).get("perSecond")
rows.append(("ProtocolSession.receive, as serve calls it (messages/s)", si(session), "", ""))
control = micro.get("session-control", {}).get("perSecond")
rows.append(("ProtocolSession.receive with the control mapping (messages/s)", si(control), "", ""))
added = (1e6 / control - 1e6 / session) if control and session else None
rows.append(("control mapping added per message, frame -> backend call (us)",
             "n/a" if added is None else f"{added:.3f}", "<= 200 (0.2 ms)", verdict(added is not None and added <= 200)))
for name in ("engine", "replay", "session", "session-control"):
    a = alloc.get(name)
    if a:
        per = (a["allocs3"] - a["allocs1"]) / (2 * a["inputsPerPass"])
        rows.append((f"heap allocations per input: {name} (valgrind)", f"{per:.3f}", "", ""))

cl = load("control-latency.json")
rows.append(("frame sent -> X pointer moved, x11 backend under Xvfb, p50 / p99 (ms)",
             f"{cl['p50Ms']:.2f} / {cl['p99Ms']:.2f} ({cl['moves']} moves; peers batch at 33 ms)" if cl else "n/a",
             "p99 <= 5", verdict(cl and cl["p99Ms"] <= 5)))
tl = load("touchpad-latency.json")
for case, label, target in (("quiet", "quiet", None), ("load", "under 200 x 120 Hz", 1.0)):
    run = tl[case] if tl else None
    clock = f", timed by {tl.get('clock', 'read')}" if tl else ""
    rows.append((f"frame sent -> touchpad contact written, {label}, p50 / p99 / max (ms)",
                 f"{run['p50']:.2f} / {run['p99']:.2f} / {run['max']:.2f} ({run['moves']} moves{clock})" if run else "n/a",
                 f"p99 <= {target:g}" if target else "", verdict(run and run["p99"] <= target) if target else ""))
rows.append(("touchpad: a burst of 10 moves (80 ms of t) in one frame, written at (ms after arrival)",
             " ".join(f"{v:.0f}" for v in tl["burst"]) if tl else "n/a", "paced by 3/4 of t, <= 100", ""))


# --- Touch -> pointer through the page (issue 21; bench/page_latency.py) ---------------------
pl = load("page-latency.json")


def page_row(key):
    return (pl or {}).get("runs", {}).get(key)


def p(run, what, q):
    v = (run or {}).get(what) or {}
    return v.get(q)


for hz in (60, 120):
    today, new, noraw = (page_row(f"{name} @ {hz} Hz") for name in ("today", "new", "new, no pointerrawupdate"))
    for name, run in (("today's page", today), ("new page", new), ("new page without pointerrawupdate", noraw)):
        if not run:
            continue
        target, ok = "", None
        if run is new:
            target = "p90 <= floor p90 + 2"
            ok = p(run, "page", "p90") is not None and p(run, "page", "p90") <= p(run, "floor", "p90") + 2
        elif run is noraw and today:
            target = "over floor p90 <= today's + 1"
            ok = p(run, "pageOverFloor", "p90") <= p(today, "pageOverFloor", "p90") + 1
        rows.append((f"touch -> page send, {name} @ {hz} Hz, p50 / p90 (pointerrawupdate floor; page over it p90) (ms)",
                     f"{ms(p(run, 'page', 'p50'))} / {ms(p(run, 'page', 'p90'))} (floor {ms(p(run, 'floor', 'p50'))} / "
                     f"{ms(p(run, 'floor', 'p90'))}; +{ms(p(run, 'pageOverFloor', 'p90'))})",
                     target, verdict(ok) if target else ""))
        rows.append((f"touch -> X pointer, {name} @ {hz} Hz, p50 / p90 (send -> X pointer p50 / p90) (ms)",
                     f"{ms(p(run, 'touchToPointer', 'p50'))} / {ms(p(run, 'touchToPointer', 'p90'))} "
                     f"({ms(p(run, 'sendToPointer', 'p50'))} / {ms(p(run, 'sendToPointer', 'p90'))}; "
                     f"{run.get('matchedPointer')} of {run.get('moves')} moves)", "", ""))
if pl:
    rows.append(("page latency run: load average at start / end, Chromium",
                 f"{pl.get('loadStart', 0):.2f} / {pl.get('loadEnd', 0):.2f}, {pl.get('chromium')}, today's page = "
                 f"{pl.get('todayRef') or 'n/a (no git history)'}", "", ""))


def best(name):
    runs = [r for r in (load(f"throughput{i}-{name}.json") for i in (1, 2)) if r]
    return max(runs, key=lambda r: r["messagesPerSecond"]) if runs else None


tp = {name: best(name) for name in ("c-echo", "py-echo", "gesturepad")}


def rate(run):
    return run["messagesPerSecond"] if run else None


labels = {"c-echo": "bare C libwebsockets echo", "py-echo": "Python websockets echo", "gesturepad": "gesturepad serve (parse + engine + echo)"}
for name, run in tp.items():
    extra = ""
    if run:
        extra = (f" (frames/s {si(run['framesPerSecond'])}, CPU server {pct(run.get('serverCPUPercent'))} / client "
                 f"{pct(run.get('clientCPUPercent'))} / other jobs {pct(run.get('othersCPUPercent'))}, ready {run['ready']}/{run['connections']})")
    rows.append((f"{labels[name]}, 50 conns x 10 frames in flight, best of 2 (pointer msgs/s)", si(rate(run)) + extra, "", ""))
gp, c, py = rate(tp["gesturepad"]), rate(tp["c-echo"]), rate(tp["py-echo"])
r_c = gp / c if gp and c else None
r_py = gp / py if gp and py else None
rows.append(("ratio gesturepad / bare C echo", "n/a" if r_c is None else f"{r_c:.2f}", ">= 0.8", verdict(None if r_c is None else r_c >= 0.8)))
rows.append(("ratio gesturepad / Python echo", "n/a" if r_py is None else f"{r_py:.2f}", ">= 5", verdict(None if r_py is None else r_py >= 5)))

lats = [r for r in (load(f"latency{i}-gesturepad.json") for i in (1, 2)) if r]


def p99(r):  # the gesture latency: events that complete a gesture (phase ended)
    v = r.get("completed_p99_ms", r.get("gesture_p99_ms"))
    return v if v is not None else float("inf")


# The round least disturbed by other jobs (ties: the worse p99).
lat = min(lats, key=lambda r: (round(r.get("othersCPUPercent") or 0, -1), -p99(r))) if lats else None
if len(lats) > 1:
    rows.append(("completed-gesture latency p99 of each round (ms)",
                 " / ".join(f"{ms(p99(r))} (other jobs {pct(r.get('othersCPUPercent'))})" for r in lats), "", ""))
if lat:
    rows.append(("completed-gesture latency p50 / p99 / p99.9 at 200 conns x 120 msg/s, cleanest round (ms)",
                 f"{ms(lat.get('completed_p50_ms'))} / {ms(p99(lat))} / {ms(lat.get('completed_p999_ms'))} "
                 f"({lat.get('completedSamples', 0)} samples, {si(lat['messagesPerSecond'])} msg/s, CPU server "
                 f"{pct(lat.get('serverCPUPercent'))} / client {pct(lat.get('clientCPUPercent'))} / other jobs {pct(lat.get('othersCPUPercent'))})",
                 "p99 <= 1 ms", verdict(p99(lat) <= 1.0)))
    rows.append(("every gesture event (began/changed too) p50 / p99 / p99.9, same round (ms)",
                 f"{ms(lat['gesture_p50_ms'])} / {ms(lat['gesture_p99_ms'])} / {ms(lat['gesture_p999_ms'])} ({lat['gestureSamples']} samples)", "", ""))
    rows.append(("frame RTT (ping -> pong) p50 / p99 / p99.9, same round (ms)",
                 f"{ms(lat['rtt_p50_ms'])} / {ms(lat['rtt_p99_ms'])} / {ms(lat['rtt_p999_ms'])}", "", ""))
else:
    rows.append(("completed-gesture latency p99 at 200 conns x 120 msg/s", "n/a", "p99 <= 1 ms", "n/a"))
clat = load("latency1-c-echo.json")
if clat:
    rows.append(("bare C echo frame RTT p50 / p99 / p99.9, same load (ms)",
                 f"{ms(clat['rtt_p50_ms'])} / {ms(clat['rtt_p99_ms'])} / {ms(clat['rtt_p999_ms'])} (CPU server {pct(clat.get('serverCPUPercent'))})", "", ""))

idle = load("idle-gesturepad.json")
per = idle.get("rssPerConnectionKiB") if idle else None
rows.append(("RSS per idle touchpad connection at 1,000 conns (KiB)",
             "n/a" if per is None else f"{per:.1f} ({idle['ready']} welcomed, RSS {idle['rssBeforeKiB']:.0f} -> {idle['rssAfterKiB']:.0f} KiB)",
             "<= 32 KiB", verdict(None if per is None else per <= 32)))
cidle = load("idle-c-echo.json")
if cidle and cidle.get("rssPerConnectionKiB") is not None:
    rows.append(("bare C echo RSS per idle connection at 1,000 conns (KiB)", f"{cidle['rssPerConnectionKiB']:.1f}", "", ""))

header = ("benchmark", "result", "target", "verdict")
widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(4)]
end = load("load-end.json") or {}
others = end.get("othersShare")
busy = others is not None and others > 0.05
other_text = "" if others is None else f", other jobs took {others * 100:.0f}% of the CPUs during the run"
print(f"machine: {machine.get('nproc', '?')} x {machine.get('cpu', '?')}, load average at start {machine.get('load', 0):.2f}"
      f"{other_text}, libwebsockets {machine.get('lws', '?')}")
if busy:
    print("WARNING: other jobs used more than 5% of the CPUs during the run: these numbers are not reliable; run again on an idle machine.")
print("  ".join(h.ljust(w) for h, w in zip(header, widths)))
print("  ".join("-" * w for w in widths))
for r in rows:
    print("  ".join(str(v).ljust(w) for v, w in zip(r, widths)))

with open(os.path.join(out, "table.md"), "w") as f:
    f.write(f"Machine: {machine.get('nproc', '?')} x {machine.get('cpu', '?')}, kernel {machine.get('kernel', '?')}, "
            f"load average at start {machine.get('load', 0):.2f}{other_text}, libwebsockets {machine.get('lws', '?')}, "
            f"{machine.get('swift', '')}\n\n")
    if busy:
        f.write("**Warning: other jobs were running; these numbers are not reliable.**\n\n")
    f.write("| " + " | ".join(header) + " |\n|" + "---|" * 4 + "\n")
    for r in rows:
        f.write("| " + " | ".join(str(v) for v in r) + " |\n")

# The Wi-Fi strokes (bench/wifi.py) have columns of their own: their table as it wrote it.
wifi = os.path.join(out, "wifi.md")
if os.path.exists(wifi):
    with open(wifi) as f:
        text = f.read()
    print("\nA stroke over Wi-Fi (issue 41), per link profile:\n")
    print(text, end="")
    with open(os.path.join(out, "table.md"), "a") as f:
        f.write("\n### A stroke over Wi-Fi (issue 41)\n\n" + text)
