#!/usr/bin/env bash
# ctest in the current build folder as scripts/test.sh (and so CI) runs it: every test but
# those labelled big or heavy, then every fourth heavy test (each takes over about 5 s in
# Release on the 2-core machine). The sample is fixed by the test numbering, so a tree runs
# the same tests every time. bench/heavy-tests.sh runs every heavy test. Extra arguments
# (e.g. -R name) go to both ctest calls.
set -euo pipefail
ctest -j2 --output-on-failure --no-tests=error -LE 'big|heavy' "$@"
ctest -j2 --output-on-failure -L heavy -LE big -I ,,4 "$@"
