#!/usr/bin/env bash
# `make soak`: a long run of `gesturepad serve` under realistic load with misbehaving hooks
# configured (bench/soak.py runs it and prints one table; JSON in bench/out/soak.json).
# Not part of `make test`. Loopback only; stops by itself (the run's length + at most ~3 min).
# Knobs: SOAK_CONNECTIONS (200), SOAK_RATE (pointer messages/s per connection, 120),
#   SOAK_MINUTES (10), SOAK_VERIFIERS (4), SOAK_HOOKS=0 (a baseline without hooks), BENCH_NO_INSTALL=1 (install nothing),
#   SOAK_MAX_SLOPE (10: KiB/min of RSS over the last two thirds of the load that fail the run),
#   SOAK_JUDGE_MINUTES (15: shorter runs print the slope without judging it),
#   BENCH_GESTUREPAD=PATH (soak that gesturepad binary instead of this tree's release build).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=$PWD/bench/out
mkdir -p "$OUT"
rm -f "$OUT"/soak*.json "$OUT"/soak*.jsonl "$OUT"/soak*.log "$OUT"/soak.md "$OUT"/verifier-*.json
ulimit -n 8192 2>/dev/null || ulimit -n "$(ulimit -Hn)" || true
say() { printf '== %s\n' "$*" >&2; }

# Python with websockets (bench/python.sh).
PYTHON=${PYTHON:-}
. bench/python.sh
bench_python websockets.asyncio.client
command -v taskset >/dev/null || { say "taskset (util-linux) is needed"; exit 2; }
SERVER_CPU=0
CLIENT_CPU=1
[ "$(nproc)" -lt 2 ] && CLIENT_CPU=0

say "building (release)"
[ -n "${BENCH_GESTUREPAD:-}" ] || scripts/build-release.sh gesturepad >&2
scripts/build-release.sh --bench gesturepad-loadgen >&2  # the bench package (bench/Package.swift)
GESTUREPAD=${BENCH_GESTUREPAD:-$(scripts/build-release.sh --bin-path)/gesturepad}
TOOLS=$(scripts/build-release.sh --bench --bin-path)

exec "$PYTHON" bench/soak.py run --bin "$GESTUREPAD" --loadgen "$TOOLS/gesturepad-loadgen" --out "$OUT" \
    --connections "${SOAK_CONNECTIONS:-200}" --rate "${SOAK_RATE:-120}" --minutes "${SOAK_MINUTES:-10}" \
    --verifiers "${SOAK_VERIFIERS:-4}" --hooks "${SOAK_HOOKS:-1}" --server-cpu "$SERVER_CPU" --client-cpu "$CLIENT_CPU" \
    --max-slope "${SOAK_MAX_SLOPE:-10}" --judge-minutes "${SOAK_JUDGE_MINUTES:-15}"
