#!/usr/bin/python3
"""Chart of the DRAM preset sweeps (configs/sweeps/dram-presets*.json, issue 30): per workload,
each DRAM's total cycles relative to the bandwidth model, as grouped bars.

  scripts/plot_dram_presets.py -o docs/dram-presets.png NAME=RESULTS.csv [NAME=RESULTS.csv ...]
"""
import argparse
import csv

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def relative_cycles(path):
    rows = [r for r in csv.DictReader(open(path)) if r["status"] == "ok"]
    base = next(float(r["total_cycles"]) for r in rows if r["preset"] == "bandwidth")
    return {r["preset"]: float(r["total_cycles"]) / base for r in rows}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("-o", required=True)
    parser.add_argument("sweeps", nargs="+", help="NAME=results.csv")
    args = parser.parse_args()
    series = [(s.split("=", 1)[0], relative_cycles(s.split("=", 1)[1])) for s in args.sweeps]
    presets = list(series[0][1].keys())
    width = 0.8 / len(presets)
    fig, ax = plt.subplots(figsize=(8, 4))
    for i, preset in enumerate(presets):
        xs = [w + (i - (len(presets) - 1) / 2) * width for w in range(len(series))]
        ax.bar(xs, [values.get(preset, 0) for _, values in series], width, label=preset)
    ax.set_xticks(range(len(series)), [name for name, _ in series])
    ax.axhline(1.0, color="grey", linewidth=0.8)
    ax.set_ylabel("total cycles / bandwidth model")
    ax.set_title("Default chip (one core, 1 GHz) with each DRAM")
    ax.legend(fontsize=8, ncol=3)
    fig.tight_layout()
    fig.savefig(args.o, dpi=120)


if __name__ == "__main__":
    main()
