#!/usr/bin/env bash
# `make bench`: builds everything in release mode, runs the micro-benchmarks, the echo
# baselines (bare C on libwebsockets, Python `websockets`) and `gesturepad serve` under the
# load generator, and prints one table (bench/table.py). Bounded: about two minutes after the
# build. Only 127.0.0.1 is used. Environment knobs:
#   BENCH_SECONDS (measured seconds per load run, default 5), BENCH_NO_INSTALL=1 (never
#   install packages), BENCH_NO_VALGRIND=1 (skip allocation counting), BENCH_GESTUREPAD=PATH
#   (benchmark that gesturepad binary instead of this tree's release build),
#   BENCH_PAGE_SECONDS (seconds of touch input per page and rate in the page latency rows, default 4),
#   BENCH_WIFI_RUNS (3 s strokes per link profile in the Wi-Fi table, default 1; 0 skips it),
#   BENCH_WIFI_AGAINST=PATH (a previous gesturepad binary, stroked beside this one: A/B columns).
#   bench/run.sh --build-only builds what the benchmarks run and stops (make release-noop).
# The release configuration is scripts/build-release.sh's: the app's gesturepad in .build, the
# bench package's gesturepad-bench and gesturepad-loadgen (bench/Package.swift) in bench/.build.
set -euo pipefail
cd "$(dirname "$0")/.."
build() {
    scripts/build-release.sh gesturepad
    scripts/build-release.sh --bench
}
if [ "${1:-}" = "--build-only" ]; then
    build
    exit
