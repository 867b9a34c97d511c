#!/usr/bin/env bash
# Whole-network benchmark (issue 5): the default run (ResNet-50, batch 1, timing mode,
# configs/default.json), MobileNetV2 and VGG-16, each compiled on the fly by
# `npusim run --workload`. Prints the median wall time of 3 runs, useful MACs,
# simulated cycles, simulated MACs per host second and peak RSS; then peak RSS of
# ResNet-50 at batch 1 vs batch 10 (memory must stay flat in trace length).
source "$(dirname "$0")/common.sh"

measure() {  # workload.json -> "median_s macs cycles instructions peak_rss_kib"
  local times=() rss=0
  for i in 1 2 3; do
    /usr/bin/time -f "%e %M" -o "$work/time" "$npusim" run --quiet --workload "$1" --out "$work/run"
    read -r t m < "$work/time"
    times+=("$t")
    rss=$(( m > rss ? m : rss ))
  done
  python3 - "$work/run/report.json" "$rss" "${times[@]}" <<'PY'
import json, statistics, sys
r = json.load(open(sys.argv[1]))
macs = sum(row["macs"] for row in r["workload"]["rows"])
print(statistics.median(float(t) for t in sys.argv[3:]), macs, r["total_cycles"],
      sum(row["instructions"] for row in r["workload"]["rows"]), sys.argv[2])
PY
}

printf "%-16s %8s %14s %12s %8s %16s %10s\n" workload wall_s useful_MACs sim_cycles instrs MACs_per_host_s peak_KiB
for net in resnet50 mobilenetv2 vgg16; do
  read -r secs macs cycles instrs rss < <(measure "$root/traces/workloads/$net.json")
  printf "%-16s %8.2f %14d %12d %8d %16.3g %10d\n" "$net" "$secs" "$macs" "$cycles" "$instrs" \
    "$(python3 -c "print($macs / max($secs, 1e-3))")" "$rss"
done
# Batch 10: the same network, ten times the instructions.
python3 - "$root/traces/workloads/resnet50.json" "$work/resnet50-b10.json" <<'PY'
import json, sys
w = json.load(open(sys.argv[1])); w["batch"] = 10
json.dump(w, open(sys.argv[2], "w"))
PY
read -r secs macs cycles instrs rss10 < <(measure "$work/resnet50-b10.json")
printf "%-16s %8.2f %14d %12d %8d %16.3g %10d\n" "resnet50-b10" "$secs" "$macs" "$cycles" "$instrs" \
  "$(python3 -c "print($macs / max($secs, 1e-3))")" "$rss10"
