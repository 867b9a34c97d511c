#!/usr/bin/env bash
# Configures and builds npusim into build/ (Release). Used by run-default.sh and test.sh.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$root" -B "$root/build" -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" >/dev/null
cmake --build "$root/build" -j"$(nproc)"
