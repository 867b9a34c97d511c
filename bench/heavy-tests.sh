#!/usr/bin/env bash
# Every test labelled heavy (over about 5 s each: whole networks in functional mode, random
# layers under every split and dependency mode, the mutation campaign, the Python explorer),
# which CI runs only as a sample (scripts/ctest-sample.sh). On the Release build; with
# --sanitized also on build-asan/ (scripts/build-sanitized.sh first). About 20 minutes on the
# 2-core machine in Release.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
"$root/scripts/build.sh"
(cd "$root/build" && ctest -j2 --output-on-failure --no-tests=error -L heavy -LE big)
if [ "${1:-}" = "--sanitized" ]; then
  "$root/scripts/build-sanitized.sh" npusim npusim_tests
  (cd "$root/build-asan" && ctest -j2 --output-on-failure --no-tests=error -L heavy -LE big)
fi
