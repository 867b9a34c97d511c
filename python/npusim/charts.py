"""The charts of npusim: sweeps (lines or a Pareto front), a run's energy per layer, a roofline.

scripts/plot_sweep.py and scripts/plot_energy.py draw with these functions, and so do
Run.plot_layers and SweepResult.plot, so a chart looks the same from the shell and from Python.
matplotlib is imported when a chart is drawn, with the Agg back end unless one is chosen
already (a notebook's inline back end stays).
"""
import math

from .byte_units import byte_size_text, is_byte_valued, label_bytes

# Data movement first (bottom of the stack), then storage next to the datapath, then compute.
ENERGY_ORDER = ["dram", "sram", "register_file", "bus", "dma", "mac", "vector", "min_switch"]


def pyplot():
    import matplotlib

    if "inline" not in matplotlib.get_backend():
        matplotlib.use("Agg")  # files only, no display needed
    import matplotlib.pyplot as plt

    return plt


def save(fig, path):
    """Writes the figure; a fixed date keeps SVG output byte-identical from run to run."""
    fig.tight_layout()
    fig.savefig(path, metadata={"Date": None} if str(path).endswith(".svg") else {})


def finish(fig, output):
    """Saves the figure when an output file is named; returns it either way.

    The figure leaves pyplot's list of open figures: a notebook shows the returned figure
    once (not again as an open one), and a long session does not pile figures up."""
    if output is not None:
        save(fig, output)
    pyplot().close(fig)
    return fig


def number_or_text(value):
    try:
        number = float(value)
    except (TypeError, ValueError):
        return value
    if math.isnan(number):
        return value
    return int(number) if number.is_integer() else number  # ticks read 8, not 8.0


def value_order(value):
    """Sort key: numbers by value (4 before 16), then text."""
    value = number_or_text(value)
    return (isinstance(value, str), value if isinstance(value, str) else float(value))


def ran(row, *columns):
    """A row that ran and has a value in each column (rows are dicts of text, as csv gives)."""
    return row.get("status", "ok") == "ok" and all(str(row[c]) not in ("", "nan") for c in columns)


def _value_text(column, value, byte_columns):
    """A legend's value: bytes as KiB/MiB, anything else as the table has it."""
    number = number_or_text(value)
    return byte_text(number) if is_bytes(column, byte_columns) and not isinstance(number, str) else value


def group_series(rows, x, y, hue, byte_columns=()):
    """{hue value: [(x, y), ...]} over the rows that ran and have a y value, in the
    order of the hue columns' values."""
    series, order = {}, {}
    for row in rows:
        if not ran(row, y):
            continue
        key = ", ".join(f"{h}={_value_text(h, row[h], byte_columns)}" for h in hue) if hue else None
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
        if ran(row, x, y):
            labels.setdefault((float(row[x]), float(row[y])), row[label])
    return labels


def draw_pareto(ax, series, rows, x, y, label=None, byte_columns=()):
    """Every point a dot, the front a step line; returns [(x, y, label text)] of the front."""
    for key, points in series.items():
        xs, ys = zip(*points)
        ax.scatter(xs, ys, s=18, label=key)
    front = pareto_front([(float(px), py) for points in series.values() for px, py in points])
    fx, fy = zip(*front)
    ax.step(fx, fy, where="post", color="black", linewidth=1, label="Pareto front")
    ax.scatter(fx, fy, s=50, facecolors="none", edgecolors="black")
    labels = label_of(rows, x, y, label or "point")
    for px, py in front:
        if label:
            text = _value_text(label, labels[(px, py)], byte_columns)
            ax.annotate(str(text), (px, py), textcoords="offset points", xytext=(4, 4), fontsize=7)
    return [(px, py, labels.get((px, py), "")) for px, py in front]


def byte_text(value):
    """A byte count as the CLI's tables write it (byte_units.byte_size_text): 512 KiB, 1.5 KiB."""
    return byte_size_text(value)


def is_bytes(column, byte_columns=()):
    """Columns that count bytes (byte_units.is_byte_valued: dram_bytes, core.nram.capacity_bytes,
    bytes_read), or listed in byte_columns (an axis named "nram" that sets
    /core/nram/capacity_bytes)."""
    return is_byte_valued(column) or column in byte_columns


def _swept_value_ticks(axis, values, text):
    """Ticks at the swept values (16, not 2^4; 512 KiB for bytes)."""
    import matplotlib.ticker

    axis.set_ticks(sorted(set(values)))
    axis.set_minor_locator(matplotlib.ticker.NullLocator())
    axis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: text(v)))


def set_scales(ax, series, x, y, logx, logy, lines, byte_columns=()):
    """Log scales if asked; byte-valued axes in KiB/MiB/GiB at power-of-two ticks, or (lines on
    a log x) ticks at the swept values."""
    xs = [px for points in series.values() for px, _ in points]
    ys = [py for points in series.values() for _, py in points]
    x_bytes = is_bytes(x, byte_columns) and not any(isinstance(v, str) for v in xs)
    if logx:
        ax.set_xscale("log", base=2)
    if logx and lines:
        _swept_value_ticks(ax.xaxis, xs, byte_text if x_bytes else (lambda v: f"{v:g}"))
    elif x_bytes:
        label_bytes(ax.xaxis, xs, logx)
    if logy:
        ax.set_yscale("log")
    if is_bytes(y, byte_columns):
        label_bytes(ax.yaxis, ys, logy)


