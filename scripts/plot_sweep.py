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

from chart_output import charts, check_output, save


def read_rows(path):
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        rows = list(reader)
        return reader.fieldnames or [], rows


def shown(column, value):
    """A value of `column` for people: 512 KiB for a byte count, else 8 rather than 8.0."""
    return charts.byte_text(value) if charts.is_bytes(column) else f"{value:g}"


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
    parser.add_argument("--pareto", action="store_true",
                        help="dots instead of lines, and the Pareto front (lower x and lower y are better)")
    parser.add_argument("--label", help="with --pareto: column written next to each point of the front")
    args = parser.parse_args()

    check_output(args.output, "plot_sweep.py")
    columns, rows = read_rows(args.results)
    if args.label and not args.pareto:
        sys.exit("plot_sweep.py: --label goes with --pareto")
    hue = args.hue.split(",") if args.hue else []
    for column in [args.x, args.y] + hue + ([args.label] if args.label else []):
        if column not in columns:
            sys.exit(f"plot_sweep.py: {args.results} has no column '{column}'; columns: {', '.join(columns)}")
    try:
        fig, front = charts.sweep_figure(rows, args.x, args.y, hue, args.pareto, args.label,
                                         args.logx, args.logy, args.title)
    except ValueError as e:
        sys.exit(f"plot_sweep.py: {e}")
    for x, y, label in front:
        print(f"front: {args.x}={shown(args.x, x)} {args.y}={shown(args.y, y)} {label}")
    save(fig, args.output)


if __name__ == "__main__":
    main()