fi
ROOT=$PWD
OUT=$ROOT/bench/out
mkdir -p "$OUT"
rm -f "$OUT"/*.json "$OUT"/*.jsonl "$OUT"/*.log "$OUT"/wifi.md
SECONDS_PER_RUN=${BENCH_SECONDS:-5}
SERVER_CPU=0
CLIENT_CPU=1
[ "$(nproc)" -lt 2 ] && CLIENT_CPU=0
ulimit -n 8192 2>/dev/null || ulimit -n "$(ulimit -Hn)" || true

say() { printf '== %s\n' "$*" >&2; }

# --- What the benchmarks need -------------------------------------------------------------
need_apt=()
pkg-config --exists libwebsockets 2>/dev/null || need_apt+=(libwebsockets-dev)
command -v pkg-config >/dev/null || need_apt+=(pkg-config)
command -v cc >/dev/null || need_apt+=(gcc)
command -v taskset >/dev/null || need_apt+=(util-linux)
if [ -z "${BENCH_NO_VALGRIND:-}" ]; then command -v valgrind >/dev/null || need_apt+=(valgrind); fi
command -v Xvfb >/dev/null || need_apt+=(xvfb)
if [ ${#need_apt[@]} -gt 0 ] && [ -z "${BENCH_NO_INSTALL:-}" ]; then
    say "installing ${need_apt[*]} (apt)"
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
    $SUDO apt-get install -y "${need_apt[@]}" >&2 || { $SUDO apt-get update >&2 && $SUDO apt-get install -y "${need_apt[@]}" >&2; }
fi
# Python with websockets (bench/python.sh).
PYTHON=${PYTHON:-}
. bench/python.sh
bench_python websockets.asyncio.server
PIN_SERVER=(); PIN_CLIENT=()
if command -v taskset >/dev/null; then PIN_SERVER=(taskset -c "$SERVER_CPU"); PIN_CLIENT=(taskset -c "$CLIENT_CPU"); fi

# --- Build ---------------------------------------------------------------------------------
say "building (release)"
build >&2
BIN=$(scripts/build-release.sh --bin-path)
TOOLS=$(scripts/build-release.sh --bench --bin-path)
cc -O2 -Wall -o "$OUT/echo-server" bench/echo_server.c $(pkg-config --cflags --libs libwebsockets)

# --- Machine -------------------------------------------------------------------------------
times > "$OUT/times.txt"; children=$(tail -1 "$OUT/times.txt")  # `times` in this shell, not a subshell
"$PYTHON" - "$OUT/cpu-start.json" "$children" <<'PY'
import json, os, sys, time
m = [part.rstrip("s").split("m") for part in sys.argv[2].split()]
ours = sum(int(a) * 60 + float(b) for a, b in m)
fields = [int(x) for x in open("/proc/stat").readline().split()[1:]]
json.dump({"time": time.monotonic(), "ours": ours,
           "busy": (sum(fields) - fields[3] - fields[4]) / os.sysconf("SC_CLK_TCK")}, open(sys.argv[1], "w"))
PY
"$PYTHON" - "$OUT/machine.json" <<'PY'
import json, os, platform, subprocess, sys
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.processor())
json.dump({"nproc": os.cpu_count(), "cpu": cpu, "kernel": platform.release(),
           "load": os.getloadavg()[0],
           "swift": subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.splitlines()[0],
           "lws": subprocess.run(["pkg-config", "--modversion", "libwebsockets"], capture_output=True, text=True).stdout.strip()},
          open(sys.argv[1], "w"))
PY

# --- Micro-benchmarks ----------------------------------------------------------------------
say "engine / replay / session micro-benchmarks"
"${PIN_CLIENT[@]}" "$TOOLS/gesturepad-bench" --seconds 2 > "$OUT/micro.jsonl"
if [ -z "${BENCH_NO_VALGRIND:-}" ] && command -v valgrind >/dev/null; then
    say "allocations per input (valgrind memcheck: 3 passes minus 1 pass)"
    allocs() {  # mode passes → total allocations of the whole process
        valgrind --tool=memcheck "$TOOLS/gesturepad-bench" --mode "$1" --passes "$2" --cycles 20 2>&1 >/dev/null \
            | sed -n 's/.*total heap usage: \([0-9,]*\) allocs.*/\1/p' | tr -d ,
    }
    units=$("$TOOLS/gesturepad-bench" --mode inputs --cycles 20 | sed 's/.*"units":\([0-9]*\).*/\1/')
    {
        for mode in engine replay session session-control; do
            a1=$(allocs "$mode" 1); a3=$(allocs "$mode" 3)
            echo "{\"bench\":\"$mode\",\"inputsPerPass\":$units,\"allocs1\":$a1,\"allocs3\":$a3}"
        done
    } > "$OUT/alloc.jsonl"
    say "instructions per pass (valgrind callgrind: 3 passes minus 1 pass)"
    instructions() {  # mode passes → instructions of the whole process
        valgrind --tool=callgrind --callgrind-out-file=/dev/null "$TOOLS/gesturepad-bench" --mode "$1" --passes "$2" --cycles 20 2>&1 >/dev/null \
            | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
    }
    {
        for mode in decode replay; do
            i1=$(instructions "$mode" 1); i3=$(instructions "$mode" 3)
            echo "{\"bench\":\"$mode\",\"inputsPerPass\":$units,\"instructions1\":$i1,\"instructions3\":$i3}"
        done
    } > "$OUT/instructions.jsonl"
fi

# --- Servers under load --------------------------------------------------------------------
free_port() { "$PYTHON" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_port() {
    for _ in $(seq 1 100); do
        (echo > "/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
        sleep 0.1
    done
    return 1
}
SERVER_PID=""
start_server() {  # name port → starts it pinned, sets SERVER_PID
    local name=$1 port=$2
    case $name in
        c-echo) "${PIN_SERVER[@]}" "$OUT/echo-server" "$port" > "$OUT/$name.log" 2>&1 & ;;
        py-echo) "${PIN_SERVER[@]}" "$PYTHON" bench/echo_server.py "$port" > "$OUT/$name.log" 2>&1 & ;;
        gesturepad) "${PIN_SERVER[@]}" "$GESTUREPAD" serve --host 127.0.0.1 --port "$port" --no-auth --no-qr \
            --public "$PUBLIC" --control off --max-rate 1000000 --max-connections 1100 "${SERVE_QUIET[@]}" > "$OUT/$name.log" 2>&1 & ;;
    esac
    SERVER_PID=$!
    wait_port "$port" || { say "$name did not start (see $OUT/$name.log)"; kill "$SERVER_PID" 2>/dev/null; SERVER_PID=""; return 1; }
}
stop_server() {
    [ -n "$SERVER_PID" ] || return 0
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=""
}
trap stop_server EXIT
load() {  # name scenario server-kind loadgen-args… → $OUT/scenario-name.json
    local name=$1 scenario=$2 kind=$3; shift 3
    local port; port=$(free_port)
    start_server "$name" "$port" || return 0
    say "$scenario: $name"
    "${PIN_CLIENT[@]}" "$TOOLS/gesturepad-loadgen" --port "$port" --server "$kind" --pid "$SERVER_PID" \
        --label "$name" "$@" > "$OUT/$scenario-$name.json" || say "load generator failed ($scenario $name)"
    stop_server
}

