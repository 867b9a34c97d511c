#!/usr/bin/python3
"""seed002 in full (issue 45): every split mode, NUMA against SMP, the cluster-cache size.

    bench/seed002_modes.py modes [--npusim build/npusim] [--base old/npusim]  # docs/seed002-modes.md + .png
    bench/seed002_modes.py numa  [--npusim build/npusim] [--base old/npusim]  # docs/numa-vs-smp.md
    bench/seed002_modes.py cache [--npusim build/npusim]                      # docs/cluster-cache-sweep.md + .png

modes: ResNet-50, MobileNetV2, VGG-16, BERT-128 and the 7B decode on smp-4x4, numa-4x4,
  smp-8x8 and numa-4x4-cache, each mode forced on every layer and --split auto; with --base,
  that build's auto (three modes) beside this one's. Per layer, auto's pick against the best
  of its own trials (split.simulated_cycles).
numa: every bundled network, the SCALE-Sim tables (bundled and held out) on 2x2 and 4x4
  chips, SMP against NUMA with the same channels: cycles and, over the layers that run data
  parallel, the busiest channel's bytes over the least busy one's.
cache: ResNet-50 on numa-4x4-cache with the cluster caches from 64 KiB to 16 MiB: DRAM
  bytes and cycles, against the same chip without caches.
Timing mode; each run's report.json is read back (bench/split_cores.py's run()).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import split_cores  # noqa: E402  (run, commit, workload paths)

ROOT = split_cores.ROOT
NETWORKS = [("ResNet-50", "resnet50"), ("MobileNetV2", "mobilenetv2"), ("VGG-16", "vgg16"),
            ("BERT-128", "bert-base-seq128"), ("7B decode", "llm-7b-decode")]
CHIPS = ["smp-4x4", "numa-4x4", "smp-8x8", "numa-4x4-cache"]
MODES = ["data", "model-co", "model-ci", "hybrid-co", "hybrid-ci"]
NUMA_WORKLOADS = [("ResNet-50", "resnet50"), ("MobileNetV2", "mobilenetv2"), ("VGG-16", "vgg16"),
                  ("BERT-128", "bert-base-seq128"), ("SCALE-Sim example", "scale-sim-example.csv"),
                  ("ResNet-18 table", "resnet18"), ("Inception-v3 table", "inception-v3"),
                  ("YOLOv3-tiny table", "yolov3-tiny"), ("GoogLeNet part table", "googlenet-part")]
NUMA_PAIRS = [("smp-2x2", "numa-2x2"), ("smp-4x4", "numa-4x4")]
CACHE_SIZES_KIB = [64, 256, 1024, 2048, 4096, 8192, 16384]
CACHE_SPLIT = "auto"


def workload(network):
    if network == "googlenet-part":
        return f"{ROOT}/tests/compiler/numa-held-out/googlenet-part.csv"
    if network.endswith(".csv"):
        return f"{ROOT}/traces/workloads/{network}"
    return split_cores.workload_path(network)


KEEP = None  # a folder keeping each run's report (--keep): a rerun takes them instead of running again


def run(npusim, work, network, config, split="auto", extra=()):
    """report.json of one run; None when npusim refuses it (exit 2)."""
    out = os.path.join(work, f"{os.path.basename(network)}-{os.path.basename(config)}-{split}")
    cfg = config if config.endswith(".json") else f"{ROOT}/configs/{config}.json"
    kept = KEEP and os.path.join(KEEP, "-".join([os.path.basename(npusim), os.path.basename(network),
                                                 os.path.basename(cfg), split]) + ".json")
    if kept and os.path.exists(kept):
        with open(kept) as f:
            return json.load(f)
    report = run_once(npusim, out, network, cfg, split, extra)
    if kept and report:
        with open(kept, "w") as f:
            json.dump(report, f)
    return report


def run_once(npusim, out, network, cfg, split, extra):
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    print(f"{os.path.basename(npusim)} {network} {os.path.basename(cfg)} {split}", file=sys.stderr)
    r = subprocess.run([npusim, "run", "--quiet", "--workload", workload(network), "--config", cfg, "--split", split,
                        "--out", out, *extra], env=env, capture_output=True, text=True)
    if r.returncode != 0:
        print(r.stdout + r.stderr, file=sys.stderr)
        return None
    with open(os.path.join(out, "report.json")) as f:
        report = json.load(f)
    subprocess.run(["rm", "-rf", out], check=True)
    return report


def rows(report):
    return report["workload"]["rows"]


def cycles(report):
    return f"{report['total_cycles']:,}" if report else "refused"


def mib(b):
    return f"{b / 2**20:.1f}"


def dram_bytes(report):
    return sum(r["dram_bytes"] for r in rows(report))


def auto_vs_trials(report):
    """Layers where auto's pick is over 2 % slower alone than the best of its trials."""
    worse = 0
    for r in rows(report):
        sim = r["split"].get("simulated_cycles")
        if sim and sim[r["split"]["mode"]] > 1.02 * min(sim.values()):
            worse += 1
    return worse


