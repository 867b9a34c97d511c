#!/usr/bin/env bash
# Pruned network end to end (issue 10): traces/workloads/resnet50-pruned.json on
# configs/sparse.json in timing mode, against dense ResNet-50 on the same chip. Prints
# wall time, simulated cycles, dense-equivalent and useful MACs per host second, and
# how many layers each engine ran. One run each: the pruned one takes tens of seconds.
source "$(dirname "$0")/common.sh"

printf "%-16s %8s %12s %14s %14s %14s %14s  %s\n" workload wall_s cycles dense_MACs useful_MACs \
  dense_MACs/s useful_MACs/s layers_by_engine
for net in resnet50 resnet50-pruned; do
  /usr/bin/time -f "%e" -o "$work/time" "$npusim" run --quiet --config "$root/configs/sparse.json" \
    --workload "$root/traces/workloads/$net.json" --out "$work/$net"
  python3 - "$work/$net/report.json" "$(cat "$work/time")" "$net" <<'PY'
import collections, json, sys
r = json.load(open(sys.argv[1]))
secs, rows = float(sys.argv[2]), r["workload"]["rows"]
dense = sum(row["macs"] for row in rows)
useful = sum(row["sparse"]["useful_macs"] if row["engine"] == "sparse" else row["macs"] for row in rows)
engines = collections.Counter(row["engine"] for row in rows if row["kind"] in ("conv", "fc"))
print(f"{sys.argv[3]:<16} {secs:8.2f} {r['total_cycles']:12d} {dense:14d} {useful:14d} {dense / secs:14.3e} "
      f"{useful / secs:14.3e}  {dict(sorted(engines.items()))}")
PY
done