GESTUREPAD=${BENCH_GESTUREPAD:-$BIN/gesturepad}
HAVE_SERVE=1
"$GESTUREPAD" serve --help 2>/dev/null | grep -q -- '--max-rate' || HAVE_SERVE=0
# No per-gesture lines on stdout (the terminal log) when serve has --quiet: the benchmark
# measures the server, not the terminal.
SERVE_QUIET=()
"$GESTUREPAD" serve --help 2>/dev/null | grep -q -- '--quiet' && SERVE_QUIET=(--quiet)
# The page folder: Public/ when the tree has it, else a stub (the benchmarks only use /ws).
PUBLIC=$ROOT/Public
if [ ! -f "$PUBLIC/index.html" ]; then
    PUBLIC=$OUT/public
    mkdir -p "$PUBLIC"
    echo '<!doctype html><title>bench</title>' > "$PUBLIC/index.html"
fi
[ "$HAVE_SERVE" = 1 ] || say "gesturepad serve is not built in this tree: its rows are skipped"
HAVE_PY=1
"$PYTHON" -c 'import websockets.asyncio.server' 2>/dev/null || { HAVE_PY=0; say "Python websockets missing: its rows are skipped"; }

# Two interleaved rounds: the table takes each server's best throughput round (noise from
# other jobs only ever slows a run down) and the latency round least disturbed by other jobs
# (each run reports the CPU other processes took while it measured).
TP=(--connections 50 --window 10 --seconds "$SECONDS_PER_RUN" --warmup 1)
LAT=(--connections 200 --rate 120 --seconds "$SECONDS_PER_RUN" --warmup 1)
for round in 1 2; do
    load c-echo "throughput$round" echo "${TP[@]}"
    [ "$HAVE_PY" = 1 ] && load py-echo "throughput$round" echo "${TP[@]}"
    [ "$HAVE_SERVE" = 1 ] && load gesturepad "throughput$round" gesture "${TP[@]}"
    [ "$HAVE_SERVE" = 1 ] && load gesturepad "latency$round" gesture "${LAT[@]}"
done
load c-echo latency1 echo "${LAT[@]}"

IDLE=(--connections 1000 --idle --hold 2)
[ "$HAVE_SERVE" = 1 ] && load gesturepad idle gesture "${IDLE[@]}"
load c-echo idle echo "${IDLE[@]}"

# End to end: a WebSocket frame sent → the X pointer moved, under a private Xvfb.
if [ "$HAVE_SERVE" = 1 ] && command -v Xvfb >/dev/null; then
    "$PYTHON" -c 'import Xlib' 2>/dev/null || [ -n "${BENCH_NO_INSTALL:-}" ] \
        || "$PYTHON" -m pip install --quiet --disable-pip-version-check python-xlib >&2 || true
    say "control latency: frame -> X pointer (Xvfb)"
    "${PIN_CLIENT[@]}" "$PYTHON" bench/control_latency.py "$GESTUREPAD" --moves 300 --out "$OUT/control-latency.json" >&2 \
        || say "control latency failed"
fi

