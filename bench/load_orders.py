#!/usr/bin/python3
"""Load orders (seed004 §2.5.1, docs/load-orders.md): weight-, feature-map- and row-stationary
and --load-order auto on ResNet-50, VGG-16, MobileNetV2 and one block of the 7B prefill,
against the size of NRAM and WRAM (both set to each size in turn) on configs/default.json.

    bench/load_orders.py [--npusim build/npusim] [--sizes 128,256,512,1024] [--networks resnet50,...]

Writes docs/load-orders.png (cycles and DRAM bytes per order against the size, auto's choice
marked) and prints markdown for bench/RESULTS.md: per network and size the cycles and DRAM
bytes of each order, how many layers auto put in each order, auto against ws and against the
best forced order, and per layer auto's pick against the best forced order in the network
(the layer's own cycles in each forced run). Timing mode; each run's report.json is read back.
"""
import argparse
import json
import os
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NETWORKS = [("ResNet-50", "resnet50"), ("VGG-16", "vgg16"), ("MobileNetV2", "mobilenetv2"),
            ("7B prefill, one block", "llm-7b-prefill-block")]
ORDERS = ["ws", "fs", "rs", "auto"]


def prefill_block(work):
    """The first of the 7B prefill's 32 blocks (layers l0.*) as a workload of its own."""
    with open(f"{ROOT}/traces/workloads/llm-7b-prefill.json") as f:
        w = json.load(f)
    w["name"] = "llm-7b-prefill-block"
    w["description"] = "one block of " + w["description"]
    w["layers"] = [l for l in w["layers"] if l["name"].startswith("l0.")]
    path = os.path.join(work, "llm-7b-prefill-block.json")
    with open(path, "w") as f:
        json.dump(w, f)
    return path


def config(work, kib):
    path = os.path.join(work, f"default-{kib}k.json")
    with open(path, "w") as f:
        json.dump({"extends": f"{ROOT}/configs/default.json",
                   "core": {"nram": {"capacity_bytes": kib * 1024}, "wram": {"capacity_bytes": kib * 1024}}}, f)
    return path


def run(npusim, work, workload, cfg, order):
    out = os.path.join(work, "run")
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    subprocess.run([npusim, "run", "--quiet", "--rows", "layers", "--workload", workload, "--config", cfg,
                    "--load-order", order, "--out", out], check=True, env=env)
    with open(os.path.join(out, "report.json")) as f:
        report = json.load(f)
    subprocess.run(["rm", "-rf", out], check=True)
    return report


def dram_bytes(report):
    return sum(row["dram_bytes"] for row in report["workload"]["rows"])


def picks(report):
    counts = {o: 0 for o in ORDERS[:3]}
    for row in report["workload"]["rows"]:
        if "load_order" in row:
            counts[row["load_order"]["order"]] += 1
    return counts


def per_layer(results):
    """Auto's layers against the best forced order, each layer's cycles taken in its network run."""
    cycles = {o: {r["name"]: r["cycles"] for r in results[o]["workload"]["rows"]} for o in ORDERS}
    worst, above = 0.0, 0
    for row in results["auto"]["workload"]["rows"]:
        if "load_order" not in row:
            continue
        best = min(cycles[o][row["name"]] for o in ORDERS[:3])
        ratio = row["cycles"] / best if best else 1.0
        worst = max(worst, ratio)
        above += ratio > 1.02
    return worst, above


def chart(results, sizes, names, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(2, len(names), figsize=(4.2 * len(names), 7), squeeze=False)
    styles = {"ws": ("-", "o"), "fs": ("-", "s"), "rs": ("-", "^"), "auto": (":", "x")}
    for col, (title, network) in enumerate(names):
        for o in ORDERS:
            ys = [results[(network, s)][o] for s in sizes]
            line, marker = styles[o]
            axes[0][col].plot(sizes, [r["total_cycles"] / 1e6 for r in ys], line, marker=marker, label=o)
            axes[1][col].plot(sizes, [dram_bytes(r) / 2**20 for r in ys], line, marker=marker, label=o)
        for s in sizes:  # auto's layers in each order, under the point
            p = picks(results[(network, s)]["auto"])
            axes[0][col].annotate(f"{p['ws']}/{p['fs']}/{p['rs']}", (s, results[(network, s)]["auto"]["total_cycles"] / 1e6),
                                  textcoords="offset points", xytext=(0, -12), ha="center", fontsize=6)
        axes[0][col].set_title(title, fontsize=10)
        axes[0][col].set_ylabel("cycles (millions)")
        axes[1][col].set_ylabel("DRAM bytes (MiB)")
        for ax in (axes[0][col], axes[1][col]):
            ax.set_xscale("log", base=2)
            ax.set_xticks(sizes, [f"{s}" for s in sizes])
            ax.set_xlabel("NRAM = WRAM (KiB)")
            ax.grid(True, alpha=0.3)
    axes[0][0].legend(fontsize=8)
    fig.suptitle("Load orders on configs/default.json (1 core); auto's labels: layers in ws/fs/rs")
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def markdown(results, sizes, names):
    out = ["| network | NRAM = WRAM | ws cycles | fs | rs | auto | auto / ws | auto / best | DRAM MiB ws / fs / rs / auto "
           "| auto's layers ws/fs/rs | worst layer auto / best forced | layers > 2 % |",
           "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for title, network in names:
        for s in sizes:
            r = results[(network, s)]
            c = {o: r[o]["total_cycles"] for o in ORDERS}
            p = picks(r["auto"])
            worst, above = per_layer(r)
            out.append(f"| {title} | {s} KiB | {c['ws']:,} | {c['fs']:,} | {c['rs']:,} | {c['auto']:,} | "
                       f"{c['auto'] / c['ws']:.3f} | {c['auto'] / min(c[o] for o in ORDERS[:3]):.3f} | "
                       + " / ".join(f"{dram_bytes(r[o]) / 2**20:.1f}" for o in ORDERS)
                       + f" | {p['ws']}/{p['fs']}/{p['rs']} | {worst:.3f} | {above} |")
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--npusim", default=f"{ROOT}/build/npusim")
    parser.add_argument("--sizes", default="128,256,512,1024,2048", help="NRAM = WRAM sizes in KiB")
    parser.add_argument("--networks", default=",".join(n for _, n in NETWORKS))
    parser.add_argument("--chart", default=f"{ROOT}/docs/load-orders.png")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    names = [(t, n) for t, n in NETWORKS if n in args.networks.split(",")]
    results = {}
    with tempfile.TemporaryDirectory() as work:
        block = prefill_block(work)
        for _, network in names:
            workload = block if network == "llm-7b-prefill-block" else f"{ROOT}/traces/workloads/{network}.json"
            for s in sizes:
                cfg = config(work, s)
                results[(network, s)] = {o: run(args.npusim, work, workload, cfg, o) for o in ORDERS}
    if args.chart:
        chart(results, sizes, names, args.chart)
    print(markdown(results, sizes, names))


if __name__ == "__main__":
    main()
