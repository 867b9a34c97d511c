#!/usr/bin/python3
"""Reads the cores share (issue 32, seed002 §3.9): weight blocks read once and replicated
by the routing fabric (load params.multicast), and NUMA against SMP. Prints markdown
tables for bench/RESULTS.md:

    bench/shared_reads.py [--npusim build/npusim] [--networks resnet50,...]

1. ResNet-50 with --split data: DRAM bytes read and cycles on 1, 4 and 16 cores, with
   /chip/interconnect/multicast on (the default) and off;
2. every network with the split the compiler chooses (the default): cycles on 1 core
   against 4 and 16, SMP against NUMA with the same channels, with and without caches.
Timing mode; each run's report.json is read back.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NETWORKS = ["tiny", "resnet50", "mobilenetv2", "vgg16", "bert-base-seq128", "vit-b16", "llm-7b-decode-2l"]
PAIRS = [("4", "smp-2x2", "numa-2x2"), ("4 + caches", "smp-2x2-cache", "numa-2x2-cache"),
         ("16", "smp-4x4", "numa-4x4"), ("16 + caches", "smp-4x4-cache", "numa-4x4-cache")]


def run(npusim, work, network, config, extra=()):
    tag = "-".join([network, os.path.basename(config)] + [a.replace("/", "_") for a in extra])
    out = os.path.join(work, tag)
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    subprocess.run([npusim, "run", "--quiet", "--workload", f"{ROOT}/traces/workloads/{network}.json",
                    "--config", config, "--out", out, *extra], check=True, env=env)
    with open(os.path.join(out, "report.json")) as f:
        return json.load(f)


def dram_read(report):
    return sum(m["bytes_read"] for m in report["memories"] if m["kind"] == "dram_channel")


def derived(work, name, extends, chip):
    path = os.path.join(work, name + ".json")
    with open(path, "w") as f:
        json.dump({"extends": extends, "chip": chip}, f)
    return path


def config_path(work, name, multicast=True):
    """A shipped config, or one derived from it (the -cache SMP 4x4; multicast off)."""
    path = f"{ROOT}/configs/{name}.json"
    if name == "smp-4x4-cache":
        path = derived(work, name, f"{ROOT}/configs/smp-4x4.json", {"cluster_cache": {"enabled": True}})
    if multicast:
        return path
    return derived(work, name + "-nomc", path, {"interconnect": {"multicast": False}})


def data_mode_table(npusim, work):
    print("| chip | multicast | cycles | DRAM MB read | × one core |")
    print("|---|---|---|---|---|")
    one = None
    for config in ["default", "smp-2x2", "numa-2x2", "smp-4x4", "numa-4x4"]:
        for multicast in ([True] if config == "default" else [True, False]):
            r = run(npusim, work, "resnet50", config_path(work, config, multicast), ["--split", "data"])
            read = dram_read(r)
            one = one or read
            print(f"| {config} | {'on' if multicast else 'off'} | {r['total_cycles']:,} | {read / 1e6:.1f} | "
                  f"{read / one:.2f} |")


def networks_table(npusim, work, networks, multicast):
    print("| network | 1 core | chips | SMP cycles | NUMA cycles | NUMA / SMP | speed-up SMP / NUMA |")
    print("|---|---|---|---|---|---|---|")
    for network in networks:
        one = run(npusim, work, network, config_path(work, "default"))["total_cycles"]
        for label, smp, numa in PAIRS:
            s = run(npusim, work, network, config_path(work, smp, multicast))["total_cycles"]
            n = run(npusim, work, network, config_path(work, numa, multicast))["total_cycles"]
            print(f"| {network} | {one:,} | {label} | {s:,} | {n:,} | {n / s:.3f} | {one / s:.2f} / {one / n:.2f} |")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--npusim", default=os.path.join(ROOT, "build", "npusim"))
    parser.add_argument("--networks", default=",".join(NETWORKS))
    parser.add_argument("--skip-data", action="store_true", help="leave out the ResNet-50 --split data table")
    parser.add_argument("--no-multicast", action="store_true", help="networks with /chip/interconnect/multicast off")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        if not args.skip_data:
            data_mode_table(args.npusim, work)
            print()
        networks_table(args.npusim, work, args.networks.split(","), not args.no_multicast)


if __name__ == "__main__":
    sys.exit(main())
