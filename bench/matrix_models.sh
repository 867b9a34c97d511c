#!/usr/bin/env bash
# The two matrix-unit timing models side by side (issue 12, docs/fidelity.md): the tiny net
# (functional and timing) and ResNet-50 (timing) with --matrix-model fast and
# cycle-stepped. Prints wall time (median of 3), simulated cycles, simulated MACs per host
# second, the speed ratio and the whole-network cycle difference between the models.
# Timing runs step each conv shape once (repeated shapes reuse it); functional runs step
# every conv instruction with its tensors.
source "$(dirname "$0")/common.sh"

measure() {  # model workload [flags...] -> "median_s cycles macs"
  local model="$1" workload="$2" times=()
  shift 2
  for i in 1 2 3; do
    timed "$npusim" run --quiet --matrix-model "$model" --workload "$workload" --out "$work/run-$model" "$@"
  done
  python3 - "$work/run-$model/report.json" "${times[@]}" <<'PY'
import json, statistics, sys
r = json.load(open(sys.argv[1]))
macs = sum(row["macs"] for row in r["workload"]["rows"])
print(statistics.median(float(t) for t in sys.argv[2:]) / 1e6, r["total_cycles"], macs)
PY
}

printf "%-22s %-14s %10s %12s %16s\n" run model wall_s sim_cycles MACs_per_host_s
for run in "tiny timing" "tiny functional" "resnet50 timing" "resnet50 functional"; do
  read -r net mode <<< "$run"
  flags=()
  [ "$mode" = functional ] && flags=(--functional)
  declare -A wall cycles
  for model in fast cycle-stepped; do
    read -r s c m < <(measure "$model" "$root/traces/workloads/$net.json" "${flags[@]}")
    wall[$model]=$s
    cycles[$model]=$c
    printf "%-22s %-14s %10.3f %12d %16.3g\n" "$run" "$model" "$s" "$c" "$(python3 -c "print($m / max($s, 1e-3))")"
  done
  python3 -c "f, s = ${wall[fast]}, ${wall[cycle-stepped]}; cf, cs = ${cycles[fast]}, ${cycles[cycle-stepped]}
print(f'{\"\":22} cycle-stepped / fast wall time {s / max(f, 1e-3):.0f}x; fast cycles {100 * (cf - cs) / cs:+.2f} % against stepped')"
done
