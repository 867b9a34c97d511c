#!/usr/bin/env bash
# The whole test suite again, built with clang under AddressSanitizer and
# UndefinedBehaviorSanitizer (build-asan/). The [rss] tests are left out there:
# ASan's own memory makes resident-size checks meaningless (tests/CMakeLists.txt).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/build-sanitized.sh" npusim npusim_tests
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
cd "$root/build-asan" && ctest -j2 --output-on-failure "$@"
