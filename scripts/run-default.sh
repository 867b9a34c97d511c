#!/usr/bin/env bash
# Fresh machine to first result: install what is missing, build, run the default simulation.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# Only what building and running npusim needs: the tests' tools come with scripts/test.sh.
"$root/scripts/setup.sh" run
"$root/scripts/build.sh" npusim
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
cd "$root" && ./build/npusim run "$@"
