#!/usr/bin/python3
"""The Wfold matrix unit against the sparse cluster of the same area (docs/sparse-iso-area.md).

    scripts/sparse_iso_area_chart.py                     # everything: about 5 minutes on one core
    scripts/sparse_iso_area_chart.py --no-networks       # the layer chart only
    scripts/sparse_iso_area_chart.py --reuse             # after an interruption: keep what finished

1. Runs the sweep configs/sweeps/sparse-iso-area.json (three layer shapes forced onto one
   engine or the other, across the input map's zeros) and draws docs/sparse-iso-area.png:
   per layer, cycles and energy against zeros, with the crossover marked where the curves cross.
2. Runs pruned ResNet-50 and pruned MobileNetV2 end to end on configs/sparse-iso-area.json
   with every conv/fc layer on the Wfold unit, with the seed's verdict rule and with auto-cost
   placement (cycles, then energy), and on configs/sparse.json with the verdict rule.
3. Writes the tables, with the commit that produced them, between the markers of
   docs/sparse-iso-area.md.
Needs matplotlib (Debian's python3-matplotlib), hence /usr/bin/python3.
"""
import argparse
import csv
import json
import pathlib
import subprocess
import sys

from chart_output import charts, check_output, save

ROOT = pathlib.Path(__file__).resolve().parents[1]
BEGIN, END = "<!-- sparse-iso-area:begin (scripts/sparse_iso_area_chart.py) -->", "<!-- sparse-iso-area:end -->"
NETWORKS = ["resnet50-pruned", "mobilenetv2-pruned"]


def run(cmd):
    print("+", " ".join(str(c) for c in cmd), flush=True)
    subprocess.run([str(c) for c in cmd], check=True)


def layer_rows(sweep_dir):
    """One row per (point, layer): engine, zeros, layer, cycles, energy_pj."""
    rows = []
    with open(sweep_dir / "results.csv", newline="") as f:
        points = [sweep_dir / "points" / r["point"] for r in csv.DictReader(f)]  # this spec's points only
    for point in points:
        report_path = point / "report.json"
        if not report_path.exists():
            sys.exit(f"sparse_iso_area_chart.py: point {point.name} failed: {(point / 'error.txt').read_text()}")
        values = json.loads((point / "point.json").read_text())["axes"]
        report = json.loads(report_path.read_text())
        energy = {layer["name"]: layer["total_pj"] for layer in report["energy"]["layers"]}
        for layer in report["workload"]["rows"]:
            rows.append({"engine": values["engine"], "weights": float(values["weight_zeros"]),
                         "zeros": float(values["ifm_zeros"]), "layer": layer["name"], "cycles": layer["cycles"],
                         "energy_pj": energy[layer["name"]]})
    return rows


def crossover(points):
    """The zero fraction where the sparse cluster's curve meets the Wfold unit's, by linear
    interpolation between swept points; None when it never does in the range."""
    for (z0, d0), (z1, d1) in zip(points, points[1:]):
        if d0 > 0 >= d1:
            return z0 + (z1 - z0) * d0 / (d0 - d1)
    return 0.0 if points and points[0][1] <= 0 else None


def series(rows, layer, engine, metric, weights=0.0):
    picked = sorted((r["zeros"], r[metric]) for r in rows
                    if r["layer"] == layer and r["engine"] == engine and r["weights"] == weights)
    return [p[0] for p in picked], [p[1] for p in picked]


def weight_levels(rows):
    return sorted({r["weights"] for r in rows})


def crossings(rows, layers):
    """Per layer, metric and weight zeros: the crossover input-zero fraction (or None)."""
    found = {}
    for layer in layers:
        for metric in ("cycles", "energy_pj"):
            for w in weight_levels(rows):
                zs, dense = series(rows, layer, "matrix", metric, w)
                _, sparse = series(rows, layer, "sparse", metric, w)
                found[(layer, metric, w)] = crossover([(z, s - d) for z, s, d in zip(zs, sparse, dense)])
    return found


