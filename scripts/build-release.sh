#!/usr/bin/env bash
# The tree's one release build configuration. `make run`, `make install`, `make deb`,
# `make bench` and `make soak` all build through here: SwiftPM keeps one build description
# per `.build/release`, so two sets of flags there would throw each other's build away (a
# built clone rebuilding for minutes at every switch). The Swift runtime is not in Debian:
# the shipped binary links it statically, and the benchmarks measure that binary.
#   scripts/build-release.sh [PRODUCT…]   builds the products (default: gesturepad)
#   scripts/build-release.sh --bin-path   prints the folder of the built products
set -euo pipefail
cd "$(dirname "$0")/.."
flags=(-c release --static-swift-stdlib)
if [[ "${1:-}" == "--bin-path" ]]; then
    exec swift build "${flags[@]}" --show-bin-path
fi
for product in "${@:-gesturepad}"; do
    swift build "${flags[@]}" --product "$product"
done
