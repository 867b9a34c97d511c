#!/usr/bin/env bash
# Compile time against workload size (issue 28): a chain of n relu layers on a 4x4x8
# map, compiled with `npusim compile` for n = 16k, 32k, 64k (more sizes as arguments:
# bench/compile_scaling.sh 16000 32000 64000 128000). Prints wall time, peak RSS and
# the time per layer; a linear compiler keeps microseconds per layer flat as n doubles.
source "$(dirname "$0")/common.sh"
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(16000 32000 64000)

printf "%10s %8s %10s %12s\n" layers wall_s peak_MiB us_per_layer
for n in "${sizes[@]}"; do
  python3 - "$n" "$work/relu.json" <<'PY'
import json, sys
n = int(sys.argv[1])
layers = [{"name": f"r{i}", "type": "relu"} for i in range(n)]
json.dump({"name": f"relu-chain-{n}", "input": {"h": 4, "w": 4, "c": 8}, "layers": layers}, open(sys.argv[2], "w"))
PY
  /usr/bin/time -f "%e %M" -o "$work/time" "$npusim" compile --workload "$work/relu.json" -o "$work/t.jsonl" >/dev/null
  read -r secs kib < "$work/time"
  printf "%10d %8.2f %10d %12.1f\n" "$n" "$secs" $((kib / 1024)) "$(python3 -c "print($secs * 1e6 / $n)")"
done