def draw(rows, layers, found, path):
    plt = charts.pyplot()
    fig, axes = plt.subplots(2, len(layers), figsize=(4.2 * len(layers), 7), squeeze=False)
    for col, layer in enumerate(layers):
        for row, (metric, label) in enumerate((("cycles", "cycles"), ("energy_pj", "energy (µJ)"))):
            ax = axes[row][col]
            scale = 1e-6 if metric == "energy_pj" else 1
            # The Wfold unit forms every product, zero or not: one line serves every weight level.
            zs, ys = series(rows, layer, "matrix", metric)
            ax.plot([100 * z for z in zs], [y * scale for y in ys], marker="o", color="C0", label="Wfold unit")
            notes = []
            for i, w in enumerate(weight_levels(rows)):
                zs, ys = series(rows, layer, "sparse", metric, w)
                ax.plot([100 * z for z in zs], [y * scale for y in ys], marker="o", color=f"C{i + 1}",
                        label=f"sparse cluster (iso-area), {100 * w:.0f} % zero weights")
                z = found[(layer, metric, w)]
                if z is not None:
                    ax.axvline(100 * z, color=f"C{i + 1}", linestyle="--")
                notes.append(f"{100 * w:.0f} % weights: " + ("no crossover" if z is None else f"crossover {100 * z:.0f} %"))
            ax.set_yscale("log")
            ax.set_xlabel("input-map zeros (%)")
            ax.set_ylabel(label)
            ax.annotate("\n".join(notes), (0.03, 0.04), xycoords="axes fraction", fontsize=7)
            if row == 0:
                ax.set_title(layer)
    fig.legend(*axes[0][0].get_legend_handles_labels(), loc="lower center", ncol=3, fontsize=8)
    fig.tight_layout(rect=(0, 0.06, 1, 1))
    save(fig, str(path))


def network_runs(npusim, out, reuse):
    """Each pruned network on each chip and placement rule: total cycles, energy, DRAM bytes,
    and how many layers ran on the cluster."""
    iso, today = str(ROOT / "configs/sparse-iso-area.json"), str(ROOT / "configs/sparse.json")
    variants = [
        ("iso-area, all on Wfold", "iso-wfold", {"extends": iso, "core": {"sparse": {"sparse_threshold": 1.0}}}),
        ("iso-area, verdict (seed rule)", "iso-verdict", {"extends": iso}),
        ("iso-area, auto-cost", "iso-auto-cost", {"extends": iso, "core": {"sparse": {"placement": "auto-cost"}}}),
        ("iso-area, auto-cost-energy", "iso-auto-energy",
         {"extends": iso, "core": {"sparse": {"placement": "auto-cost-energy"}}}),
        ("sparse.json, verdict (seed rule)", "sparse-verdict", {"extends": today}),
    ]
    results = []
    for network in NETWORKS:
        for name, slug, config in variants:
            tag = f"{network}-{slug}"
            cfg = out / f"{tag}.json"
            if not (reuse and (out / tag / "report.json").exists()):
                cfg.write_text(json.dumps(config))
                run([npusim, "run", "--quiet", "--config", cfg, "--workload",
                     ROOT / f"traces/workloads/{network}.json", "--out", out / tag])
            report = json.loads((out / tag / "report.json").read_text())
            dram = sum(ch["bytes_read"] + ch["bytes_written"] for ch in report["dram_channels"])
            on_sparse = sum(1 for r in report["workload"]["rows"] if r.get("engine") == "sparse")
            with open(out / tag / "instructions.csv", newline="") as f:
                compresses = sum(1 for row in csv.DictReader(f) if row["op"] == "compress")
            skipped = sum(g.get("dram_bytes_skipped", 0) for name, g in report["stats"].items()
                          if name.endswith(".sparse"))
            results.append({"network": network, "variant": name, "cycles": report["total_cycles"],
                            "energy_mj": report["energy"]["total_pj"] * 1e-9, "dram_mb": dram / 1e6,
                            "on_sparse": on_sparse, "compresses": compresses, "skipped_mb": skipped / 1e6})
    return results


