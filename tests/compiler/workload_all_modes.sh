#!/usr/bin/env bash
# Issue 28: a bundled workload runs (timing mode) under every dependency mode on a
# shipped chip: the compiler's dependencies hold whatever the mode, with the hazard
# checker watching every run. Registered per workload in tests/CMakeLists.txt, label
# all_modes; the small workloads are checked in the suite by
# tests/compiler/test_workload_dependency_modes.cpp.
#   workload_all_modes.sh path/to/npusim traces/workloads/x.json configs/default.json
set -uo pipefail
npusim="$1" workload="$2" config="$3"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
status=0
for mode in as_traced full two_phase staged; do
  start=$(date +%s)
  if "$npusim" run --quiet --workload "$workload" --config "$config" --dependency-mode "$mode" \
       --out "$work/$mode" > "$work/log" 2>&1; then
    echo "$(basename "$workload") --dependency-mode $mode: ok in $(( $(date +%s) - start )) s"
  else
    echo "$(basename "$workload") --dependency-mode $mode: FAILED"; cat "$work/log"; status=1
  fi
  rm -rf "$work/$mode"
done
exit $status