# A stroke over Wi-Fi (issue 41): 600 px in 3 s at 120 Hz through each link profile of the
# link shaper (tests/wifi), the X pointer read at 60 Hz, under a private Xvfb (bench/wifi.py).
# Its own table, printed after the main one (bench/table.py).
if [ "$HAVE_SERVE" = 1 ] && command -v Xvfb >/dev/null && [ "${BENCH_WIFI_RUNS:-1}" -gt 0 ] \
        && "$PYTHON" -c 'import Xlib' 2>/dev/null; then
    say "Wi-Fi stroke: each link profile -> X pointer (Xvfb)"
    AGAINST=()
    if [ -n "${BENCH_WIFI_AGAINST:-}" ]; then AGAINST=(--against "$BENCH_WIFI_AGAINST"); fi
    "$PYTHON" bench/wifi.py "$GESTUREPAD" "${AGAINST[@]}" --runs "${BENCH_WIFI_RUNS:-1}" --markdown "$OUT/wifi.md" \
        --json "$OUT/wifi.json" > /dev/null || say "Wi-Fi stroke failed"
fi

# The touchpad backend: a frame sent → its contact written to the device (a FIFO in place of
# /dev/uinput: serve --test-touchpad-output), quiet and under the 200 × 120 Hz load, and the
# pacing of a burst (bench/touchpad_latency.py).
if [ "$HAVE_SERVE" = 1 ] && "$GESTUREPAD" serve --help-hidden 2>/dev/null | grep -q -- '--test-touchpad-output'; then
    say "touchpad latency: frame -> contact written (quiet, then under load)"
    "${PIN_CLIENT[@]}" "$PYTHON" bench/touchpad_latency.py "$GESTUREPAD" "$TOOLS/gesturepad-loadgen" --moves 300 \
        --out "$OUT/touchpad-latency.json" >&2 || say "touchpad latency failed"
fi

# Touch -> pointer through the page (issue 21): headless Chromium plays touches on today's page
# (git), the new one and the new one without pointerrawupdate, against serve --control x11.
if [ "$HAVE_SERVE" = 1 ] && command -v Xvfb >/dev/null; then
    CHROMIUM=/usr/lib/chromium/chromium
    if [ ! -x "$CHROMIUM" ] && [ -z "${BENCH_NO_INSTALL:-}" ]; then
        say "installing chromium (apt)"
        SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
        $SUDO apt-get install -y chromium >&2 || true
    fi
    if [ -x "$CHROMIUM" ]; then
        say "page latency: touch -> page send -> X pointer (headless Chromium, Xvfb)"
        "$PYTHON" bench/page_latency.py "$GESTUREPAD" --seconds "${BENCH_PAGE_SECONDS:-4}" \
            --out "$OUT/page-latency.json" >&2 || say "page latency failed"
    else
        say "no Chromium: the page latency rows are skipped"
    fi
fi

# CPU time other jobs took during the run: all busy CPU time (/proc/stat) minus ours (bash
# `times`: this script and every child it waited for).
times > "$OUT/times.txt"; children=$(tail -1 "$OUT/times.txt")  # `times` in this shell, not a subshell
"$PYTHON" - "$OUT" "$children" <<'PY'
import json, os, sys, time
out, children = sys.argv[1], sys.argv[2].split()
def seconds(text):  # "1m2.500s"
    m, s = text.rstrip("s").split("m")
    return int(m) * 60 + float(s)
start = json.load(open(os.path.join(out, "cpu-start.json")))
fields = [int(x) for x in open("/proc/stat").readline().split()[1:]]
tick = os.sysconf("SC_CLK_TCK")
busy = (sum(fields) - fields[3] - fields[4]) / tick
elapsed = time.monotonic() - start["time"]
ours = seconds(children[0]) + seconds(children[1]) - start["ours"]
others = max(busy - start["busy"] - ours, 0)
json.dump({"load": os.getloadavg()[0], "elapsed": elapsed, "othersCPUSeconds": others,
           "othersShare": others / (elapsed * os.cpu_count())}, open(os.path.join(out, "load-end.json"), "w"))
PY
"$PYTHON" bench/table.py "$OUT"
