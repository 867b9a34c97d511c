#!/usr/bin/env bash
# The test suite again (heavy tests as a sample: scripts/ctest-sample.sh), built with clang under AddressSanitizer and
# UndefinedBehaviorSanitizer (build-asan/). The [rss] tests are left out there (ASan's
# own memory makes resident-size checks meaningless), and so are the [slow] whole-network
# functional runs, which the smaller cases of their files cover (tests/CMakeLists.txt).
#
# ASan writes its reports to build-asan/asan-reports/ instead of stderr: SystemC
# runs processes on QuickThreads stacks ASan cannot see, so every exception thrown
# in a process prints a one-time "ignoring __asan_handle_no_return" warning, which
# would break the tests that check npusim prints exactly one line
# (docs/reliability.md). A real ASan error still makes the process fail its test,
# and this script prints every report that holds one.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/build-sanitized.sh" npusim npusim_tests
reports="$root/build-asan/asan-reports"
rm -rf "$reports" && mkdir -p "$reports"
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
export ASAN_OPTIONS="log_path=$reports/asan"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
status=0
(cd "$root/build-asan" && "$root/scripts/ctest-sample.sh" "$@") || status=$?
if grep -lq "ERROR: " "$reports"/* 2>/dev/null; then
  for f in $(grep -l "ERROR: " "$reports"/*); do echo "== $f"; cat "$f"; done
  status=1
fi
exit $status
