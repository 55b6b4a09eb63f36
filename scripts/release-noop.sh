#!/usr/bin/env bash
# `make release-noop` (in `make test`): right after `make bench`'s build, `make run`'s build
# step must do nothing — no compile, no link, the binary untouched — so a built clone starts
# in seconds whatever ran before (both build through scripts/build-release.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
binary=.build/release/gesturepad
bench/run.sh --build-only
before=$(stat -c %.9Y "$binary")
start=$EPOCHREALTIME
log=$(mktemp)
trap 'rm -f "$log"' EXIT
make --no-print-directory release >"$log" 2>&1 || { cat "$log"; exit 1; }
seconds=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
after=$(stat -c %.9Y "$binary")
if grep -E '(Compiling|Linking) ' "$log" >/dev/null || [ "$before" != "$after" ]; then
    cat "$log"
    echo "release-noop: make run's build step rebuilt after make bench's build (see above)" >&2
    exit 1
fi
echo "release-noop: make run's build step after make bench's: nothing rebuilt ($seconds s)"
