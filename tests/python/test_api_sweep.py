"""npusim.sweep: the CLI's sweep, written as a spec; results.csv byte for byte, and resuming."""
import json

import pandas as pd
import pytest

import npusim
from npusim.charts import pareto_front
from conftest import CHECKOUT, cli

AXES = {"/core/matrix/slaves": [8, 16, 32], "/core/matrix/cus_per_slave": [2, 4]}
TINY = "traces/workloads/tiny.json"


def cli_sweep(tmp_path):
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps({"config": str(CHECKOUT / "configs/default.json"), "workload": str(CHECKOUT / TINY),
                                "axes": [{"pointer": p, "values": v} for p, v in AXES.items()]}))
    status, _, err = cli("sweep", spec, "--out", tmp_path / "cli", "--quiet", "--jobs", 2)
    assert status == 0, err
    return tmp_path / "cli" / "results.csv"


def test_a_sweep_equals_the_clis_results_csv(tmp_path):
    expected = cli_sweep(tmp_path)
    result = npusim.sweep("configs/default.json", AXES, workload=TINY, jobs=2, out=tmp_path / "api")
    assert (tmp_path / "api" / "results.csv").read_bytes() == expected.read_bytes()
    pd.testing.assert_frame_equal(pd.DataFrame(result), pd.read_csv(expected))
    assert len(result) == 6 and result.directory == tmp_path / "api"


def test_a_second_sweep_resumes_and_reruns_nothing(tmp_path):
    first = npusim.sweep(None, AXES, workload=TINY, out=tmp_path / "s")
    reports = sorted((tmp_path / "s" / "points").glob("*/report.json"))
    stamps = [p.stat().st_mtime_ns for p in reports]
    (reports[0].parent / "report.json").unlink()  # an interrupted point
    second = npusim.sweep(None, AXES, workload=TINY, out=tmp_path / "s")
    assert [p.stat().st_mtime_ns for p in reports[1:]] == stamps[1:]
    assert reports[0].is_file()
    pd.testing.assert_frame_equal(pd.DataFrame(first), pd.DataFrame(second))
    status, out, _ = cli("sweep", tmp_path / "s.spec" / "spec.json", "--out", tmp_path / "s")
    assert status == 0 and "0 run, 6 skipped" in out


def test_a_chip_object_is_the_base(tmp_path):
    chip = npusim.Chip.load("configs/default.json").set("/core/matrix/cus_per_slave", 8)
    result = npusim.sweep(chip, {"/core/matrix/slaves": [16]}, workload=TINY)
    alone = npusim.run(chip.copy().set("/core/matrix/slaves", 16), TINY)
    assert result.loc[0, "total_cycles"] == alone.cycles and result.directory is None


def test_a_point_with_a_bad_value_fails_as_a_row():
    result = npusim.sweep(None, {"/core/matrix/slaves": [0, 16]}, workload=TINY)
    assert list(result["status"]) == ["failed", "ok"]
    assert "/core/matrix/slaves" in result.loc[0, "error"]


def test_a_bad_spec_raises_the_clis_message():
    with pytest.raises(npusim.InputError) as caught:
        npusim.sweep(None, [{"pointer": "/core/matrix/slaves", "values": []}], workload=TINY)
    assert "axes" in caught.value.place


def test_plot_draws_the_front_no_point_beats(tmp_path):
    result = npusim.sweep(None, AXES, workload=TINY)
    result.plot("total_cycles", "energy_pj", pareto=True, label="index", output=tmp_path / "front.png")
    points = list(zip(result["total_cycles"].astype(float), result["energy_pj"]))
    beaten = {p for p in points for q in points if q != p and q[0] <= p[0] and q[1] <= p[1]}
    assert sorted((x, y) for x, y, _ in result.front) == sorted(set(points) - beaten)
    assert pareto_front(points) == sorted(set(points) - beaten)
    result.plot("core.matrix.slaves", "total_cycles", hue="core.matrix.cus_per_slave", logx=True,
                output=tmp_path / "lines.svg")
    assert (tmp_path / "front.png").stat().st_size and (tmp_path / "lines.svg").stat().st_size
