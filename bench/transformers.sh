#!/usr/bin/env bash
# Transformer workloads (issue 17) in timing mode: BERT-base seq 512, ViT-B/16, and the
# 7B-shaped LLM prefill (2,048 tokens) and decode step (2,048-token KV cache), on
# configs/default.json and configs/smp-4x4.json. Prints wall time, useful MACs,
# simulated cycles, instructions and simulated MACs per host second. Every tensor has
# its own DRAM region (no reuse), so the prefill needs about 20.6 GB: both configs get
# /chip/dram/capacity_bytes = 64 GiB.
source "$(dirname "$0")/common.sh"

printf "%-18s %-10s %8s %16s %14s %9s %14s\n" workload config wall_s useful_MACs sim_cycles instrs MACs_per_host_s
for cfg in default smp-4x4; do
  printf '{"extends": "%s", "chip": {"dram": {"capacity_bytes": 68719476736}}}' "$root/configs/$cfg.json" > "$work/$cfg.json"
  for net in bert-base-seq512 vit-b16 llm-7b-prefill llm-7b-decode; do
    /usr/bin/time -f "%e" -o "$work/time" "$npusim" run --quiet --workload "$root/traces/workloads/$net.json" \
      --config "$work/$cfg.json" --out "$work/run"
    python3 - "$work/run/report.json" "$(cat "$work/time")" "$net" "$cfg" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
rows = r["workload"]["rows"]
macs, secs = sum(x["macs"] for x in rows), float(sys.argv[2])
print(f"{sys.argv[3]:<18} {sys.argv[4]:<10} {secs:8.2f} {macs:16d} {r['total_cycles']:14d} {r['instructions']:9d} "
      f"{macs / max(secs, 1e-3):14.3g}")
PY
  done
done
