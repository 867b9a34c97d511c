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

from chart_output import charts, check_output, save


def main():
    parser = argparse.ArgumentParser(description="Plot the per-layer energy of an npusim workload run")
    parser.add_argument("report", help="report.json of `npusim run --workload ...`")
    parser.add_argument("-o", "--output", required=True, help="chart file, .png or .svg")
    parser.add_argument("--title", help="chart title (default: the workload and config)")
    args = parser.parse_args()
    check_output(args.output, "plot_energy.py")
    with open(args.report) as f:
        report = json.load(f)
    try:
        fig = charts.energy_figure(report, args.title)
    except ValueError as e:
        sys.exit(f"plot_energy.py: {args.report}: {e}")
    save(fig, args.output)


if __name__ == "__main__":
    main()
