#!/usr/bin/env bash
# Host speed of every bundled workload (issue 36), two npusim binaries side by side:
# simulated useful MACs per host second of BASELINE and of the npusim under test, each the
# median of RUNS (default 3) runs taken in turn (A B A B ...), so a machine whose speed
# drifts moves both alike. Host seconds are CPU seconds (user + system): on a shared
# machine the wall clock also counts the time other processes held the cores. Timing mode, configs/default.json with
# /chip/dram/capacity_bytes = 64 GiB (the 7B prefill needs about 20.6 GB); CONFIG=smp-4x4
# for another shipped config. WORKLOADS= narrows the list (file names, e.g. "tiny.json vgg16.json").
#   BASELINE=/path/to/old/npusim bench/llm_speed.sh
source "$(dirname "$0")/common.sh"
baseline="${BASELINE:?set BASELINE to the npusim binary to compare against}"
runs="${RUNS:-3}"
cfg="${CONFIG:-default}"
printf '{"extends": "%s", "chip": {"dram": {"capacity_bytes": 68719476736}}}' "$root/configs/$cfg.json" > "$work/cfg.json"
list="${WORKLOADS:-$(cd "$root/traces/workloads" && ls *.json *.csv)}"

# CPU seconds of one quiet run of binary $1 on workload $2; the report stays in $work/run.
cpu_seconds() {
  /usr/bin/time -f "%U %S" -o "$work/time" "$1" run --quiet --workload "$root/traces/workloads/$2" \
    --config "$work/cfg.json" --out "$work/run"
  awk '{print $1 + $2}' "$work/time"
}
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }

printf "%-20s %16s %10s %10s %14s %14s %8s\n" workload useful_MACs before_cpu_s after_cpu_s MACs/s_before MACs/s_after speedup
for net in $list; do
  before=() after=()
  for ((i = 0; i < runs; ++i)); do
    before+=("$(cpu_seconds "$baseline" "$net")")
    after+=("$(cpu_seconds "$npusim" "$net")")
  done
  /usr/bin/python3 - "$work/run/report.json" "$net" "$(median "${before[@]}")" "$(median "${after[@]}")" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
macs = sum(x["macs"] for x in r["workload"]["rows"])
b, a = max(float(sys.argv[3]), 1e-3), max(float(sys.argv[4]), 1e-3)
print(f"{sys.argv[2]:<20} {macs:16d} {b:10.2f} {a:10.2f} {macs / b:14.3g} {macs / a:14.3g} {b / a:8.2f}")
PY
done
