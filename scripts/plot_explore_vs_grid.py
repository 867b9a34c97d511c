#!/usr/bin/python3
"""The explorer's Pareto front against the full grid's, side by side (docs/exploration.md).

    scripts/plot_explore_vs_grid.py configs/explore/resnet50-6axes.json --work runs/explore-vs-grid \
        -j 2 -o docs/explore-vs-grid.png

Runs `npusim sweep` over every combination of the spec's axis values (cross mode; every axis
must be discrete: a list, a range with a step, or a log range with a base) and `npusim explore`
on the spec itself, both resumable in --work. Both fronts are computed by the same code
(feasible points only, non-dominated on the first two objectives); the script prints each
front and the share of the grid front's hypervolume the explorer reached.
"""
import argparse
import csv
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python"))

import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from npusim import _cli  # noqa: E402
from npusim.exploration import chart, explore, load_spec, tables  # noqa: E402


def grid_values(axis):
    if axis.kind in ("values", "powers"):
        return list(axis.values)
    if axis.kind == "range" and axis.step is not None:
        count = round((axis.high - axis.low) / axis.step) + 1
        return [axis.low + i * axis.step for i in range(count)]
    sys.exit(f"axis {axis.name}: a continuous axis has no grid; give it a step or a base")


def run_grid(spec, work, jobs):
    """The full grid as one cross-mode sweep (resumes in work/grid); its results.csv rows."""
    axes = [{"name": a.name, "pointer": a.pointer, "values": grid_values(a), **({"in": "workload"} if a.in_workload
                                                                                   else {})} for a in spec.axes]
    axes += [{"name": s.name, "pointer": s.pointer, "values": [s.value], **({"in": "workload"} if s.in_workload
                                                                             else {})} for s in spec.settings]
    doc = {"description": f"the full grid of {spec.file}", "config": spec.config, "axes": axes}
    doc.update({"trace": spec.trace} if spec.trace else {"workload": spec.workload})
    (work / "grid.json").write_text(json.dumps(doc, indent=1))
    _cli.call(["sweep", work / "grid.json", "--out", work / "grid", "-j", jobs, "-q"])
    with open(work / "grid" / "results.csv", newline="") as f:
        return list(csv.DictReader(f))


def grid_frame(spec, rows):
    """The grid's rows in the explorer's columns (metrics, feasible), by the spec's metrics."""
    records = []
    for row in rows:
        record = {"trial": int(row["index"]), "state": "complete" if row["status"] == "ok" else "failed"}
        if row["status"] == "ok":
            values = {m.name: m.metric.value(row) for m in spec.objectives + spec.constraints}
            record.update(values)
            record["feasible"] = all(c.violation(values[c.name]) == 0 for c in spec.constraints)
        else:
            record["feasible"] = False
        records.append(record)
    return pd.DataFrame(records)


def hypervolume(front, objectives, reference):
    """Area dominated by a 2-objective front (both minimised) up to the reference point."""
    x, y = objectives[0].name, objectives[1].name
    points = sorted(zip(front[x], front[y]))
    area, previous_y = 0.0, reference[1]
    for px, py in points:
        if py < previous_y:
            area += (reference[0] - px) * (previous_y - py)
            previous_y = py
    return area


def describe(name, frame, front, objectives):
    x, y = objectives[0].name, objectives[1].name
    print(f"{name}: {len(frame)} points, {int(frame['feasible'].sum())} feasible, front {len(front)}:")
    for _, r in front.sort_values(x).iterrows():
        print(f"  {x}={r[x]:.6g} {y}={r[y]:.6g}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("spec")
    parser.add_argument("--work", required=True, help="folder of the grid sweep and the exploration (resumable)")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("-o", "--output", required=True, help="chart (PNG or SVG)")
    args = parser.parse_args()
    spec = load_spec(args.spec)
    if any(o.direction != "minimize" for o in spec.objectives[:2]):
        sys.exit("the chart compares fronts of two minimised objectives")
    work = pathlib.Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    grid = grid_frame(spec, run_grid(spec, work, args.jobs))
    grid_front = tables.pareto_frame(spec, grid)
    found = explore(args.spec, out=work / "explore", jobs=args.jobs)
    describe("grid", grid, grid_front, spec.objectives)
    describe("explore", found.trials, found.pareto, spec.objectives)
    feasible = grid[grid["feasible"]]
    reference = [feasible[o.name].max() * 1.05 for o in spec.objectives[:2]]
    share = hypervolume(found.pareto, spec.objectives, reference) / hypervolume(grid_front, spec.objectives, reference)
    designs = int(found.trials["same_as"].isna().sum())
    print(f"explore reaches {share:.1%} of the grid front's hypervolume with {len(found.trials)} trials, "
          f"{designs} designs simulated of the grid's {len(grid)}")
    on_grid_front = found.pareto.merge(grid_front[[o.name for o in spec.objectives]], how="inner")
    print(f"{len(on_grid_front)} of the explorer's {len(found.pareto)} front designs are on the grid's front "
          f"({len(grid_front)} designs)")
    plot(spec, grid, grid_front, found, share, args.output)


def plot(spec, grid, grid_front, found, share, output):
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 5), sharex=True, sharey=True)
    chart.draw_front(left, grid, grid_front, spec.objectives, label="grid front")
    left.set_title(f"full grid: {len(grid)} chips simulated", fontsize="medium")
    chart.draw_front(right, found.trials, found.pareto, spec.objectives, label=f"{spec.method} front")
    x, y = spec.objectives[0].name, spec.objectives[1].name
    g = grid_front.sort_values(x)
    right.step(g[x], g[y], where="post", color="black", linestyle="--", linewidth=1, label="grid front")
    right.legend(fontsize="small")
    designs = int(found.trials["same_as"].isna().sum())
    right.set_title(f"{spec.method.upper()}: {len(found.trials)} trials, {designs} chips simulated "
                    f"({designs / len(grid):.1%} of the grid); {share:.1%} of its hypervolume", fontsize="medium")
    limits = ", ".join(f"{c.name} <= {c.high:g} {c.metric.unit}".rstrip() for c in spec.constraints
                       if c.high is not None)
    fig.suptitle(f"{pathlib.Path(spec.file).stem}: minimise {x} and {y}" + (f", {limits}" if limits else ""))
    fig.tight_layout()
    fig.savefig(output, dpi=110)


if __name__ == "__main__":
    main()
