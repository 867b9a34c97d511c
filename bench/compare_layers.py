#!/usr/bin/env python3
"""Per-layer cycles and MAC utilization of one network under several simulator setups.

Each setup is LABEL=NPUSIM[,CONFIG]: a binary and, optionally, a hardware config (default:
the binary's configs/default.json). Prints a markdown table per network, one row per layer,
then a summary by layer group (1x1 conv, other conv, fc, vector layers).

    bench/compare_layers.py --workload traces/workloads/resnet50.json \
        before=/old/npusim after=build/npusim
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile


def run(npusim, config, workload, out):
    cmd = [npusim, "run", "--quiet", "--workload", workload, "--out", out]
    if config:
        cmd += ["--config", config]
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    subprocess.run(cmd, check=True, env=env)
    with open(os.path.join(out, "report.json")) as f:
        return json.load(f)


def group_of(row, shapes):
    if row["kind"] == "fc":
        return "fc"
    if row["kind"] != "conv":
        return "vector layers"
    return "1x1 conv" if shapes.get(row["name"]) == (1, 1) else "kxk conv"


def kernel_shapes(workload):
    with open(workload) as f:
        w = json.load(f)
    shapes = {}
    for layer in w.get("layers", []):
        k = layer.get("k", 1)
        shapes[layer.get("name")] = (layer.get("kh", k), layer.get("kw", k))
    return shapes


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workload", required=True)
    ap.add_argument("--layers", action="store_true", help="print the per-layer table too")
    ap.add_argument("setups", nargs="+", help="LABEL=NPUSIM[,CONFIG]")
    args = ap.parse_args()
    labels, reports = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for i, setup in enumerate(args.setups):
            label, _, rest = setup.partition("=")
            npusim, _, config = rest.partition(",")
            labels.append(label)
            reports.append(run(npusim, config, args.workload, os.path.join(tmp, f"run{i}")))
    shapes = kernel_shapes(args.workload)
    rows = [r["workload"]["rows"] for r in reports]
    name = os.path.basename(args.workload)
    print(f"\n### {name}\n")
    header = "| | " + " | ".join(f"{l} cycles" for l in labels) + " | " + " | ".join(f"{l} MAC util" for l in labels) + " |"
    print(header)
    print("|" + "---|" * (1 + 2 * len(labels)))
    totals = [r["total_cycles"] for r in reports]
    macs = sum(r["macs"] for r in rows[0])
    peak = reports[0]["workload"]["peak_macs_per_cycle"]
    print("| **whole network** | " + " | ".join(f"{t:,}" for t in totals) + " | " +
          " | ".join(f"{macs / (t * peak):.1%}" for t in totals) + " |")
    groups = {}
    for i, row in enumerate(rows[0]):
        g = groups.setdefault(group_of(row, shapes), [[0] * len(labels), 0, 0])
        for s in range(len(labels)):
            g[0][s] += rows[s][i]["cycles"]
        g[1] += row["macs"]
        g[2] += 1
    for g, (cycles, m, count) in sorted(groups.items()):
        print(f"| {g} ({count} layers) | " + " | ".join(f"{c:,}" for c in cycles) + " | " +
              " | ".join(f"{m / (c * peak):.1%}" if c else "-" for c in cycles) + " |")
    if args.layers:
        print("\n| layer | kind | " + " | ".join(f"{l} cycles" for l in labels) + " | " +
              " | ".join(f"{l} util" for l in labels) + " |")
        print("|" + "---|" * (2 + 2 * len(labels)))
        for i, row in enumerate(rows[0]):
            cyc = [rows[s][i]["cycles"] for s in range(len(labels))]
            util = [rows[s][i]["mac_utilization"] for s in range(len(labels))]
            print(f"| {row['name']} | {group_of(row, shapes)} | " + " | ".join(f"{c:,}" for c in cyc) + " | " +
                  " | ".join(f"{u:.1%}" for u in util) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
