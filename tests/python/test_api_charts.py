"""npusim.charts: the sweep and run charts of the API and of scripts/plot_sweep.py, with byte
counts written as KiB/MiB."""
import subprocess
import sys

import npusim
from npusim.charts import byte_text, pareto_front
from conftest import CHECKOUT

TINY = "traces/workloads/tiny.json"


def test_byte_counts_read_as_kib_and_mib():
    assert [byte_text(v) for v in (100, 1024, 1536, 65536, 524288, 1 << 20, 3 << 29, 1 << 30)] == [
        "100 B", "1 KiB", "1.5 KiB", "64 KiB", "512 KiB", "1 MiB", "1.5 GiB", "1 GiB"]


def test_the_front_is_every_point_no_other_beats():
    points = [(3, 1), (1, 3), (2, 2), (2, 3), (3, 3), (1, 4), (4, 0.5)]
    brute = sorted(p for p in set(points)
                   if not any(q != p and q[0] <= p[0] and q[1] <= p[1] for q in points))
    assert pareto_front(points) == brute == [(1, 3), (2, 2), (3, 1), (4, 0.5)]


def tick_texts(axis):
    axis.figure.canvas.draw()
    return [t.get_text() for t in axis.get_ticklabels() if t.get_text()]


def test_a_byte_axis_of_a_sweep_is_charted_in_kib():
    axes = [{"name": "nram", "pointer": "/core/nram/capacity_bytes", "values": [262144, 524288, 1048576]},
            {"name": "wram", "pointer": "/core/wram/capacity_bytes", "values": [262144, 524288]}]
    result = npusim.sweep(None, axes, workload=TINY)
    fig = result.plot("nram", "total_cycles", hue="wram", logx=True)
    assert tick_texts(fig.axes[0].xaxis) == ["256 KiB", "512 KiB", "1 MiB"]
    assert [t.get_text() for t in fig.axes[0].get_legend().get_texts()] == ["wram=256 KiB", "wram=512 KiB"]
    assert not any("KiB" in t for t in tick_texts(fig.axes[0].yaxis))  # cycles stay numbers


def test_plot_sweep_script_draws_from_the_package(tmp_path):
    result = npusim.sweep(None, {"/core/nram/capacity_bytes": [262144, 524288]}, workload=TINY, out=tmp_path / "s")
    script = CHECKOUT / "scripts" / "plot_sweep.py"
    done = subprocess.run([sys.executable, script, tmp_path / "s" / "results.csv", "-x", "total_cycles", "-y",
                           "energy_pj", "--pareto", "--label", "core.nram.capacity_bytes", "-o", tmp_path / "f.png"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    front = pareto_front(list(zip(result["total_cycles"].astype(float), result["energy_pj"])))
    assert done.stdout.count("front: ") == len(front) and (tmp_path / "f.png").stat().st_size > 0
