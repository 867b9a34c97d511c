#!/usr/bin/env bash
# The GPU-style shader core against the Wfold chip (issues 11 and 47): ResNet-50, MobileNetV2
# and VGG-16 in timing mode on configs/default.json, on configs/gpu-shader.json (fetch-path
# cache, preload and auto-fetch on) and on the same chip without the cache, preload or
# auto-fetch (the issue-11 state machine). Prints cycles, MAC utilization, DRAM bytes (the
# channels' reads and writes), the fetch path's cache hits, misses and the bytes it saved, and the
# shader program's instruction slots. One run each.
source "$(dirname "$0")/common.sh"

cat > "$work/no-cache.json" <<JSON
{"extends": "$root/configs/gpu-shader.json",
 "core": {"fetch_ml": {"cache_bytes": 0, "preload": false, "auto_fetch": false}}}
JSON

python3 - "$root" "$work" "$npusim" <<'PY'
import json, subprocess, sys
root, work, npusim = sys.argv[1:]
chips = [("default (Wfold)", f"{root}/configs/default.json"), ("gpu-shader", f"{root}/configs/gpu-shader.json"),
         ("gpu-shader, no cache", f"{work}/no-cache.json")]
print("| Network | Chip | Cycles | MAC utilization | DRAM bytes | cache hits / misses (lines) | bytes saved | "
      "instruction slots |")
print("|---|---|---:|---:|---:|---:|---:|---:|")
for net in ("resnet50", "mobilenetv2", "vgg16"):
    for name, config in chips:
        out = f"{work}/{net}-{name.split()[0]}-{len(name)}"
        subprocess.run([npusim, "run", "-q", "-c", config, "-w", f"{root}/traces/workloads/{net}.json", "--out", out],
                       check=True)
        r = json.load(open(f"{out}/report.json"))
        rows = r["workload"]["rows"]
        dram = sum(ch["bytes_read"] + ch["bytes_written"] for ch in r["dram_channels"])
        macs = sum(row["macs"] for row in rows)
        peak = r["workload"].get("peak_macs_per_cycle") or 0
        util = f"{100 * macs / (r['total_cycles'] * peak):.1f}%" if peak else "-"
        cache = [row["shader"]["cache"] for row in rows if "shader" in row and "cache" in row["shader"]]
        hits, misses = sum(c["hits"] for c in cache), sum(c["misses"] for c in cache)
        saved = sum(c["bytes_saved"] for c in cache)
        slots = sum(row["shader"]["instruction_slots"] if "shader" in row else row["instructions"] for row in rows)
        cache_text = f"{hits:,} / {misses:,}" if cache else "-"
        print(f"| {net} | {name} | {r['total_cycles']:,} | {util} | {dram:,} | {cache_text} | "
              f"{saved:,} | {slots:,} |", flush=True)
PY
