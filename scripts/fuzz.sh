#!/usr/bin/env bash
# Builds the libFuzzer targets (Fuzz/) and runs each for a while (docs/testing.md).
#
#   scripts/fuzz.sh [--seconds N] [--fresh] [TARGET...]
#
#   --seconds N   run each target N seconds (default: $FUZZ_SECONDS, else 60)
#   --fresh       start each target's working corpus empty (what `make fuzz-smoke` does, so a
#                 run is reproducible); without it the working corpus grows from run to run
#   TARGET        FuzzProtocol, FuzzEngine, FuzzControl, FuzzConfig (default: all four)
#
# Environment: FUZZ_SEED (libFuzzer -seed, default 1), FUZZ_TIMEOUT (seconds one input may
# take before it counts as a hang, default 20), FUZZ_FLAGS (more libFuzzer flags).
#
# Each target starts from its committed corpus (Fuzz/Corpus/TARGET, read only), the inputs of
# crashes found before (Fuzz/Regressions/TARGET, replayed first) and its working corpus
# (artifacts/fuzz/TARGET/corpus, where new inputs go). A crash, a hang, a leak or an input
# over the memory limit stops the target, leaves the input in artifacts/fuzz/TARGET/crashes/
# and makes the script exit 1 after the other targets ran. Logs: artifacts/fuzz/TARGET.log.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${FUZZ_SECONDS:-60}"
fresh=0
targets=()
while (($#)); do
    case "$1" in
        --seconds) seconds="$2"; shift 2 ;;
        --fresh) fresh=1; shift ;;
        -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
        *) targets+=("$1"); shift ;;
    esac
done
((${#targets[@]})) || targets=(FuzzProtocol FuzzEngine FuzzControl FuzzConfig)
seed="${FUZZ_SEED:-1}"
timeout="${FUZZ_TIMEOUT:-20}"

# The fuzz targets exist in the manifest only with GESTUREPAD_FUZZ set, and build in their
# own scratch path: the normal .build never sees the fuzzer flags. -sanitize=fuzzer adds
# the coverage instrumentation and links libFuzzer; address adds AddressSanitizer (and
# LeakSanitizer). The C code built in the tree (BoringSSL) gets the same; libyaml is the
# system's, uninstrumented.
export GESTUREPAD_FUZZ=1
build_flags=(-c release --scratch-path .build-fuzz
    -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link,address)
build_start=$(date +%s)
for target in "${targets[@]}"; do
    echo "fuzz: building $target"
    swift build "${build_flags[@]}" --product "$target" 2>&1 | grep -v "Cannot export local symbol '__asan_extra_spill_area'" || {
        echo "fuzz: building $target failed" >&2
        exit 1
    }
done
bin="$(swift build "${build_flags[@]}" --show-bin-path)"
echo "fuzz: built in $(($(date +%s) - build_start)) s"

# libFuzzer catches the crash itself: the Swift runtime's backtracer would only slow it.
export SWIFT_BACKTRACE=enable=no
failed=()
summary=()
for target in "${targets[@]}"; do
    work="artifacts/fuzz/$target"
    if ((fresh)); then rm -rf "$work/corpus"; fi
    mkdir -p "$work/corpus" "$work/crashes"
    inputs=("$work/corpus" "Fuzz/Corpus/$target")
    [[ -d "Fuzz/Regressions/$target" ]] && inputs+=("Fuzz/Regressions/$target")
    dict=()
    [[ -f "Fuzz/Dictionaries/$target.dict" ]] && dict=(-dict="Fuzz/Dictionaries/$target.dict")
    echo "fuzz: $target for $seconds s (seed $seed)"
    status=0
    "$bin/$target" -seed="$seed" -max_total_time="$seconds" -timeout="$timeout" -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$work/crashes/" "${dict[@]}" ${FUZZ_FLAGS:-} \
        "${inputs[@]}" >"$work.log" 2>&1 || status=$?
    line=$(grep -E '^#[0-9]+.*(DONE|cov:)' "$work.log" | tail -1 || true)
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work.log")
    speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work.log")
    cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$line")
    ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$line")
    if ((status)); then
        failed+=("$target")
        crash=$(grep -o "Test unit written to .*" "$work.log" | tail -1 | sed 's/Test unit written to //')
        grep -m1 -E "invariant broken|Fatal error|ERROR: (libFuzzer|AddressSanitizer|LeakSanitizer)" "$work.log" | sed 's/^/fuzz:   /' || true
        echo "fuzz: $target FAILED (exit $status): input ${crash:-not written}; log $work.log"
        echo "fuzz:   reproduce: GESTUREPAD_FUZZ=1 swift build ${build_flags[*]} --product $target && SWIFT_BACKTRACE=enable=no $bin/$target ${crash:-CRASH_FILE}"
        summary+=("$(printf '%-13s %8s %8s %6s %7s  FAILED' "$target" "${runs:-?}" "${speed:-?}" "${cov:-?}" "${ft:-?}")")
    else
        summary+=("$(printf '%-13s %8s %8s %6s %7s  ok' "$target" "${runs:-?}" "${speed:-?}" "${cov:-?}" "${ft:-?}")")
    fi
done

printf '%-13s %8s %8s %6s %7s  %s\n' target execs exec/s cov ft result
printf '%s\n' "${summary[@]}"
if ((${#failed[@]})); then
    echo "fuzz: ${failed[*]} failed; the inputs are in artifacts/fuzz/*/crashes/ (docs/testing.md: turn each into a regression test)" >&2
    exit 1
fi