def sweep_figure(rows, x, y, hue=(), pareto=False, label=None, logx=False, logy=False, title=None,
                 byte_columns=()):
    """One chart of a sweep's rows: a line per hue value, or (pareto) dots and the front.
    Byte counts (is_bytes) read as KiB/MiB on the axes and in the legend.

    Returns (figure, front) where front lists (x, y, label) of the Pareto points, or [].
    """
    series = group_series(rows, x, y, list(hue), byte_columns)
    if not series:
        raise ValueError(f"no successful rows with a value for '{y}'")
    fig, ax = pyplot().subplots(figsize=(6.4, 4.0), dpi=120)
    front = draw_pareto(ax, series, rows, x, y, label, byte_columns) if pareto else []
    if not pareto:
        for key, points in series.items():
            xs, ys = zip(*points)
            ax.plot(xs, ys, marker="o", label=key)
    set_scales(ax, series, x, y, logx, logy, not pareto, byte_columns)
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    ax.set_title(title or f"{y} vs {x}")
    ax.grid(True, alpha=0.3)
    if pareto:  # beside the plot: a cloud of dots leaves no free corner
        ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1))
    elif hue:
        ax.legend(fontsize=8)
    return fig, front


def energy_classes(layers):
    classes = [c for c in ENERGY_ORDER if any(c in l["classes"] for l in layers)]
    return classes + sorted({c for l in layers for c in l["classes"]} - set(classes))


def _energy_bars(ax, ax_total, energy, colours):
    layers, total = energy["layers"], energy["total_pj"]
    bottom, share_bottom = [0.0] * len(layers), 0.0
    for i, cls in enumerate(energy_classes(layers)):
        uj = [l["classes"].get(cls, 0.0) * 1e-6 for l in layers]
        ax.bar(range(len(layers)), uj, bottom=bottom, width=0.85, color=colours(i), label=cls)
        bottom = [b + u for b, u in zip(bottom, uj)]
        share = 100 * sum(l["classes"].get(cls, 0.0) for l in layers) / total
        ax_total.bar([0], [share], bottom=[share_bottom], color=colours(i))
        if share >= 3:
            ax_total.text(0, share_bottom + share / 2, f"{share:.0f}%", ha="center", va="center", fontsize=8)
        share_bottom += share


def energy_figure(report, title=None):
    """Left: a stacked bar per layer, its energy by component class in µJ; right: each
    class's share of the whole run. report is report.json of a workload run."""
    energy = report.get("energy", {})
    layers = energy.get("layers")
    if not layers:
        raise ValueError("the report has no energy.layers (run a workload with an energy table)")
    plt = pyplot()
    fig, (ax, ax_total) = plt.subplots(1, 2, figsize=(12, 4.8), dpi=120, gridspec_kw={"width_ratios": [14, 1]})
    _energy_bars(ax, ax_total, energy, plt.get_cmap("tab10"))
    step = max(1, len(layers) // 36)
    ax.set_xticks(list(range(len(layers)))[::step])
    ax.set_xticklabels([l["name"] for l in layers][::step], rotation=90, fontsize=7)
    ax.set_xlim(-0.6, len(layers) - 0.4)
    ax.set_ylabel("energy per layer (uJ)")
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=8, ncol=2)
    ax.set_title(title or f"{report['trace']} on {report['config']}: "
                 f"{energy['total_pj'] * 1e-6:.0f} uJ per run, {energy['pj_per_mac']:.2f} pJ/MAC")
    ax_total.set_xticks([0])
    ax_total.set_xticklabels(["whole run"], fontsize=8)
    ax_total.set_ylim(0, 100)
    ax_total.set_ylabel("share (%)")
    return fig


def roofline_figure(report, title=None):
    """Each MAC layer at (MACs per DRAM byte, MACs per cycle), under the chip's roofline:
    min(peak MACs per cycle, DRAM bytes per cycle x intensity), from report.json workload."""
    workload = report.get("workload", {})
    rows = [r for r in workload.get("rows", []) if r.get("macs") and r.get("dram_bytes") and r.get("cycles")]
    if not rows:
        raise ValueError("the report has no workload layer with MACs and DRAM traffic")
    peak, bandwidth = workload["peak_macs_per_cycle"], workload["dram_bytes_per_cycle"]
    intensity = [r["macs"] / r["dram_bytes"] for r in rows]
    achieved = [r["macs"] / r["cycles"] for r in rows]
    fig, ax = pyplot().subplots(figsize=(6.4, 4.4), dpi=120)
    low, high = min(intensity + [peak / bandwidth]) / 2, max(intensity + [peak / bandwidth]) * 2
    knee = peak / bandwidth
    ax.plot([low, knee, high], [bandwidth * low, peak, peak], color="black", linewidth=1, label="roofline")
    # One colour per kind of resource: "channel 2" and "channel 3" are both channel-bound.
    kinds = [r.get("roofline_bound", "").rstrip("0123456789- ") for r in rows]
    for bound in sorted(set(kinds)):
        picked = [i for i, kind in enumerate(kinds) if kind == bound]
        ax.scatter([intensity[i] for i in picked], [achieved[i] for i in picked], s=18, label=f"{bound}-bound layers")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("arithmetic intensity (MACs per DRAM byte)")
    ax.set_ylabel("MACs per cycle")
    ax.set_title(title or f"{report['trace']} on {report['config']}: roofline")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    return fig
