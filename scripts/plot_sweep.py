#!/usr/bin/python3
"""Draws one chart from an `npusim sweep` results.csv.

    scripts/plot_sweep.py results.csv -x AXIS -y METRIC [--hue AXIS] [--logx] [--logy] -o chart.png|chart.svg

One line per value of the --hue column, or per combination of several comma-separated
--hue columns (or a single line), points sorted by the
x column; failed rows are left out. The output format follows the file
extension (.png or .svg). Needs matplotlib: Debian's python3-matplotlib, which
scripts/setup.sh installs, hence /usr/bin/python3 rather than the first python3
on PATH.
"""
import argparse
import csv
import sys


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


def group_series(rows, x, y, hue):
    """{hue value: [(x, y), ...]} over the rows that ran and have a y value."""
    series = {}
    for row in rows:
        if row.get("status", "ok") != "ok" or row[y] == "":
            continue
        key = ", ".join(f"{h}={row[h]}" for h in hue) if hue else None
        series.setdefault(key, []).append((number_or_text(row[x]), float(row[y])))
    for points in series.values():
        points.sort(key=lambda p: (isinstance(p[0], str), p[0]))
    return series


def main():
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
    args = parser.parse_args()

    if not args.output.endswith((".png", ".svg")):
        sys.exit("plot_sweep.py: the output must end in .png or .svg")
    columns, rows = read_rows(args.results)
    hue = args.hue.split(",") if args.hue else []
    for column in [args.x, args.y] + hue:
        if column not in columns:
            sys.exit(f"plot_sweep.py: {args.results} has no column '{column}'; columns: {', '.join(columns)}")
    series = group_series(rows, args.x, args.y, hue)
    if not series:
        sys.exit(f"plot_sweep.py: no successful rows with a value for '{args.y}'")

    import matplotlib

    matplotlib.use("Agg")  # files only, no display needed
    import matplotlib.pyplot as plt
    import matplotlib.ticker

    fig, ax = plt.subplots(figsize=(6.4, 4.0), dpi=120)
    for key in sorted(series, key=lambda k: (k is None, k or "")):
        xs, ys = zip(*series[key])
        ax.plot(xs, ys, marker="o", label=key)
    if args.logx:
        ax.set_xscale("log", base=2)
        # Tick at the swept values, written plainly (16, not 2^4).
        ax.set_xticks(sorted({x for points in series.values() for x, _ in points}))
        ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g}"))
        ax.xaxis.set_minor_locator(matplotlib.ticker.NullLocator())
    if args.logy:
        ax.set_yscale("log")
    ax.set_xlabel(args.x)
    ax.set_ylabel(args.y)
    ax.set_title(args.title or f"{args.y} vs {args.x}")
    ax.grid(True, alpha=0.3)
    if args.hue:
        ax.legend()
    fig.tight_layout()
    # A fixed date keeps SVG output byte-identical from run to run.
    metadata = {"Date": None} if args.output.endswith(".svg") else {}
    fig.savefig(args.output, metadata=metadata)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
