#!/usr/bin/python3
"""Multi-core work splitting (issues 13 and 32, seed002). Three reports:

    bench/split_cores.py tables  [--npusim build/npusim]   # markdown for bench/RESULTS.md
    bench/split_cores.py scaling [--npusim build/npusim]   # docs/multi-core-scaling.md + .png
    bench/split_cores.py auto    [--npusim build/npusim]   # docs/multi-core-auto.md

tables: ResNet-50, VGG-16 and MobileNetV2 on 1, 4 and 16 cores, SMP against NUMA, data
  parallel only against --split auto; then, per layer on smp-4x4, where auto leaves data.
scaling: ResNet-50, MobileNetV2, VGG-16, BERT-128 and the 7B decode with --split auto on
  1, 2, 4, 8 and 16 cores, SMP and NUMA, one DRAM channel per cluster: cycles, DRAM bytes
  and the split of every layer. The page names the commit that produced it; rerun this
  one command after any change that moves cycles.
auto: ResNet-50, MobileNetV2, VGG-16 and the held-out layer tables
  (tests/compiler/split-held-out) on smp-4x4: each layer's auto pick against the best
  forced mode (run alone, and inside the network), and the whole network against the
  best uniform mode.
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
SCALING_NETWORKS = [("ResNet-50", "resnet50"), ("MobileNetV2", "mobilenetv2"), ("VGG-16", "vgg16"),
                    ("BERT-128", "bert-base-seq128"), ("7B decode", "llm-7b-decode")]
# (cores, SMP config, NUMA config): one channel per cluster; one cluster has no NUMA.
SCALING_CHIPS = [(1, "smp-1x1", None), (2, "smp-1x2", None), (2, "smp-2x1", "numa-2x1"),
                 (4, "smp-2x2", "numa-2x2"), (8, "smp-2x4", "numa-2x4"), (16, "smp-4x4", "numa-4x4")]
HELD_OUT = ["resnet18", "inception-v3", "yolov3-tiny"]
MODES = ["data", "model-co", "model-ci"]


def workload_path(network):
    if network in HELD_OUT:
        return f"{ROOT}/tests/compiler/split-held-out/{network}.csv"
    return f"{ROOT}/traces/workloads/{network}.json"


def run(npusim, work, network, config, split):
    out = os.path.join(work, f"{network}-{config}-{split}")
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    subprocess.run([npusim, "run", "--quiet", "--workload", workload_path(network),
                    "--config", f"{ROOT}/configs/{config}.json", "--split", split, "--out", out],
                   check=True, env=env)
    with open(os.path.join(out, "report.json")) as f:
        report = json.load(f)
    subprocess.run(["rm", "-rf", out], check=True)
    return report


def mib(b):
    return f"{b / 2**20:.1f}"


def kib(b):
    return f"{b / 2**10:,.0f}"


def rows_of(report):
    return report["workload"]["rows"]


def dram_bytes(report):
    return sum(row["dram_bytes"] for row in rows_of(report))


def mode_counts(report):
    rows = rows_of(report)
    return [sum(row["split"]["mode"] == m for row in rows) for m in MODES]


def tables(npusim, work):
    print("| network | chip | split | cycles | speed-up | modes (data/co/ci) | exchange KiB: nram / cache / remote cache / dram | DRAM MiB local / remote |")
    print("|---|---|---|---|---|---|---|---|")
    reports = {}
    for title, network in NETWORKS:
        base = None
        for chip, config, splits in CHIPS:
            for split in splits:
                r = run(npusim, work, network, config, split)
                reports[(network, config, split)] = r
                rows = rows_of(r)
                cycles = r["total_cycles"]
                base = base or cycles
                ex = [sum(row["split"]["exchange_bytes"][k] for row in rows) for k in LEVELS]
                local = sum(c["local_bytes"] for row in rows for c in row["split"]["dram_bytes_by_cluster"])
                remote = sum(c["remote_bytes"] for row in rows for c in row["split"]["dram_bytes_by_cluster"])
                print(f"| {title} | {chip} | {split} | {cycles:,} | {base / cycles:.2f} | "
                      f"{'/'.join(map(str, mode_counts(r)))} | {' / '.join(kib(b) for b in ex)} | {mib(local)} / {mib(remote)} |")
    print()
    print("Per layer on 16 SMP cores (`smp-4x4`): the layers where auto leaves data parallelism.")
    print()
    print("| network | layer | auto mode | cycles, data | cycles, auto | DRAM MiB, data | DRAM MiB, auto | reduction busy cycles |")
    print("|---|---|---|---|---|---|---|---|")
    for title, network in NETWORKS:
        data = rows_of(reports[(network, "smp-4x4", "data")])
        auto = rows_of(reports[(network, "smp-4x4", "auto")])
        for d, a in zip(data, auto):
            if a["split"]["mode"] == "data":
                continue
            red = a["split"].get("reduction", {}).get("busy_cycles", 0)
            print(f"| {title} | {a['name']} | {a['split']['mode']} | {d['cycles']:,} | {a['cycles']:,} | "
                  f"{mib(d['dram_bytes'])} | {mib(a['dram_bytes'])} | {red:,} |")


def commit():
    head = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.strip()
    return head + (" with uncommitted changes" if dirty else "")


def scaling_runs(npusim, work):
    """Every network on every chip; a run npusim refuses (exit 2: the tensors do not fit
    a NUMA memory) is None and its error line kept for the page."""
    results, refused = {}, {}
    for _, network in SCALING_NETWORKS:
        for cores, smp, numa in SCALING_CHIPS:
            for config in filter(None, [smp, numa]):
                print(f"scaling: {network} on {config}", file=sys.stderr)
                try:
                    results[(network, config)] = run(npusim, work, network, config, "auto")
                except subprocess.CalledProcessError:
                    results[(network, config)] = None
                    refused[(network, config)] = True
    return results, refused


def scaling_chart(results, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (speed, dram) = plt.subplots(1, 2, figsize=(12, 4.5))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for (title, network), color in zip(SCALING_NETWORKS, colors):
        base = results[(network, "smp-1x1")]
        for topology, style in (("smp", "-"), ("numa", "--")):
            points = [(c, results[(network, cfg)]) for c, s, n in SCALING_CHIPS
                      for cfg in [s if topology == "smp" else (n or s)]
                      if not (c == 2 and cfg == "smp-1x2") and results[(network, cfg)]]
            xs = [c for c, _ in points]
            speed.plot(xs, [base["total_cycles"] / r["total_cycles"] for _, r in points], style, marker="o",
                       color=color, label=f"{title} {topology.upper()}")
            dram.plot(xs, [dram_bytes(r) / dram_bytes(base) for _, r in points], style, marker="o", color=color)
    for ax, label in ((speed, "speed-up over 1 core"), (dram, "DRAM bytes / 1-core DRAM bytes")):
        ax.set_xscale("log", base=2)
        ax.set_xticks([1, 2, 4, 8, 16], ["1", "2", "4", "8", "16"])
        ax.set_xlabel("cores (one DRAM channel per cluster)")
        ax.set_ylabel(label)
        ax.grid(True, alpha=0.3)
    speed.plot([1, 16], [1, 16], ":", color="grey", label="linear")
    speed.set_yscale("log", base=2)
    speed.legend(fontsize=7, ncol=2)
    fig.suptitle("--split auto: 2 cores = 2 clusters x 1 core (smp-2x1 / numa-2x1)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def scaling(npusim, work):
    produced_by = commit()
    results, refused = scaling_runs(npusim, work)
    scaling_chart(results, f"{ROOT}/docs/multi-core-scaling.png")
    out = [f"# Multi-core scaling\n",
           f"Produced by `bench/split_cores.py scaling` at commit {produced_by}: rerun it after any change that "
           "moves cycles (it rewrites this page and `multi-core-scaling.png`). Timing mode, batch as the "
           "workload says, `--split auto`; one DRAM channel per cluster (`configs/smp-CxK.json`, "
           "`numa-CxK.json`: C clusters of K cores).\n",
           "![speed-up and DRAM bytes against cores](multi-core-scaling.png)\n",
           "| network | chip | cores | cycles | speed-up | DRAM MiB | layers data / model-co / model-ci |",
           "|---|---|---|---|---|---|---|"]
    for title, network in SCALING_NETWORKS:
        base = results[(network, "smp-1x1")]["total_cycles"]
        for cores, smp, numa in SCALING_CHIPS:
            for config in filter(None, [smp, numa]):
                r = results[(network, config)]
                if r is None:
                    out.append(f"| {title} | {config} | {cores} | refused: the tensors do not fit one memory | | | |")
                    continue
                out.append(f"| {title} | {config} | {cores} | {r['total_cycles']:,} | {base / r['total_cycles']:.2f} | "
                           f"{mib(dram_bytes(r))} | {' / '.join(map(str, mode_counts(r)))} |")
    out += ["", "## The split chosen per layer", "",
            "Layers whose mode differs between chips (every other conv and fc layer is data parallel everywhere; "
            "the other layers are always data parallel).", ""]
    configs = [cfg for _, s, n in SCALING_CHIPS for cfg in filter(None, [s, n])]
    for title, network in SCALING_NETWORKS:
        ran = [c for c in configs if results[(network, c)]]
        table = [rows_of(results[(network, c)]) for c in ran]
        varied = [i for i in range(len(table[0])) if len({t[i]["split"]["mode"] for t in table}) > 1]
        out += [f"### {title}", "", f"{len(varied)} of {len(table[0])} layers change mode.", ""]
        if not varied:
            continue
        out += ["| layer | " + " | ".join(ran) + " |", "|---|" + "---|" * len(ran)]
        for i in varied:
            out.append(f"| {table[0][i]['name']} | " + " | ".join(t[i]["split"]["mode"] for t in table) + " |")
        out.append("")
    with open(f"{ROOT}/docs/multi-core-scaling.md", "w") as f:
        f.write("\n".join(out) + "\n")


def run_with_layer_split(npusim, work, network, config, layer, mode):
    """The network with one layer's own "split" forced: auto's run with that one choice changed."""
    with open(workload_path(network)) as f:
        w = json.load(f)
    for entry in w["layers"]:
        if entry["name"] == layer:
            entry["split"] = mode
    path = os.path.join(work, f"{network}-{layer}-{mode}.json")
    with open(path, "w") as f:
        json.dump(w, f)
    out = os.path.join(work, "flip")
    subprocess.run([npusim, "run", "--quiet", "--workload", path, "--config", f"{ROOT}/configs/{config}.json",
                    "--out", out], check=True, env=dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1"))
    with open(os.path.join(out, "report.json")) as f:
        total = json.load(f)["total_cycles"]
    subprocess.run(["rm", "-rf", out, path], check=True)
    return total


def auto_network(npusim, work, network, config):
    """Auto's pick per layer against every other candidate, alone (the trials) and in the
    network (auto's run with only that layer's mode changed: a layer's own cycles in a
    network overlap its neighbours', so the whole run is the fair judge)."""
    runs = {split: run(npusim, work, network, config, split) for split in ["auto"] + MODES}
    total = runs["auto"]["total_cycles"]
    worse_alone, worse_inside, considered = [], [], 0
    for row in rows_of(runs["auto"]):
        sim = row["split"].get("simulated_cycles")
        if not sim:
            continue
        considered += 1
        mine = sim[row["split"]["mode"]]
        if mine > 1.02 * min(sim.values()):
            worse_alone.append(row["name"])
        if network in HELD_OUT:
            continue
        for mode in sim:
            if mode == row["split"]["mode"]:
                continue
            flipped = run_with_layer_split(npusim, work, network, config, row["name"], mode)
            if total - flipped > 0.02 * mine:
                worse_inside.append(f"{row['name']} {mode} saves {total - flipped:,}")
    uniform = {m: runs[m]["total_cycles"] for m in MODES}
    inside = "n/a" if network in HELD_OUT else f"{len(worse_inside)} {', '.join(worse_inside)}"
    return total, uniform, considered, worse_alone, inside


def auto_check(npusim, work, config="smp-4x4"):
    produced_by = commit()
    out = [f"# `--split auto` against forced modes on `{config}`\n",
           f"Produced by `bench/split_cores.py auto` at commit {produced_by} (rerun it after any change that moves "
           "cycles). Per layer with more than one candidate mode: \"alone\" compares auto's pick with every "
           "candidate run as a one-layer workload with its mode forced (the trials auto itself compares, "
           "`split.simulated_cycles` in report.json); \"in the network\" reruns auto's whole network with only "
           "that layer forced to each other candidate (its own `\"split\"`) and counts the layers where that "
           "saves more than 2 % of the layer's own cycles. A layer's row cycles inside a network are not "
           "used: they run from its first instruction (often an early weight load) to its last, overlapping "
           "its neighbours. The held-out tables (`tests/compiler/split-held-out/`, SCALE-Sim CSV: no "
           "per-layer split key) get the alone comparison only. Whole network: auto against each mode "
           "forced on every layer.\n",
           "| workload | layers compared | auto > 2 % over the best, alone | a flip saves > 2 %, in the network | "
           "auto cycles | data | model-co | model-ci | auto vs best uniform |",
           "|---|---|---|---|---|---|---|---|---|"]
    for network in ["resnet50", "mobilenetv2", "vgg16"] + HELD_OUT:
        print(f"auto: {network}", file=sys.stderr)
        total, uniform, considered, alone, inside = auto_network(npusim, work, network, config)
        best = min(uniform.values())
        out.append(f"| {network} | {considered} | {len(alone)} {', '.join(alone)} | {inside} | "
                   f"{total:,} | {uniform['data']:,} | {uniform['model-co']:,} | {uniform['model-ci']:,} | "
                   f"{100 * (total - best) / best:+.1f} % |")
    with open(f"{ROOT}/docs/multi-core-auto.md", "w") as f:
        f.write("\n".join(out) + "\n")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("report", nargs="?", default="tables", choices=["tables", "scaling", "auto"])
    parser.add_argument("--npusim", default=os.path.join(ROOT, "build", "npusim"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        {"tables": tables, "scaling": scaling, "auto": auto_check}[args.report](args.npusim, work)


if __name__ == "__main__":
    sys.exit(main())
