#!/usr/bin/env bash
# Fresh machine to full test run: install what is missing, build, then run
#   1. the tests on the Release build (ctest -j2; the heavy ones as a sample);
#   2. the same again under AddressSanitizer + UndefinedBehaviorSanitizer;
#   3. each input reader's fuzz target for 20 s, after replaying its regressions.
# `scripts/test.sh --release` stops after step 1 (a quick check while developing).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
release_only=0
if [ "${1:-}" = "--release" ]; then release_only=1; shift; fi
"$root/scripts/setup.sh" run python test
"$root/scripts/build.sh"
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
# The tests labelled big (the 7B workloads under every dependency mode, minutes) are left
# out here and under the sanitizers: `ctest -L big` runs them. Of those labelled heavy (each
# over about 5 s) every fourth runs here; bench/heavy-tests.sh runs them all.
(cd "$root/build" && "$root/scripts/ctest-sample.sh" "$@")
[ $release_only -eq 1 ] && exit 0
echo "== the same tests under AddressSanitizer and UndefinedBehaviorSanitizer =="
"$root/scripts/test-sanitized.sh" "$@"
echo "== fuzzing every input reader (20 s each; six targets) =="
"$root/scripts/fuzz.sh" "${NPUSIM_FUZZ_SECONDS:-20}"
