#!/usr/bin/env bash
# Issue 28: compile time was quadratic in layers (16k relu layers 1.5 s, 32k 5.7 s, 10^6
# never finished). A chain of 200,000 relu layers must compile within the ctest TIMEOUT
# set in tests/CMakeLists.txt (60 s; about 8 s on a 2-core VM when linear, minutes when
# quadratic) into a trace of one load, relu and store per layer.
#   compile_200k_layers.sh path/to/npusim
set -euo pipefail
npusim="$1"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
layers=200000
python3 - "$layers" "$work/relu.json" <<'PY'
import json, sys
n = int(sys.argv[1])
layers = [{"name": f"r{i}", "type": "relu"} for i in range(n)]
json.dump({"name": "relu-chain", "input": {"h": 4, "w": 4, "c": 8}, "layers": layers}, open(sys.argv[2], "w"))
PY
"$npusim" compile --workload "$work/relu.json" -o "$work/t.jsonl" > "$work/summary"
grep -q "relu.json: $layers layers, batch 1, $((3 * layers)) instructions" "$work/summary" || {
  head -1 "$work/summary"; echo "expected $layers layers and $((3 * layers)) instructions"; exit 1; }
# header line plus one line per instruction
test "$(wc -l < "$work/t.jsonl")" -eq $((3 * layers + 1))
