#!/usr/bin/python3
"""Draws one chart from an `npusim sweep` results.csv.

    scripts/plot_sweep.py results.csv -x AXIS -y METRIC [--hue AXIS] [--logx] [--logy] -o chart.png|chart.svg
    scripts/plot_sweep.py results.csv -x total_cycles -y energy_pj --pareto [--hue AXIS] [--label COLUMN] -o front.png

One line per value of the --hue column, or per combination of several comma-separated
--hue columns (or a single line), points sorted by the
x column; failed rows are left out. With --pareto every point is a dot (coloured
by --hue) and the Pareto front, the points no other point beats on both x and y
(lower is better on both), is drawn as a step line and printed, one point a line;
--label writes a column's value next to each point of the front. The output format follows the file
extension (.png or .svg). Needs matplotlib: Debian's python3-matplotlib, which
`scripts/setup.sh python` installs, hence /usr/bin/python3 rather than the first python3
on PATH.
"""
import argparse
import csv
import sys

from byte_units import byte_size_text, is_byte_valued, label_bytes
from chart_output import check_output, save


def number_or_text(value):
    try:
        number = float(value)
    except ValueError:
        return value
    return int(number) if number.is_integer() else number  # ticks read 8, not 8.0


def read_rows(path):
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        rows = list(reader)
        return reader.fieldnames or [], rows


def value_order(value):
    """Sort key: numbers by value (4 before 16), then text."""
    value = number_or_text(value)
    return (isinstance(value, str), value)


def group_series(rows, x, y, hue):
    """{hue value: [(x, y), ...]} over the rows that ran and have a y value, in the
    order of the hue columns' values."""
    series, order = {}, {}
    for row in rows:
        if row.get("status", "ok") != "ok" or row[y] == "":
            continue
        key = ", ".join(f"{h}={row[h]}" for h in hue) if hue else None
        order[key] = tuple(value_order(row[h]) for h in hue)
        series.setdefault(key, []).append((number_or_text(row[x]), float(row[y])))
    for points in series.values():
        points.sort(key=lambda p: (isinstance(p[0], str), p[0]))
    return {key: series[key] for key in sorted(series, key=order.get)}


def pareto_front(points):
    """The (x, y) points no other point matches or beats on both, sorted by x."""
    front = []
    for x, y in sorted(set(points)):
        if not front or y < front[-1][1]:
            front.append((x, y))
    return front


def label_of(rows, x, y, label):
    """(x value, y value) -> the label column of the first row with them."""
    labels = {}
    for row in rows:
        if row.get("status", "ok") == "ok" and row[x] != "" and row[y] != "":
            labels.setdefault((float(row[x]), float(row[y])), row[label])
    return labels


def shown(column, value):
    """A value of `column` for people: 512 KiB for a byte count, else 8 rather than 8.0."""
    return byte_size_text(value) if is_byte_valued(column) else f"{value:g}"


def draw_pareto(ax, series, rows, args):
    for key, points in series.items():
        xs, ys = zip(*points)
        ax.scatter(xs, ys, s=18, label=key)
    front = pareto_front([(float(x), y) for points in series.values() for x, y in points])
    fx, fy = zip(*front)
    ax.step(fx, fy, where="post", color="black", linewidth=1, label="Pareto front")
    ax.scatter(fx, fy, s=50, facecolors="none", edgecolors="black")
    labels = label_of(rows, args.x, args.y, args.label or "point")
    for x, y in front:
        print(f"front: {args.x}={shown(args.x, x)} {args.y}={shown(args.y, y)} {labels.get((x, y), '')}")
        if args.label:
            ax.annotate(str(labels[(x, y)]), (x, y), textcoords="offset points", xytext=(4, 4), fontsize=7)


def parse_args():
    parser = argparse.ArgumentParser(description="Plot a column of an npusim sweep results.csv")
    parser.add_argument("results", help="results.csv written by npusim sweep")
    parser.add_argument("-x", required=True, help="column for the x axis (usually a sweep axis)")
    parser.add_argument("-y", required=True, help="metric column, e.g. total_cycles or mac_utilization")
    parser.add_argument("--hue", help="column whose values get one line each; several, comma-separated: "
                        "one line per combination")
    parser.add_argument("-o", "--output", required=True, help="chart file, .png or .svg")
    parser.add_argument("--title", help="chart title (default: Y vs X)")
    parser.add_argument("--logx", action="store_true", help="logarithmic x axis (base 2)")
    parser.add_argument("--logy", action="store_true", help="logarithmic y axis (base 10)")
    parser.add_argument("--pareto", action="store_true",
                        help="dots instead of lines, and the Pareto front (lower x and lower y are better)")
    parser.add_argument("--label", help="with --pareto: column written next to each point of the front")
    return parser.parse_args()


def load_series(args):
    """The rows of results.csv and their series, after checking the columns exist."""
    check_output(args.output, "plot_sweep.py")
    columns, rows = read_rows(args.results)
    if args.label and not args.pareto:
        sys.exit("plot_sweep.py: --label goes with --pareto")
    hue = args.hue.split(",") if args.hue else []
    for column in [args.x, args.y] + hue + ([args.label] if args.label else []):
        if column not in columns:
            sys.exit(f"plot_sweep.py: {args.results} has no column '{column}'; columns: {', '.join(columns)}")
    series = group_series(rows, args.x, args.y, hue)
    if not series:
        sys.exit(f"plot_sweep.py: no successful rows with a value for '{args.y}'")
    return rows, series


def swept_value_ticks(ax, xs, text):
    """x ticks at the swept values, written by `text` (16, not 2^4; 512 KiB for bytes)."""
    import matplotlib.ticker

    ax.set_xticks(sorted(set(xs)))
    ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: text(v)))
    ax.xaxis.set_minor_locator(matplotlib.ticker.NullLocator())


def set_scales(ax, series, args):
    """Log scales if asked; byte-valued axes (capacity_bytes, dram_bytes) in KiB, MiB, GiB."""
    xs = [x for points in series.values() for x, _ in points]
    ys = [y for points in series.values() for _, y in points]
    x_bytes = is_byte_valued(args.x) and not any(isinstance(x, str) for x in xs)
    if args.logx:
        ax.set_xscale("log", base=2)
    if args.logx and not args.pareto:
        swept_value_ticks(ax, xs, byte_size_text if x_bytes else (lambda v: f"{v:g}"))
    elif x_bytes:
        label_bytes(ax.xaxis, xs, args.logx)
    if args.logy:
        ax.set_yscale("log")
    if is_byte_valued(args.y):
        label_bytes(ax.yaxis, ys, args.logy)


def main():
    args = parse_args()
    rows, series = load_series(args)

    import matplotlib

    matplotlib.use("Agg")  # files only, no display needed
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4.0), dpi=120)
    if args.pareto:
        draw_pareto(ax, series, rows, args)
    else:
        for key, points in series.items():
            xs, ys = zip(*points)
            ax.plot(xs, ys, marker="o", label=key)
    set_scales(ax, series, args)
    ax.set_xlabel(args.x)
    ax.set_ylabel(args.y)
    ax.set_title(args.title or f"{args.y} vs {args.x}")
    ax.grid(True, alpha=0.3)
    if args.pareto:  # beside the plot: a cloud of dots leaves no free corner
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1))
    elif args.hue:
        ax.legend(fontsize=8)
    save(fig, args.output)


if __name__ == "__main__":
    main()
