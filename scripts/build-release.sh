#!/usr/bin/env bash
# The tree's one release build configuration. `make run`, `make install`, `make deb`,
# `make bench` and `make soak` all build through here: SwiftPM keeps one build description
# per `.build/release`, so two sets of flags there would throw each other's build away (a
# built clone rebuilding for minutes at every switch). The Swift runtime is not in Debian:
# the shipped binary links it statically, and the benchmarks measure that binary. The
# benchmark tools are a package of their own (bench/Package.swift, built into bench/.build):
# the same flags, so the engine and protocol they measure are compiled as the app's are.
#   scripts/build-release.sh [PRODUCT…]           builds the app's products (default: gesturepad)
#   scripts/build-release.sh --bench [PRODUCT…]   builds the bench package's (default: all of them:
#                                                 gesturepad-bench, gesturepad-loadgen)
#   scripts/build-release.sh [--bench] --bin-path prints the folder of the built products
set -euo pipefail
cd "$(dirname "$0")/.."
# --no-export-dynamic: the static runtime's link arguments export every symbol of the program's
# own modules (-export-dynamic), 1.6 MB of symbol tables, and roots the linker's section GC in
# every public function of the dependencies; nothing looks symbols up at run time (issue 34).
# --icf=safe: gold folds functions whose code is identical and whose address nothing takes (the
# many identical generic specializations and thunks): 258 kB off the stripped binary, which
# had grown past issue 34's 25 MB by 2 kB with the key exchange and the desktop page.
flags=(-c release --static-swift-stdlib -Xlinker --no-export-dynamic -Xlinker --icf=safe)
products=(gesturepad)
if [[ "${1:-}" == "--bench" ]]; then
    shift
    flags+=(--package-path bench)
    products=(gesturepad-bench gesturepad-loadgen)
fi
if [[ "${1:-}" == "--bin-path" ]]; then
    exec swift build "${flags[@]}" --show-bin-path
fi
for product in "${@:-${products[@]}}"; do
    swift build "${flags[@]}" --product "$product"
done
