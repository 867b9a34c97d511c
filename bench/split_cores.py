#!/usr/bin/python3
"""Multi-core work splitting (issue 13, seed002): ResNet-50, VGG-16 and MobileNetV2 on
1, 4 and 16 cores, SMP against NUMA, data parallel only against the compiler's choice
per layer (--split auto). Prints markdown tables for bench/RESULTS.md:

    bench/split_cores.py [--npusim build/npusim]

1. cycles, speed-up over one core, exchange bytes per level, DRAM bytes local/remote;
2. per layer, where model parallelism wins: cycles of the late layers and the fc layer
   with --split data and with --split auto on the 16-core SMP chip.
Timing mode; each run's report.json is read back.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NETWORKS = [("ResNet-50", "resnet50"), ("VGG-16", "vgg16"), ("MobileNetV2", "mobilenetv2")]
# (label, config, splits): the cache variants show the exchange through the caches.
CHIPS = [("1 core", "default", ["auto"]), ("4 SMP", "smp-2x2", ["data", "auto"]),
         ("4 NUMA", "numa-2x2", ["data", "auto"]), ("4 SMP + caches", "smp-2x2-cache", ["auto"]),
         ("16 SMP", "smp-4x4", ["data", "auto"]), ("16 NUMA", "numa-4x4", ["data", "auto"]),
         ("16 NUMA + caches", "numa-4x4-cache", ["auto"])]
LEVELS = ["nram", "cluster_cache", "remote_cache", "dram"]


def run(npusim, work, network, config, split):
    out = os.path.join(work, f"{network}-{config}-{split}")
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    subprocess.run([npusim, "run", "--quiet", "--workload", f"{ROOT}/traces/workloads/{network}.json",
                    "--config", f"{ROOT}/configs/{config}.json", "--split", split, "--out", out],
                   check=True, env=env)
    with open(os.path.join(out, "report.json")) as f:
        return json.load(f)


def mib(b):
    return f"{b / 2**20:.1f}"


def kib(b):
    return f"{b / 2**10:,.0f}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--npusim", default=os.path.join(ROOT, "build", "npusim"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        print("| network | chip | split | cycles | speed-up | modes (data/co/ci) | exchange KiB: nram / cache / remote cache / dram | DRAM MiB local / remote |")
        print("|---|---|---|---|---|---|---|---|")
        reports = {}
        for title, network in NETWORKS:
            base = None
            for chip, config, splits in CHIPS:
                for split in splits:
                    r = run(args.npusim, work, network, config, split)
                    reports[(network, config, split)] = r
                    rows = r["workload"]["rows"]
                    cycles = r["total_cycles"]
                    base = base or cycles
                    modes = [sum(row["split"]["mode"] == m for row in rows) for m in ("data", "model-co", "model-ci")]
                    ex = [sum(row["split"]["exchange_bytes"][k] for row in rows) for k in LEVELS]
                    local = sum(c["local_bytes"] for row in rows for c in row["split"]["dram_bytes_by_cluster"])
                    remote = sum(c["remote_bytes"] for row in rows for c in row["split"]["dram_bytes_by_cluster"])
                    print(f"| {title} | {chip} | {split} | {cycles:,} | {base / cycles:.2f} | "
                          f"{'/'.join(map(str, modes))} | {' / '.join(kib(b) for b in ex)} | {mib(local)} / {mib(remote)} |")
        print()
        print("Per layer on 16 SMP cores (`smp-4x4`): the layers where auto leaves data parallelism.")
        print()
        print("| network | layer | auto mode | cycles, data | cycles, auto | DRAM MiB, data | DRAM MiB, auto | reduction busy cycles |")
        print("|---|---|---|---|---|---|---|---|")
        for title, network in NETWORKS:
            data = reports[(network, "smp-4x4", "data")]["workload"]["rows"]
            auto = reports[(network, "smp-4x4", "auto")]["workload"]["rows"]
            for d, a in zip(data, auto):
                if a["split"]["mode"] == "data":
                    continue
                red = a["split"].get("reduction", {}).get("busy_cycles", 0)
                print(f"| {title} | {a['name']} | {a['split']['mode']} | {d['cycles']:,} | {a['cycles']:,} | "
                      f"{mib(d['dram_bytes'])} | {mib(a['dram_bytes'])} | {red:,} |")


if __name__ == "__main__":
    sys.exit(main())
