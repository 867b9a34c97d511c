# Sourced by the bench scripts: strict mode, the repository root, the npusim under test
# (NPUSIM, default build/npusim), a scratch folder $work removed on exit, and no SystemC
# banner among the figures.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
npusim="${NPUSIM:-$root/build/npusim}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1

# Runs a command and appends its wall time in microseconds to the caller's array `times`.
timed() {
  local t0 t1
  t0=$(date +%s%N)
  "$@"
  t1=$(date +%s%N)
  times+=("$(( (t1 - t0) / 1000 ))")
}
