#!/usr/bin/env bash
# Sparse-cluster benchmark (issue 10): compress + sparse_conv of a 56x56x64 -> 64, 3x3,
# pad 1 layer on configs/sparse.json at 0 / 50 / 90 % zeros (ifm and weights), timing
# mode. Prints simulated dense-equivalent and useful MACs per host second (median of 3).
source "$(dirname "$0")/common.sh"

printf "%-6s %9s %12s %12s %10s %16s %16s\n" zeros wall_s dense_MACs useful_MACs cycles dense_MACs/s useful_MACs/s
for zeros in 0.0 0.5 0.9; do
  python3 "$root/bench/make_sparse_layer_trace.py" "$work/layer.jsonl" "$zeros"
  times=()
  for i in 1 2 3; do
    timed "$npusim" run --quiet --config "$root/configs/sparse.json" --trace "$work/layer.jsonl" --out "$work/run"
  done
  python3 - "$work/run/report.json" "$zeros" "${times[@]}" <<'PY'
import json, statistics, sys
layer = json.load(open(sys.argv[1]))["sparse_layers"][0]
s = statistics.median(float(t) for t in sys.argv[3:]) / 1e6
d, u = layer["dense_macs"], layer["useful_macs"]
print(f"{sys.argv[2]:<6} {s:9.3f} {d:12d} {u:12d} {layer['cycles']:10d} {d / s:16.3e} {u / s:16.3e}")
PY
done
