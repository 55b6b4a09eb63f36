#!/usr/bin/env python3
"""`make soak` (bench/soak.sh builds, then runs this): a long run of `gesturepad serve` under
realistic load with misbehaving hooks configured. Loopback only, bounded in time.

    soak.py run --bin GESTUREPAD --loadgen LOADGEN --out DIR [--connections 200] [--rate 120]
                [--minutes 10] [--verifiers 4] [--server-cpu 0] [--client-cpu 1]
                [--max-slope 10] [--judge-minutes 15]

What runs, all on 127.0.0.1:
- the server (pinned to --server-cpu) with `--control off --quiet --no-auth` and a
  configuration whose hooks misbehave: a `pipe` running `yes`, a `run` that hangs past its
  timeout, one that crashes (SIGSEGV), one whose program is missing, one that forks a child
  that lingers (see `HOOKS` below);
- `gesturepad-loadgen` (pinned to --client-cpu): N connections × R pointer messages/s for T
  minutes, the public traces looped with `t` shifted;
- a bystander (its own process): a touchpad connection that sends a protocol `ping` every
  second and times the `pong`;
- verifiers (their own process): a few touchpad connections that play traces in real time,
  `t` stamped from the clock at send, record every line they send and every gesture they
  receive, and at the end compare, event by event, with `gesturepad replay` of exactly the
  lines they sent (see `verify` for why this is exact);
- a sampler (this process): the server's VmRSS (and its anonymous part, RssAnon), threads,
  open files and the hook processes every second.

It prints one table and writes DIR/soak.json. A run of at least --judge-minutes whose RSS
grew faster than --max-slope KiB/min over the last two thirds of the load fails (exit 1).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TRACES = ROOT / "Tests" / "Fixtures" / "traces"
# The verifiers' traces: the load generator's seven plus the two that end on a timer.
VERIFY_TRACES = ["tap_single", "tap_double", "swipe_batched", "drag_slow", "pinch_out",
                 "scroll_two_finger", "rotate_cw", "long_press", "long_press_drag"]
GAP_S = 1.5  # between two traces of a verifier (replay's end-of-file clock advance is 1 s)

HOOKS = """\
# The soak's misbehaving hooks (bench/soak.py writes this file).
hooks:
  - name: flood-pipe        # writes to stdout without end and never reads its stdin
    gesture: [drag, scroll, pinch, rotate]
    pipe: [yes, "soak flood"]
  - name: hang              # outlives its timeout: its group is killed after 1 s
    gesture: tap
    phase: ended
    run: [sleep, "3600"]
    timeout: 1
  - name: crash             # dies of SIGSEGV at once
    gesture: swipe
    run: [sh, -c, "echo crashing >&2; kill -SEGV $$"]
  - name: missing           # its program does not exist
    gesture: doubleTap
    run: [/nonexistent/gesturepad-soak-missing-program]
  - name: fork-linger       # exits at once, leaving a child in its process group
    gesture: [pinch, rotate]
    phase: ended
    run: [sh, -c, "sleep 30 & echo forked a child that lingers"]
    timeout: 2