def layer_table(rows, layers, found):
    levels = weight_levels(rows)
    head = " | ".join(f"sparse cycles, {100 * w:.0f} % zero weights" for w in levels)
    energy_head = " | ".join(f"sparse µJ, {100 * w:.0f} %" for w in levels)
    lines = [f"| layer | input zeros | Wfold cycles | {head} | Wfold µJ | {energy_head} |",
             "|---|---|---|" + "---|" * len(levels) + "---|" + "---|" * len(levels)]
    for layer in layers:
        zs, dc = series(rows, layer, "matrix", "cycles")
        _, de = series(rows, layer, "matrix", "energy_pj")
        sc = [series(rows, layer, "sparse", "cycles", w)[1] for w in levels]
        se = [series(rows, layer, "sparse", "energy_pj", w)[1] for w in levels]
        for i, z in enumerate(zs):
            cycles = " | ".join(f"{c[i]:,}" for c in sc)
            energy = " | ".join(f"{e[i] * 1e-6:,.1f}" for e in se)
            lines.append(f"| {layer} | {100 * z:.0f} % | {dc[i]:,} | {cycles} | {de[i] * 1e-6:,.1f} | {energy} |")
    lines += ["", "| layer | zero weights | cycles crossover | energy crossover |", "|---|---|---|---|"]
    text = lambda z: "none in 0–95 %" if z is None else f"{100 * z:.0f} % input zeros"  # noqa: E731
    for layer in layers:
        for w in levels:
            lines.append(f"| {layer} | {100 * w:.0f} % | {text(found[(layer, 'cycles', w)])} | "
                         f"{text(found[(layer, 'energy_pj', w)])} |")
    return lines


def network_table(results):
    lines = ["| network | chip and placement | cycles | energy (mJ) | DRAM (MB) | layers on the cluster | "
             "compress ops | MB that skipped DRAM (¶84) |",
             "|---|---|---|---|---|---|---|---|"]
    for r in results:
        lines.append(f"| {r['network']} | {r['variant']} | {r['cycles']:,} | {r['energy_mj']:.2f} | "
                     f"{r['dram_mb']:.1f} | {r['on_sparse']} | {r['compresses']} | {r['skipped_mb']:.2f} |")
    return lines


def provenance(npusim):
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.strip()
    return f"Made by `scripts/sparse_iso_area_chart.py` at commit {commit}{' (with local changes)' if dirty else ''}."


def write_doc(doc, lines, begin=BEGIN, end=END):
    """Replaces what stands between the markers `begin` and `end` of `doc` with `lines`."""
    text = doc.read_text()
    first, last = text.find(begin), text.find(end)
    if first < 0 or last < first:
        sys.exit(f"{doc} has no {begin} ... {end} block")
    doc.write_text(text[:first + len(begin)] + "\n" + "\n".join(lines) + "\n" + text[last:])
    print(f"wrote {doc}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--npusim", default=str(ROOT / "build/npusim"))
    parser.add_argument("--spec", default=str(ROOT / "configs/sweeps/sparse-iso-area.json"))
    parser.add_argument("--out", default=str(ROOT / "build/sparse-iso-area"), help="working directory (sweep and runs; default build/sparse-iso-area)")
    parser.add_argument("--chart", default=str(ROOT / "docs/sparse-iso-area.png"))
    parser.add_argument("--doc", default=str(ROOT / "docs/sparse-iso-area.md"), help="'' to leave docs alone")
    parser.add_argument("--no-networks", action="store_true", help="only the layer sweep and its chart")
    parser.add_argument("-j", "--jobs", default="1")
    parser.add_argument("--reuse", action="store_true",
                        help="keep network runs already in --out (the sweep always resumes its finished points)")
    args = parser.parse_args()
    check_output(args.chart, "sparse_iso_area_chart.py")
    made_by = provenance(args.npusim)  # before this script rewrites its own outputs
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    run([args.npusim, "sweep", args.spec, "--out", out / "layers", "-j", args.jobs, "--quiet"])
    rows = layer_rows(out / "layers")
    layers = list(dict.fromkeys(r["layer"] for r in rows))
    found = crossings(rows, layers)
    draw(rows, layers, found, args.chart)
    lines = [made_by, ""] + layer_table(rows, layers, found)
    if not args.no_networks:
        lines += [""] + network_table(network_runs(args.npusim, out, args.reuse))
    with open(out / "layers.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    print("\n".join(lines))
    if args.doc:
        write_doc(pathlib.Path(args.doc), lines)


if __name__ == "__main__":
    main()
