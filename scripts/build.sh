#!/usr/bin/env bash
# Configures and builds npusim into build/ (Release). Used by run-default.sh and test.sh.
# With target names (scripts/build.sh npusim) it builds only those; without, everything,
# tests included.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$root" -B "$root/build" -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" >/dev/null
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build "$root/build" -j"$(nproc)" "${targets[@]}"
