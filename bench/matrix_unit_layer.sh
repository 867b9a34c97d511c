#!/usr/bin/env bash
# Matrix-unit benchmark (issue 3): one 56x56x64 -> 64, 3x3, pad 1 int8 layer on
# the default chip, run through the whole simulator (DMAs, buses, Wfold engine)
# in timing mode and in functional mode. Prints simulated MACs per host second,
# taking the median wall time of 5 runs of `npusim run`.
source "$(dirname "$0")/common.sh"
python3 "$root/bench/make_conv_layer_trace.py" "$work/layer.jsonl"

measure() {  # mode flag... -> prints "median_seconds macs cycles"
  local times=()
  for i in 1 2 3 4 5; do
    timed "$npusim" run --quiet "$@" --trace "$work/layer.jsonl" --out "$work/run"
  done
  python3 - "$work/run/report.json" "${times[@]}" <<'PY'
import json, statistics, sys
report = json.load(open(sys.argv[1]))
macs = sum(row["macs"] for row in report["instruction_rows"])
print(statistics.median(float(t) for t in sys.argv[2:]) / 1e6, macs, report["total_cycles"])
PY
}

printf "%-11s %12s %14s %12s %18s\n" mode wall_s useful_MACs sim_cycles MACs_per_host_s
for mode in timing functional; do
  flags=()
  [ "$mode" = functional ] && flags=(--functional)
  read -r seconds macs cycles < <(measure "${flags[@]}")
  rate=$(python3 -c "print(f'{$macs / $seconds:.3e}')")
  printf "%-11s %12.4f %14d %12d %18s\n" "$mode" "$seconds" "$macs" "$cycles" "$rate"
done