def modes(npusim, base, work):
    results = {}
    for _, net in NETWORKS:
        for chip in CHIPS:
            for split in MODES + ["auto"]:
                results[(net, chip, split)] = run(npusim, work, net, chip, split)
            if base:
                results[(net, chip, "auto-before")] = run(base, work, net, chip, "auto")
    out = [f"# Every seed002 split mode (issue 45)\n",
           f"Produced by `bench/seed002_modes.py modes` at commit {split_cores.commit()} (timing mode, batch as the "
           "workload says). Each mode forced on every conv and fc layer (a layer that cannot split so stays data "
           "parallel), then `--split auto` over all five modes; *auto before* is the build before the hybrid modes "
           "(three modes). *auto > trials* counts layers whose pick runs over 2 % slower alone than the best "
           "candidate it simulated (none expected: auto takes the fastest trial).\n",
           "![cycles per mode](seed002-modes.png)\n",
           "| network | chip | " + " | ".join(MODES) + " | auto before | auto | auto / before | auto > trials | "
           "auto layers data/co/ci/hco/hci | auto DRAM MiB |",
           "|---|---|" + "---|" * (len(MODES) + 6)]
    for title, net in NETWORKS:
        for chip in CHIPS:
            auto, before = results[(net, chip, "auto")], results.get((net, chip, "auto-before"))
            ratio = f"{auto['total_cycles'] / before['total_cycles']:.3f}" if auto and before else ""
            counts = "/".join(str(sum(r["split"]["mode"] == m for r in rows(auto))) for m in MODES) if auto else ""
            out.append(f"| {title} | {chip} | " + " | ".join(cycles(results[(net, chip, m)]) for m in MODES) +
                       f" | {cycles(before)} | {cycles(auto)} | {ratio} | {auto_vs_trials(auto) if auto else ''} | "
                       f"{counts} | {mib(dram_bytes(auto)) if auto else ''} |")
    write_page("seed002-modes", out, lambda path: modes_chart(results, path))


def write_page(name, lines, chart=None):
    """docs/<name>.md from its lines, then its chart as docs/<name>.png (the page first, so a
    failing chart leaves the numbers)."""
    with open(f"{ROOT}/docs/{name}.md", "w") as f:
        f.write("\n".join(lines) + "\n")
    if chart:
        chart(f"{ROOT}/docs/{name}.png")


def modes_chart(results, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, len(CHIPS), figsize=(4 * len(CHIPS), 4), sharey=True)
    labels = MODES + ["auto"]
    for ax, chip in zip(axes, CHIPS):
        for i, (title, net) in enumerate(NETWORKS):
            best = min(r["total_cycles"] for m in labels if (r := results[(net, chip, m)]))
            xs = [j + i * 0.15 for j in range(len(labels))]
            ys = [results[(net, chip, m)]["total_cycles"] / best if results[(net, chip, m)] else 0 for m in labels]
            ax.bar(xs, ys, width=0.15, label=title)
        ax.set_xticks([j + 0.3 for j in range(len(labels))], labels, rotation=45, fontsize=8)
        ax.set_title(chip)
        ax.set_yscale("log")
        ax.grid(True, axis="y", alpha=0.3)
    axes[0].set_ylabel("cycles / fastest mode of the network")
    axes[0].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def channel_spread(report):
    """Busiest over least busy channel, bytes summed over the data-parallel layers."""
    total = None
    for r in rows(report):
        if r["split"]["mode"] != "data":
            continue
        by = r["split"]["dram_bytes_by_channel"]
        total = by if total is None else [a + b for a, b in zip(total, by)]
    if not total or min(total) == 0:
        return "n/a"
    return f"{max(total) / min(total):.2f}"


