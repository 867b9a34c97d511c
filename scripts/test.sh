#!/usr/bin/env bash
# Fresh machine to full test run: install what is missing, build, run every test.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
cd "$root/build" && ctest -j2 --output-on-failure "$@"
