#!/usr/bin/env bash
# Configures and builds the checking build into build-asan/: clang, AddressSanitizer
# and UndefinedBehaviorSanitizer, with the libFuzzer targets of tests/fuzz.
# Used by test-sanitized.sh and fuzz.sh (docs/reliability.md).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
launcher=()
# ccache with the checkout as its base directory: compile lines name files relative to the
# build folder, so a second checkout (a git worktree, a CI clone elsewhere) reuses the objects.
# The sloppiness lets it cache the test files that use the precompiled header (tests/CMakeLists.txt).
command -v ccache >/dev/null &&
  launcher=("-DCMAKE_CXX_COMPILER_LAUNCHER=env;CCACHE_BASEDIR=$root;CCACHE_NOHASHDIR=1;CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime;ccache")
# -O1 with line tables: readable sanitizer stacks at half the compile time of -O2 -g.
cmake -S "$root" -B "$root/build-asan" -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS="-O1 -gline-tables-only" \
  -DCMAKE_CXX_COMPILER=clang++ \
  -DNPUSIM_SANITIZE=ON -DNPUSIM_FUZZ=ON "${launcher[@]}" >/dev/null
targets=(npusim npusim_tests fuzz_config fuzz_trace fuzz_npy fuzz_workload fuzz_sweep_spec fuzz_onnx)
[ $# -gt 0 ] && targets=("$@")
cmake --build "$root/build-asan" -j"$(nproc)" --target "${targets[@]}"
