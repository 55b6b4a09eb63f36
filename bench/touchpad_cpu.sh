#!/usr/bin/env bash
# The server's CPU in touchpad mode under load: `gesturepad serve --control touchpad` writing
# its touchpad into a FIFO (no /dev/uinput needed), pinned to CPU 0, while gesturepad-loadgen
# drives 200 touchpad connections at 120 Hz from CPU 1 for 10 s and reports the server's CPU
# (--pid) and its gesture round trips. One connection owns the touchpad; the others' touches
# are handed to the backend and ignored there, as on a real desktop.
#   bench/touchpad_cpu.sh GESTUREPAD LOADGEN   → the load generator's JSON line
set -euo pipefail
BIN=$1 LOADGEN=$2
ROOT=$(cd "$(dirname "$0")/.." && pwd)
DIR=$(mktemp -d)
cd "$ROOT"  # the load generator reads its traces from Tests/Fixtures
trap 'kill "$SERVER" "$READER" 2>/dev/null || true; rm -rf "$DIR"' EXIT
mkfifo "$DIR/touchpad"
cat "$DIR/touchpad" > /dev/null &
READER=$!
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
PIN_SERVER=() PIN_CLIENT=()
if command -v taskset > /dev/null && [ "$(nproc)" -ge 2 ]; then PIN_SERVER=(taskset -c 0) PIN_CLIENT=(taskset -c 1); fi
XDG_STATE_HOME=$DIR "${PIN_SERVER[@]}" "$BIN" serve --host 127.0.0.1 --port "$PORT" --no-auth --no-qr --quiet \
    --public "$ROOT/Public" --control touchpad --test-touchpad-output "$DIR/touchpad" --max-rate 1000000 \
    --max-connections 1100 > /dev/null 2> "$DIR/server.log" &
SERVER=$!
for _ in $(seq 100); do
    (exec 3<> "/dev/tcp/127.0.0.1/$PORT") 2> /dev/null && break
    sleep 0.05
done
"${PIN_CLIENT[@]}" "$LOADGEN" --port "$PORT" --server gesture --connections 200 --rate 120 --seconds 10 --warmup 2 \
    --pid "$SERVER"