def numa(npusim, base, work):
    out = [f"# NUMA against SMP (issue 45)\n",
           f"Produced by `bench/seed002_modes.py numa` at commit {split_cores.commit()}: `--split auto`, timing mode, "
           "the same channels on both chips (one per cluster). *spread*: over the layers that run data parallel, the "
           "busiest channel's DRAM bytes over the least busy one's (`split.dram_bytes_by_channel`). With --base, the "
           "build before issue 45 (layer tables' inputs all in channel 0).\n",
           "| workload | chips | SMP cycles | NUMA cycles | NUMA / SMP | spread SMP | spread NUMA | NUMA before | "
           "NUMA / SMP before |", "|---|---|---|---|---|---|---|---|---|"]
    for title, net in NUMA_WORKLOADS:
        for smp, numa_chip in NUMA_PAIRS:
            s, n = run(npusim, work, net, smp), run(npusim, work, net, numa_chip)
            b = run(base, work, net, numa_chip) if base else None
            sb = run(base, work, net, smp) if base else None
            ratio = f"{n['total_cycles'] / s['total_cycles']:.3f}" if s and n else ""
            before = f"{b['total_cycles'] / sb['total_cycles']:.3f}" if b and sb else ""
            out.append(f"| {title} | {smp} / {numa_chip} | {cycles(s)} | {cycles(n)} | {ratio} | "
                       f"{channel_spread(s) if s else ''} | {channel_spread(n) if n else ''} | {cycles(b)} | {before} |")
    write_page("numa-vs-smp", out)


def cache(npusim, work):
    points = [("no caches", None)] + [(f"{k} KiB", k) for k in CACHE_SIZES_KIB]
    results = []
    for label, kib in points:
        cfg = os.path.join(work, f"cache-{kib}.json")
        chip = {"cluster_cache": {"enabled": False}} if kib is None else \
            {"cluster_cache": {"enabled": True, "capacity_bytes": kib * 1024}}
        with open(cfg, "w") as f:
            json.dump({"extends": f"{ROOT}/configs/numa-4x4-cache.json", "chip": chip}, f)
        results.append((label, kib, run(npusim, work, "resnet50", cfg, CACHE_SPLIT)))
    out = [f"# Cluster-cache size against DRAM bytes (issue 45)\n",
           f"Produced by `bench/seed002_modes.py cache --cache-split {CACHE_SPLIT}` at commit {split_cores.commit()}: "
           f"ResNet-50, `--split {CACHE_SPLIT}`, `numa-4x4-cache` with `/chip/cluster_cache/capacity_bytes` swept "
           "(*no caches*: the same chip with `/chip/cluster_cache/enabled` false). Activations are kept in the caches "
           "where they fit (docs/workload-format.md, \"Activations kept in the cluster caches\").\n",
           "![DRAM bytes against cache size](cluster-cache-sweep.png)\n",
           "| cluster cache | cycles | DRAM MiB | DRAM saved | cache bytes MiB |", "|---|---|---|---|---|"]
    base = dram_bytes(results[0][2])
    for label, _, r in results:
        through = sum(c for row in rows(r) for c in row["split"].get("cache_bytes_by_cluster", []))
        out.append(f"| {label} | {cycles(r)} | {mib(dram_bytes(r))} | {100 * (1 - dram_bytes(r) / base):.1f} % | "
                   f"{mib(through)} |")
    write_page("cluster-cache-sweep", out, lambda path: cache_chart(results, path))


def cache_chart(results, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6, 4))
    xs = [k for _, k, _ in results[1:]]
    ax.plot(xs, [dram_bytes(r) / 2**20 for _, _, r in results[1:]], marker="o", label="with caches")
    ax.axhline(dram_bytes(results[0][2]) / 2**20, linestyle="--", color="grey", label="no caches")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("cluster cache per cluster (KiB)")
    ax.set_ylabel("ResNet-50 DRAM MiB")
    ax.legend()
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    global NETWORKS, CHIPS, NUMA_WORKLOADS, CACHE_SPLIT, KEEP
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("what", choices=["modes", "numa", "cache"])
    p.add_argument("--npusim", default=f"{ROOT}/build/npusim")
    p.add_argument("--base", help="an npusim built before issue 45, for the 'before' columns")
    p.add_argument("--networks", help="comma-separated workload names (resnet50,...): a subset")
    p.add_argument("--chips", help="comma-separated configs for 'modes': a subset")
    p.add_argument("--cache-split", default="auto", help="--split of the cache sweep's runs (default auto)")
    p.add_argument("--keep", help="a folder to keep each run's report in, and to take it from on a rerun")
    a = p.parse_args()
    KEEP = a.keep
    if KEEP:
        os.makedirs(KEEP, exist_ok=True)
    if a.networks:
        keep = a.networks.split(",")
        NETWORKS = [n for n in NETWORKS if n[1] in keep]
        NUMA_WORKLOADS = [n for n in NUMA_WORKLOADS if n[1] in keep]
    if a.chips:
        CHIPS = a.chips.split(",")
    CACHE_SPLIT = a.cache_split
    with tempfile.TemporaryDirectory() as work:
        if a.what == "modes":
            modes(a.npusim, a.base, work)
        elif a.what == "numa":
            numa(a.npusim, a.base, work)
        else:
            cache(a.npusim, work)


if __name__ == "__main__":
    main()
