#!/usr/bin/env bash
# Fresh machine to first result: install what is missing, build, run the default simulation.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
cd "$root" && ./build/npusim run "$@"
