#!/usr/bin/env bash
# The 70B-shaped LLM (issue 36) on configs/smp-8x8.json (64 cores, 256 GiB DRAM), timing mode,
# default rows (per-layer only: both runs are far above the 200,000-instruction row limit).
# Prints wall and CPU seconds, peak RSS, simulated cycles, instructions and useful MACs per
# host second (CPU). LAYERS=N runs only the first N of the 80 blocks (identical blocks: the
# cost per block times 80 estimates the whole model on a machine too busy for it);
# WHICH="prefill decode" picks the workloads.
source "$(dirname "$0")/common.sh"
layers="${LAYERS:-80}"

printf "%-16s %6s %9s %9s %9s %14s %10s %16s %12s\n" workload blocks wall_s cpu_s rss_MB sim_cycles instrs useful_MACs MACs_per_cpu_s
for which in ${WHICH:-prefill decode}; do
  workload="$root/traces/workloads/llm-70b-$which.json"
  if [[ $layers != 80 ]]; then  # blocks are named l<i>.*
    python3 - "$workload" "$layers" "$work/w.json" <<'PY'
import json, sys
w = json.load(open(sys.argv[1]))
w["layers"] = [l for l in w["layers"] if int(l["name"].split(".")[0][1:]) < int(sys.argv[2])]
json.dump(w, open(sys.argv[3], "w"))
PY
    workload="$work/w.json"
  fi
  /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$npusim" run --quiet --workload "$workload" \
    --config "$root/configs/smp-8x8.json" --out "$work/run"
  python3 - "$work/run/report.json" "$(cat "$work/time")" "$which" "$layers" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
wall, user, system, rss = (float(x) for x in sys.argv[2].split())
macs = r["energy"]["macs"]
print(f"llm-70b-{sys.argv[3]:<8} {sys.argv[4]:>6} {wall:9.1f} {user + system:9.1f} {rss / 1024:9.0f} {r['total_cycles']:14d} "
      f"{r['instructions']:10d} {macs:16d} {macs / max(user + system, 1e-3):12.3g}")
PY
  rm -rf "$work/run"
done
