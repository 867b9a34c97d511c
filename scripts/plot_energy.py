#!/usr/bin/python3
"""Draws the energy breakdown of one npusim workload run (report.json).

    scripts/plot_energy.py RUN/report.json -o chart.png|chart.svg [--title T]

Left: one stacked bar per layer, its energy by component class (dynamic and
leakage together), in microjoules. Right: the whole run as one bar, each class's
share in percent. Needs matplotlib (Debian's python3-matplotlib, hence
/usr/bin/python3); see docs/energy.md.
"""
import argparse
import json
import sys

from chart_output import check_output, save

# Data movement first (bottom of the stack), then storage next to the datapath, then compute.
ORDER = ["dram", "sram", "register_file", "bus", "dma", "mac", "vector", "min_switch"]


def main():
    parser = argparse.ArgumentParser(description="Plot the per-layer energy of an npusim workload run")
    parser.add_argument("report", help="report.json of `npusim run --workload ...`")
    parser.add_argument("-o", "--output", required=True, help="chart file, .png or .svg")
    parser.add_argument("--title", help="chart title (default: the workload and config)")
    args = parser.parse_args()
    check_output(args.output, "plot_energy.py")
    with open(args.report) as f:
        report = json.load(f)
    energy = report.get("energy", {})
    layers = energy.get("layers")
    if not layers:
        sys.exit(f"plot_energy.py: {args.report} has no energy.layers (run a workload with an energy table)")
    classes = [c for c in ORDER if any(c in l["classes"] for l in layers)]
    classes += sorted({c for l in layers for c in l["classes"]} - set(classes))

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax, ax_total) = plt.subplots(1, 2, figsize=(12, 4.8), dpi=120, gridspec_kw={"width_ratios": [14, 1]})
    xs = range(len(layers))
    bottom = [0.0] * len(layers)
    colours = plt.get_cmap("tab10")
    total = energy["total_pj"]
    share_bottom = 0.0
    for i, cls in enumerate(classes):
        uj = [l["classes"].get(cls, 0.0) * 1e-6 for l in layers]
        ax.bar(xs, uj, bottom=bottom, width=0.85, color=colours(i), label=cls)
        bottom = [b + u for b, u in zip(bottom, uj)]
        share = 100 * sum(l["classes"].get(cls, 0.0) for l in layers) / total
        ax_total.bar([0], [share], bottom=[share_bottom], color=colours(i))
        if share >= 3:
            ax_total.text(0, share_bottom + share / 2, f"{share:.0f}%", ha="center", va="center", fontsize=8)
        share_bottom += share
    step = max(1, len(layers) // 36)
    ax.set_xticks(list(xs)[::step])
    ax.set_xticklabels([l["name"] for l in layers][::step], rotation=90, fontsize=7)
    ax.set_xlim(-0.6, len(layers) - 0.4)
    ax.set_ylabel("energy per layer (uJ)")
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=8, ncol=2)
    ax.set_title(args.title or f"{report['trace']} on {report['config']}: "
                 f"{total * 1e-6:.0f} uJ per run, {energy['pj_per_mac']:.2f} pJ/MAC")
    ax_total.set_xticks([0])
    ax_total.set_xticklabels(["whole run"], fontsize=8)
    ax_total.set_ylim(0, 100)
    ax_total.set_ylabel("share (%)")
    save(fig, args.output)


if __name__ == "__main__":
    main()