"""


# --- small helpers ----------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, timeout: float = 20) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return True
        except OSError:
            time.sleep(0.1)
    return False


def status_kib(pid: int, key: str) -> int | None:
    try:
        for line in open(f"/proc/{pid}/status"):
            if line.startswith(key + ":"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def cpu_seconds(pid: int, children: bool = True) -> float | None:
    """utime + stime (+ reaped children's) of a process, seconds."""
    try:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    tick = os.sysconf("SC_CLK_TCK")
    used = int(fields[11]) + int(fields[12])
    if children:
        used += int(fields[13]) + int(fields[14])
    return used / tick


def machine_busy() -> float:
    fields = [int(x) for x in open("/proc/stat").readline().split()[1:]]
    return (sum(fields) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")


def tagged_processes(tag: str) -> list[tuple[int, str]]:
    """(pid, state) of every process whose environment holds SOAK_TAG=tag (the server and
    the hook processes it started, which inherit its environment)."""
    found = []
    needle = f"SOAK_TAG={tag}".encode()
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/environ", "rb") as f:
                if needle not in f.read().split(b"\0"):
                    continue
            state = open(f"/proc/{entry.name}/stat").read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        found.append((int(entry.name), state))
    return found


def quantile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(int(q * len(ordered)), len(ordered) - 1)]


def trace_groups(name: str) -> list[tuple[float, list[dict]]]:
    """A trace's pointer messages as (t, messages): consecutive messages with the same `t`
    form one group (one batch frame), every other message is its own."""
    groups: list[tuple[float, list[dict]]] = []
    for line in (TRACES / f"{name}.jsonl").read_text().splitlines():
        if not line.strip():
            continue
        item = json.loads(line)
        for message in item if isinstance(item, list) else [item]:
            if message.get("type") == "hello" or "t" not in message:
                continue
            if groups and groups[-1][0] == message["t"]:
                groups[-1][1].append(message)
            else:
                groups.append((message["t"], [message]))
    return groups


HELLO = {"type": "hello", "protocol": 1, "role": "touchpad", "width": 390, "height": 844, "dpr": 3}


def ws_connect(port: int):
    from websockets.asyncio.client import connect
    kwargs = {"compression": None, "max_size": 2 ** 24, "ping_interval": None, "open_timeout": 20}
    try:
        return connect(f"ws://127.0.0.1:{port}/ws", proxy=None, **kwargs)
    except TypeError:  # websockets < 15 has no proxy option
        return connect(f"ws://127.0.0.1:{port}/ws", **kwargs)


# --- the bystander ----------------------------------------------------------------------------

async def bystander(port: int, seconds: float, out: Path) -> None:
    """A touchpad connection that only pings, once a second: the protocol `ping` goes through
    the same session path as the load's messages, so its RTT is what a quiet user sees."""
    rtts: list[float] = []
    lost = 0
    closed = None
    deadline = time.monotonic() + seconds
    try:
        async with ws_connect(port) as ws:
            await ws.send(json.dumps(HELLO))
            while json.loads(await ws.recv()).get("type") != "welcome":
                pass
            n = 0
            while time.monotonic() < deadline:
                n += 1
                tick = time.monotonic()
                await ws.send(json.dumps({"type": "ping", "t": 1000.0 + n}))
                try:
                    while True:
                        reply = json.loads(await asyncio.wait_for(ws.recv(), 10))
                        if reply.get("type") == "pong" and reply.get("t") == 1000.0 + n:
                            break
                    rtts.append((time.monotonic() - tick) * 1000)
                except asyncio.TimeoutError:
                    lost += 1
                await asyncio.sleep(max(0.0, tick + 1 - time.monotonic()))
    except Exception as error:  # a disconnect is a result, not a crash of the soak
        closed = f"{type(error).__name__}: {error}"
    json.dump({"pings": len(rtts) + lost, "lost": lost, "rtts": rtts, "closed": closed}, open(out, "w"))


# --- the verifiers ----------------------------------------------------------------------------

async def verifier(port: int, index: int, seconds: float, out: Path) -> None:
    """Plays the traces in real time: each group of same-`t` messages is one batch frame, sent
    when the trace's clock says, with `t` = the monotonic clock at send (ms, 3 decimals), like
    a page stamps its events. Records every line sent and every gesture received."""
    sent: list[str] = [json.dumps(HELLO, separators=(",", ":"))]
    received: list[str] = []
    closed = None
    t0 = time.monotonic()
    base = 1000.0 + 7.0 * index
    deadline = t0 + seconds
    order = VERIFY_TRACES[index % len(VERIFY_TRACES):] + VERIFY_TRACES[:index % len(VERIFY_TRACES)]
    traces = {name: trace_groups(name) for name in VERIFY_TRACES}
    passes = 0
    lateness: list[float] = []
    last_stamp = 0.0

    async def reader(ws) -> None:
        async for frame in ws:
            message = json.loads(frame)
            if message.get("type") == "gesture":
                received.append(frame)

    try:
        async with ws_connect(port) as ws:
            await ws.send(sent[0])
            while json.loads(await ws.recv()).get("type") != "welcome":
                pass
            task = asyncio.create_task(reader(ws))
            await asyncio.sleep(0.05 * index)
            while time.monotonic() < deadline:
                name = order[passes % len(order)]
                groups = traces[name]
                start = time.monotonic()
                first = groups[0][0]
                for t, messages in groups:
                    due = start + (t - first) / 1000
                    delay = due - time.monotonic()
                    if delay > 0:
                        await asyncio.sleep(delay)
                    now = time.monotonic()
                    lateness.append((now - due) * 1000)
                    stamp = max(round(base + (now - t0) * 1000, 3), round(last_stamp + 0.001, 3))
                    last_stamp = stamp
                    line = json.dumps([dict(m, t=stamp) for m in messages], separators=(",", ":"))
                    await ws.send(line)
                    sent.append(line)
                passes += 1
                await asyncio.sleep(GAP_S)
            # Replay ends with the clock at the last t + 1000 ms: by GAP_S every timer event
            # of the last trace is in, and the connection is still open (no cancel).
            task.cancel()
    except Exception as error:
        closed = f"{type(error).__name__}: {error}"
    json.dump({"index": index, "passes": passes, "sent": sent, "received": received, "closed": closed,
               "lateness_p99_ms": quantile(lateness, 0.99), "lateness_max_ms": max(lateness, default=None)},
              open(out, "w"))


def canonical(line: str) -> str:
    message = json.loads(line)
    message.pop("session", None)
    return json.dumps(message, sort_keys=True)


def verify(binary: str, result: dict) -> dict:
    """Compares what a verifier received with `gesturepad replay` of exactly what it sent.

    Exact, not statistical: the replay sees the same bytes, and the server's clock cannot
    disagree with the replay's, because (a) every `t` is stamped at send from the real clock,
    so the page clock and the server's (offset = smallest arrival − t) run together and a timer
    (tap confirmation, long press) fires at its deadline in both; (b) the messages of one batch
    share one `t`, so no deadline falls inside a frame; (c) the connection stays open
    GAP_S > 1 s after the last trace, the end-of-file advance of replay, so no cancel and no
    timer is cut off. Any difference is an event lost, added, reordered or changed."""
    replay = subprocess.run([binary, "replay", "-"], input="\n".join(result["sent"]) + "\n",
                            capture_output=True, text=True, timeout=120)
    expected = [canonical(l) for l in replay.stdout.splitlines() if l.strip()]
    got = [canonical(l) for l in result["received"]]
    import difflib
    matcher = difflib.SequenceMatcher(a=expected, b=got, autojunk=False)
    matched = sum(block.size for block in matcher.get_matching_blocks())
    diffs = []
    for tag, a0, a1, b0, b1 in matcher.get_opcodes():
        if tag != "equal" and len(diffs) < 5:
            diffs.append({"op": tag, "expected": expected[a0:min(a1, a0 + 3)], "received": got[b0:min(b1, b0 + 3)]})
    return {"index": result["index"], "passes": result["passes"], "sentLines": len(result["sent"]) - 1,
            "expected": len(expected), "received": len(got), "matched": matched,
            "identical": expected == got, "replayErrors": len(replay.stderr.splitlines()),
            "closed": result["closed"], "sendLateness_p99_ms": result["lateness_p99_ms"],
            "sendLateness_max_ms": result["lateness_max_ms"], "firstDiffs": diffs}


async def clients(port: int, seconds: float, verifiers: int, out: Path) -> None:
    await asyncio.gather(*[verifier(port, i, seconds, out / f"verifier-{i}.json") for i in range(verifiers)])


# --- the run ----------------------------------------------------------------------------------

def run(args) -> int:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("verifier-*.json"):
        old.unlink()
    seconds = args.minutes * 60
    tag = f"{os.getpid()}-{int(time.time())}"
    config = out / "soak-hooks.yaml"
    config.write_text(HOOKS if args.hooks else "# SOAK_HOOKS=0: no hooks (a baseline run)\n")
    check = subprocess.run([args.bin, "check-config", str(config)], capture_output=True, text=True)
    if check.returncode != 0:
        print(check.stdout + check.stderr, file=sys.stderr)
        return 2
    port = free_port()
    pin_server = ["taskset", "-c", str(args.server_cpu)]
    pin_client = ["taskset", "-c", str(args.client_cpu)]
    env = dict(os.environ, SOAK_TAG=tag, XDG_STATE_HOME=tempfile.mkdtemp(prefix="gesturepad-soak-state-"))
    env.pop("GESTUREPAD_TOKEN", None)
    public = ROOT / "Public"
    server_err = open(out / "soak-server.log", "wb")
    say(f"server on 127.0.0.1:{port}, hooks {config}")
    server = subprocess.Popen(
        pin_server + [args.bin, "serve", "--host", "127.0.0.1", "--port", str(port), "--no-auth", "--no-qr",
                      "--public", str(public), "--control", "off", "--quiet", "--config", str(config),
                      "--max-connections", str(args.connections + 100)],
        stdout=subprocess.DEVNULL, stderr=server_err, env=env, cwd=ROOT)
    # `taskset` execs the server: the pid is the server's.
    if not wait_port(port):
        server.kill()
        say("the server did not start (see soak-server.log)")
        return 2
    time.sleep(1)
    busy0, wall0 = machine_busy(), time.monotonic()
    server_cpu0 = cpu_seconds(server.pid) or 0.0
    rss_start = status_kib(server.pid, "VmRSS")
    say(f"load: {args.connections} connections × {args.rate} msg/s for {args.minutes} min; "
        f"{args.verifiers} verifiers, 1 bystander")
    loadgen_out = open(out / "soak-loadgen.json", "wb")
    loadgen = subprocess.Popen(
        pin_client + [args.loadgen, "--port", str(port), "--connections", str(args.connections),
                      "--rate", str(args.rate), "--seconds", str(seconds), "--warmup", "1",
                      "--pid", str(server.pid), "--label", "soak", "--traces", str(TRACES)],
        stdout=loadgen_out, stderr=open(out / "soak-loadgen.log", "wb"), cwd=ROOT)
    me = [sys.executable, __file__]
    bystander_p = subprocess.Popen(pin_client + me + ["bystander", "--port", str(port), "--seconds", str(seconds),
                                                      "--out", str(out / "soak-bystander.json")])
    clients_p = subprocess.Popen(pin_client + me + ["verifiers", "--port", str(port), "--seconds", str(seconds),
                                                    "--verifiers", str(args.verifiers), "--out", str(out)])
    samples = []
    hard_stop = time.monotonic() + seconds + 120  # bounded whatever happens
    with open(out / "soak-samples.jsonl", "w") as trace:
        while time.monotonic() < hard_stop:
            t = time.monotonic() - wall0
            procs = tagged_processes(tag)
            try:
                fds = len(os.listdir(f"/proc/{server.pid}/fd"))
            except OSError:
                fds = None
            sample = {"t": round(t, 1), "rssKiB": status_kib(server.pid, "VmRSS"),
                      "rssAnonKiB": status_kib(server.pid, "RssAnon"),
                      "threads": status_kib(server.pid, "Threads"), "fds": fds,
                      "hookProcesses": len(procs) - 1, "zombies": sum(1 for _, s in procs if s == "Z"),
                      "stderrBytes": os.path.getsize(out / "soak-server.log"),
                      "serverAlive": server.poll() is None, "loadRunning": loadgen.poll() is None}
            samples.append(sample)
            trace.write(json.dumps(sample) + "\n")
            trace.flush()
            if loadgen.poll() is not None and bystander_p.poll() is not None and clients_p.poll() is not None:
                break
            time.sleep(max(0.0, wall0 + len(samples) - time.monotonic()))
    for p in (loadgen, bystander_p, clients_p):
        if p.poll() is None:
            p.kill()
        p.wait()
    load_busy = machine_busy() - busy0
    load_wall = time.monotonic() - wall0
    server_cpu = (cpu_seconds(server.pid) or 0.0) - server_cpu0
    clients_cpu = (cpu_seconds(os.getpid()) or 0.0)  # this process and its reaped children
    alive = server.poll() is None
    # After every client has gone: the server's RSS and the hook processes left behind.
    time.sleep(3)
    rss_after = status_kib(server.pid, "VmRSS")
    hooks_after = [p for p in tagged_processes(tag) if p[0] != server.pid]
    server.send_signal(signal.SIGTERM)
    try:
        exit_code = server.wait(10)
    except subprocess.TimeoutExpired:
        server.kill()
        exit_code = server.wait()
    time.sleep(2.5)  # a pipe hook has 2 s after EOF
    leftovers = tagged_processes(tag)
    for pid, _ in leftovers:  # started by our server: never left running
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    server_err.close()

    try:
        load = json.loads((out / "soak-loadgen.json").read_text())
    except (OSError, ValueError):
        load = {}
    try:
        by = json.loads((out / "soak-bystander.json").read_text())
    except (OSError, ValueError):
        by = {"rtts": [], "lost": None, "pings": 0, "closed": "no result"}
    checks = []
    for i in range(args.verifiers):
        try:
            checks.append(verify(args.bin, json.loads((out / f"verifier-{i}.json").read_text())))
        except (OSError, ValueError) as error:
            checks.append({"index": i, "error": str(error)})
    # The load generator's own count, roughly: gestures per loop of its script (replay of each
    # trace) × loops its acknowledged messages make. Not exact (see docs/benchmarks.md).
    per_loop_messages = per_loop_gestures = 0
    for name in ["tap_single", "tap_double", "swipe_batched", "drag_slow", "pinch_out",
                 "scroll_two_finger", "rotate_cw"]:
        text = (TRACES / f"{name}.jsonl").read_text()
        per_loop_messages += sum(len(g[1]) for g in trace_groups(name))
        per_loop_gestures += len(subprocess.run([args.bin, "replay", "-"], input=text, capture_output=True,
                                                text=True).stdout.splitlines())
    approx_expected = None
    if load.get("messages"):
        approx_expected = load["messages"] / per_loop_messages * per_loop_gestures

    log_text = (out / "soak-server.log").read_text(errors="replace")
    rss = [s["rssKiB"] for s in samples if s["rssKiB"]]
    # RSS over the steady part: the last 90 % of the samples taken while the load ran.
    during = [s for s in samples if s.get("loadRunning")]
    under_load = [s for s in samples if s.get("loadRunning") and s["rssKiB"]]
    rss_end = under_load[-1]["rssKiB"] if under_load else None
    steady = [s["rssKiB"] for s in during[len(during) // 10:] if s["rssKiB"]]
    drift = None
    if len(steady) >= 20:
        drift = slope_per_minute([(i, y) for i, y in enumerate(steady)])
    slope = rss_slope(during)
    anon_slope = rss_slope(during, key="rssAnonKiB")
    load_minutes = (during[-1]["t"] - during[0]["t"]) / 60 if during else 0.0
    verdict = judge_slope(slope, load_minutes, bound=args.max_slope, judge_minutes=args.judge_minutes)
    close_codes = load.get("closeCodes") or {}
    report = {
        "connections": args.connections, "rate": args.rate, "minutes": args.minutes, "verifiers": args.verifiers,
        "hooksConfigured": bool(args.hooks),
        "elapsedSeconds": load_wall,
        "rss": {"startKiB": rss_start, "peakKiB": max(rss, default=None), "endKiB": rss_end,
                "afterClientsKiB": rss_after, "steadyDriftKiBPerMinute": drift,
                "slopeLastTwoThirdsKiBPerMinute": slope, "anonSlopeLastTwoThirdsKiBPerMinute": anon_slope,
                "slopeBoundKiBPerMinute": args.max_slope,
                "judgeMinutes": args.judge_minutes, "verdict": verdict},
        "server": {"aliveAtEnd": alive, "exitCode": exit_code, "cpuPercent": server_cpu / load_wall * 100,
                   "threadsMax": max((s["threads"] or 0 for s in samples), default=None),
                   "fdsStart": samples[0]["fds"] if samples else None,
                   "fdsMax": max((s["fds"] or 0 for s in samples), default=None),
                   "fdsEnd": during[-1]["fds"] if during else None,
                   "stderrBytes": os.path.getsize(out / "soak-server.log"),
                   "stderrBytesPerSecond": os.path.getsize(out / "soak-server.log") / load_wall,
                   "suppressedNotes": log_text.count("suppressed")},
        "hooks": {"processesMax": max((s["hookProcesses"] for s in samples), default=None),
                  "zombiesMax": max((s["zombies"] for s in samples), default=None),
                  "leftAfterClients": len(hooks_after), "leftAfterExit": len(leftovers)},
        "load": load,
        "disconnects": {"loadgenReadyAtEnd": load.get("ready"), "loadgenFailed": load.get("failed"),
                        "closeCodes": close_codes, "errors": load.get("errors"),
                        "bystanderClosed": by.get("closed"),
                        "verifiersClosed": [c.get("closed") for c in checks if c.get("closed")]},
        "events": {"loadgenGestures": load.get("gestures"), "loadgenApproxExpected": approx_expected,
                   "perLoopMessages": per_loop_messages, "perLoopGestures": per_loop_gestures,
                   "verifiers": checks},
        "bystander": {"pings": by.get("pings"), "lost": by.get("lost"),
                      "p50_ms": quantile(by["rtts"], 0.5), "p99_ms": quantile(by["rtts"], 0.99),
                      "max_ms": max(by["rtts"], default=None)},
        "machine": {"load": os.getloadavg(), "nproc": os.cpu_count(),
                    "othersCPUSharePercent": None},
    }
    ours = server_cpu + clients_cpu
    report["machine"]["othersCPUSharePercent"] = max(load_busy - ours, 0) / (load_wall * os.cpu_count()) * 100
    report["machine"]["loadgenOthersCPUPercent"] = load.get("othersCPUPercent")
    (out / "soak.json").write_text(json.dumps(report, indent=1))
    table = render(report)
    (out / "soak.md").write_text(table)
    print(table)
    if verdict == "exceeded":
        say(f"FAIL: server RSS grew {slope:+.1f} KiB/min over the last two thirds of the run, "
            f"over the bound of {args.max_slope:g} KiB/min (docs/benchmarks.md)")
        return 1
    return 0


# --- the RSS slope ----------------------------------------------------------------------------

def slope_per_minute(points: list[tuple[float, float]]) -> float | None:
    """Least-squares slope of (seconds, KiB) points, in KiB/min."""
    if len(points) < 2:
        return None
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    if sxx == 0:
        return None
    return sum((x - mx) * (y - my) for x, y in points) / sxx * 60


def rss_slope(during: list[dict], key: str = "rssKiB") -> float | None:
    """The RSS slope (KiB/min, least squares) over the last two thirds of the samples taken while
    the load ran: the first third is warm-up (buffers, the allocator's arenas, the hook
    processes' churn reaching their steady level). `key` "rssAnonKiB": its anonymous part only
    (the heap; without the binary's pages mapped in as code runs)."""
    if not during:
        return None
    start, end = during[0]["t"], during[-1]["t"]
    cut = start + (end - start) / 3
    return slope_per_minute([(s["t"], s[key]) for s in during if s["t"] >= cut and s.get(key)])


def judge_slope(slope: float | None, load_minutes: float, bound: float, judge_minutes: float) -> str:
    """`ok`, `exceeded`, or `not judged` (no slope, or a run shorter than `judge_minutes`, whose
    last two thirds are too short to tell a slow climb from the allocator's noise)."""
    if slope is None or load_minutes < judge_minutes:
        return "not judged"
    return "exceeded" if slope > bound else "ok"


def mib(kib) -> str:
    return "—" if kib is None else f"{kib / 1024:.1f} MiB"


def ms(value) -> str:
    return "—" if value is None else f"{value:.2f} ms"


def render(r: dict) -> str:
    rows = []
    add = lambda k, v: rows.append(f"| {k} | {v} |")
    ev, by, d, s, h = r["events"], r["bystander"], r["disconnects"], r["server"], r["hooks"]
    load = r["load"]
    add("load", f"{r['connections']} conns × {r['rate']:g} msg/s for {r['minutes']:g} min "
        f"({load.get('messagesPerSecond', 0):,.0f} msg/s acknowledged) + {r['verifiers']} verifiers + 1 bystander; "
        f"{'misbehaving hooks' if r['hooksConfigured'] else 'no hooks (baseline)'}")
    add("server RSS start / peak / end of load", f"{mib(r['rss']['startKiB'])} / {mib(r['rss']['peakKiB'])} / "
        f"{mib(r['rss']['endKiB'])} (after the clients left: {mib(r['rss']['afterClientsKiB'])})")
    drift = r["rss"]["steadyDriftKiBPerMinute"]
    add("RSS drift over the steady 90 %", "—" if drift is None else f"{drift:+.1f} KiB/min (least squares)")
    slope, verdict = r["rss"]["slopeLastTwoThirdsKiBPerMinute"], r["rss"]["verdict"]
    judged = {"ok": f"within the bound of {r['rss']['slopeBoundKiBPerMinute']:g} KiB/min",
              "exceeded": f"**over the bound of {r['rss']['slopeBoundKiBPerMinute']:g} KiB/min**",
              "not judged": f"not judged (a run shorter than {r['rss']['judgeMinutes']:g} min)"}[verdict]
    anon = r["rss"]["anonSlopeLastTwoThirdsKiBPerMinute"]
    add("RSS slope over the last two thirds of the load",
        ("—" if slope is None else f"{slope:+.1f} KiB/min (least squares)") + f"; {judged}"
        + ("" if anon is None else f"; its anonymous part (RssAnon) {anon:+.1f} KiB/min"))
    add("server alive / exit on SIGTERM", f"{'yes' if s['aliveAtEnd'] else '**no**'} / {s['exitCode']}")
    add("server CPU, threads max, fds start / max / end",
        f"{s['cpuPercent']:.0f} % / {s['threadsMax']} / {s['fdsStart']} / {s['fdsMax']} / {s['fdsEnd']}")
    add("disconnects (load generator)", f"ready at end {d['loadgenReadyAtEnd']} of {r['connections']}, "
        f"failed {d['loadgenFailed']}, close codes {d['closeCodes'] or 'none'}, error messages {d['errors']}")
    add("disconnects (bystander, verifiers)", f"{d['bystanderClosed'] or 'none'}; {d['verifiersClosed'] or 'none'}")
    vs = [c for c in ev["verifiers"] if "expected" in c]
    exp, got, match = (sum(c[k] for c in vs) for k in ("expected", "received", "matched"))
    ident = sum(1 for c in vs if c["identical"])
    add("events received vs `replay` (verifiers, exact)",
        f"{got:,} received / {exp:,} expected, {match:,} identical in order; "
        f"{ident} of {len(ev['verifiers'])} connections byte-identical to replay "
        f"({sum(c['passes'] for c in vs)} traces played)")
    if ev["loadgenApproxExpected"]:
        add("events received (load generator, approximate)",
            f"{ev['loadgenGestures']:,} vs ≈ {ev['loadgenApproxExpected']:,.0f} "
            f"({ev['loadgenGestures'] / ev['loadgenApproxExpected'] * 100:.2f} %)")
    add("bystander ping RTT p50 / p99 / max", f"{ms(by['p50_ms'])} / {ms(by['p99_ms'])} / {ms(by['max_ms'])} "
        f"({by['pings']} pings, {by['lost']} unanswered in 10 s)")
    add("load-generator RTT p50 / p99 / p99.9", f"{ms(load.get('rtt_p50_ms'))} / {ms(load.get('rtt_p99_ms'))} / "
        f"{ms(load.get('rtt_p999_ms'))}")
    add("hook processes max / zombies max / left after clients / after exit",
        f"{h['processesMax']} / {h['zombiesMax']} / {h['leftAfterClients']} / {h['leftAfterExit']}")
    add("server stderr", f"{s['stderrBytes']:,} bytes ({s['stderrBytesPerSecond']:,.0f} B/s), "
        f"{s['suppressedNotes']} 'suppressed' notes")
    m = r["machine"]
    add("machine", f"{m['nproc']} CPUs, load {m['load'][0]:.2f} at the end; other processes took "
        f"{m['othersCPUSharePercent']:.0f} % of the CPUs during the run")
    return "| soak | result |\n|---|---|\n" + "\n".join(rows) + "\n"


def say(text: str) -> None:
    print(f"== {text}", file=sys.stderr, flush=True)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["run", "bystander", "verifiers"])
    parser.add_argument("--bin")
    parser.add_argument("--loadgen")
    parser.add_argument("--out", default=str(ROOT / "bench" / "out"))
    parser.add_argument("--connections", type=int, default=200)
    parser.add_argument("--rate", type=float, default=120)
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--verifiers", type=int, default=4)
    parser.add_argument("--hooks", type=int, default=1, help="0: no hooks (a baseline)")
    parser.add_argument("--max-slope", type=float, default=10.0,
                        help="KiB/min: the RSS slope over the last two thirds that fails the run")
    parser.add_argument("--judge-minutes", type=float, default=15.0,
                        help="runs shorter than this report the slope without judging it")
    parser.add_argument("--server-cpu", type=int, default=0)
    parser.add_argument("--client-cpu", type=int, default=1)
    parser.add_argument("--port", type=int)
    parser.add_argument("--seconds", type=float)
    args = parser.parse_args()
    if args.mode == "bystander":
        asyncio.run(bystander(args.port, args.seconds, Path(args.out)))
        return 0
    if args.mode == "verifiers":
        asyncio.run(clients(args.port, args.seconds, args.verifiers, Path(args.out)))
        return 0
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
