#!/usr/bin/env bash
# Issue 31: pruned ResNet-50 on configs/sparse.json with the compute interconnect 920 none,
# 2x2 and benes, and with the weight memory's refills charged (single, double). One timing
# run each. Prints simulated cycles, host seconds, input non-zeros the FM memory units
# loaded, border partial-sum bytes and passes over 920, DRAM bytes and weight refill stalls.
source "$(dirname "$0")/common.sh"
cases=("$@")
[ $# -gt 0 ] || cases=(none:uncharged 2x2:uncharged benes:uncharged none:single none:double)
printf "%-8s %-10s %8s %12s %14s %14s %10s %10s %14s %12s\n" link refill wall_s cycles fm_value_bytes \
  border_bytes passes conflicts dram_bytes refill_stall
for c in "${cases[@]}"; do
  link=${c%%:*} refill=${c##*:}
  cat > "$work/c.json" <<JSON
{"extends": "$root/configs/sparse.json", "core": {"sparse": {"compute_interconnect": "$link", "weight_refill": "$refill"}}}
JSON
  /usr/bin/time -f "%e" -o "$work/time" "$npusim" run --quiet --config "$work/c.json" \
    --workload "$root/traces/workloads/resnet50-pruned.json" --out "$work/run"
  python3 - "$work/run/report.json" "$(cat "$work/time")" "$link" "$refill" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
stats = r["stats"]
def total(suffix, key):
    return sum(v.get(key, 0) for k, v in stats.items() if k.split(".")[-1].startswith(suffix))
net = stats.get("core0.sparse.compute_interconnect", {})
dram = sum(ch["bytes_read"] + ch["bytes_written"] for ch in r["dram_channels"])
print(f"{sys.argv[3]:<8} {sys.argv[4]:<10} {float(sys.argv[2]):8.2f} {r['total_cycles']:12d} "
      f"{total('fm_memory', 'value_bytes'):14d} {net.get('border_bytes', 0):14d} {net.get('passes', 0):10d} "
      f"{net.get('conflicts', 0):10d} {dram:14d} {stats['core0.sparse.weight_memory'].get('weight_refill_stall', 0):12d}")
PY
done
