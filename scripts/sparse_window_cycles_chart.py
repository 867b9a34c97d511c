#!/usr/bin/python3
"""How much of the pruned ResNet-50's cycles rests on the assumed `window_cycles`
(docs/sparse-window-cycles.md).

    scripts/sparse_window_cycles_chart.py            # about a minute per chip and value on one core

Runs traces/workloads/resnet50-pruned.json on configs/sparse.json and on
configs/sparse-iso-area.json with /core/sparse/window_cycles set to each value below (timing
mode), draws docs/sparse-window-cycles.png (total cycles and the cycles of the layers on the
cluster, against window_cycles) and writes the table, with the commit that made it, between
the markers of docs/sparse-window-cycles.md. Needs matplotlib, hence /usr/bin/python3.
"""
import argparse
import json
import pathlib
import subprocess

from chart_output import charts, check_output, save
from sparse_iso_area_chart import provenance, write_doc

ROOT = pathlib.Path(__file__).resolve().parents[1]
BEGIN, END = "<!-- sparse-window-cycles:begin (scripts/sparse_window_cycles_chart.py) -->", "<!-- sparse-window-cycles:end -->"
VALUES = [0, 1, 2, 4, 6, 10]
CHIPS = {"sparse.json": "configs/sparse.json", "sparse-iso-area.json": "configs/sparse-iso-area.json"}


def run_point(npusim, out, chip, value, sparse_keys=None):
    """One timing run; returns (total cycles, cycles of the rows on the cluster, VAR windows)."""
    tag = f"{chip.split('.')[0]}-w{value}"
    cfg = out / f"{tag}.json"
    cfg.write_text(json.dumps({"extends": str(ROOT / CHIPS[chip]),
                               "core": {"sparse": sparse_keys or {"window_cycles": value}}}))
    print(f"+ {tag}", flush=True)
    subprocess.run([npusim, "run", "--quiet", "--config", str(cfg), "--workload",
                    str(ROOT / "traces/workloads/resnet50-pruned.json"), "--out", str(out / tag)], check=True)
    report = json.loads((out / tag / "report.json").read_text())
    on_cluster = sum(r["cycles"] for r in report["workload"]["rows"] if r.get("engine") == "sparse")
    windows = sum(u["var_windows"] for layer in report["sparse_layers"] for u in layer["units"])
    return report["total_cycles"], on_cluster, windows


def draw(results, wfold, path):
    plt = charts.pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    ax.axhline(wfold / 1e6, color="C2", linestyle="-.", label="every layer on the Wfold unit (iso-area chip)")
    for i, chip in enumerate(CHIPS):
        xs = [v for (c, v) in results if c == chip]
        ax.plot(xs, [results[(chip, v)][0] / 1e6 for v in xs], marker="o", color=f"C{i}", label=f"{chip}: whole network")
        ax.plot(xs, [results[(chip, v)][1] / 1e6 for v in xs], marker="s", linestyle="--", color=f"C{i}",
                label=f"{chip}: layers on the cluster")
    ax.axvline(2, color="grey", linestyle=":", label="default (2)")
    ax.set_xlabel("window_cycles (cycles per VAR window and output channel)")
    ax.set_ylabel("simulated cycles (millions)")
    ax.set_title("pruned ResNet-50: sensitivity to window_cycles")
    ax.legend(fontsize=7)
    fig.tight_layout()
    save(fig, str(path))


def table(results):
    lines = ["| chip | window_cycles | cycles | cycles on the cluster | VAR windows | vs default |",
             "|---|---|---|---|---|---|"]
    for chip in CHIPS:
        base = results[(chip, 2)][0]
        for (c, v), (total, cluster, windows) in results.items():
            if c == chip:
                lines.append(f"| {chip} | {v} | {total:,} | {cluster:,} | {windows:,} | {total / base:.3f}× |")
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--npusim", default=str(ROOT / "build/npusim"))
    parser.add_argument("--out", default=str(ROOT / "build/sparse-window-cycles"))
    parser.add_argument("--chart", default=str(ROOT / "docs/sparse-window-cycles.png"))
    parser.add_argument("--doc", default=str(ROOT / "docs/sparse-window-cycles.md"), help="'' to leave docs alone")
    args = parser.parse_args()
    check_output(args.chart, "sparse_window_cycles_chart.py")
    made_by = provenance(args.npusim).replace("sparse_iso_area_chart.py", "sparse_window_cycles_chart.py")
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    results = {(chip, v): run_point(args.npusim, out, chip, v) for chip in CHIPS for v in VALUES}
    wfold = run_point(args.npusim, out, "sparse-iso-area.json", "fold", {"sparse_threshold": 1.0})[0]
    draw(results, wfold, args.chart)
    lines = [made_by, ""] + table(results) + ["", f"Every conv and fc layer on the Wfold unit of the iso-area chip: "
                                                 f"{wfold:,} cycles."]
    print("\n".join(lines))
    if args.doc:
        write_doc(pathlib.Path(args.doc), lines, BEGIN, END)


if __name__ == "__main__":
    main()
