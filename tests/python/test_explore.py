"""npusim explore / npusim.explore: reproducible, resumable, and honest about constraints.

Small on purpose: one 3x3 conv layer, a few trials, so each exploration takes seconds.
Run: /usr/bin/python3 -m pytest tests/python/test_explore.py (ctest: python_explore).
"""
import json
import os
import pathlib
import signal
import subprocess
import sys
import time

import pandas as pd
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))

import npusim.exploration as exploration  # noqa: E402
from npusim.errors import InputError  # noqa: E402

# One conv whose input rows need a few KiB of NRAM: small NRAM values cannot run it.
LAYER = {"name": "conv-layer", "input": {"h": 16, "w": 16, "c": 64},
         "layers": [{"name": "conv1", "type": "conv", "co": 64, "k": 3, "padding": 1, "relu": True}]}


def write_spec(folder, **changes):
    """A small spec in folder (with its workload); changes replace top-level keys."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "layer.json").write_text(json.dumps(LAYER))
    spec = {"config": str(ROOT / "configs/default.json"), "workload": "layer.json",
            "axes": [{"name": "slaves", "pointer": "/core/matrix/slaves", "log": [2, 32], "base": 2},
                     {"name": "cus", "pointer": "/core/matrix/cus_per_slave", "range": [1, 8]},
                     {"name": "nram", "pointer": "/core/nram/capacity_bytes", "log": [1024, 262144], "base": 2}],
            "objectives": ["cycles", "area"], "constraints": [{"metric": "area", "max": 2.0}],
            "method": "tpe", "trials": 8, "batch": 4, "seed": 5}
    spec.update(changes)
    path = folder / "spec.json"
    path.write_text(json.dumps(spec, indent=1))
    return path


def trial_table(result):
    """The trials without what names the folders they ran in (the point, the workload's
    path in a failed run's message)."""
    table = result.trials.drop(columns=["point"])
    table["error"] = table["error"].str.replace(r"^\S*/layer\.json: ", "layer.json: ", regex=True)
    return table


@pytest.mark.parametrize("method", ["random", "tpe", "nsga2"])
def test_same_seed_gives_the_same_trials(tmp_path, method):
    spec = write_spec(tmp_path, method=method)
    first = exploration.explore(spec, out=tmp_path / "a", jobs=2)
    second = exploration.explore(spec, out=tmp_path / "b", jobs=1)
    other = exploration.explore(spec, out=tmp_path / "c", seed=6, jobs=2)
    assert len(first.trials) == 8 and (first.trials["state"] != "running").all()
    pd.testing.assert_frame_equal(trial_table(first), trial_table(second))
    axes = ["slaves", "cus", "nram"]
    assert not first.trials[axes].equals(other.trials[axes]), "another seed should sample other points"


def _explorer(spec, out):
    env = dict(os.environ, PYTHONPATH=str(ROOT / "python"))
    return subprocess.Popen([sys.executable, "-m", "npusim.exploration", str(spec), "--out", str(out), "-j", "1",
                             "--quiet"], env=env, start_new_session=True)


def _finished_points(out):
    return len(list(pathlib.Path(out).glob("batches/*/points/*/report.json")))


def _stop(child, out, how):
    if how == "SIGKILL to all":
        os.killpg(child.pid, signal.SIGKILL)  # the explorer, its sweep and its runs, mid-batch
        child.wait()
        return
    child.send_signal(signal.SIGTERM)  # the explorer alone: it stops its sweep, then itself
    assert child.wait(timeout=60) == 128 + signal.SIGTERM
    left = subprocess.run(["pgrep", "-f", str(out)], capture_output=True, text=True).stdout.split()
    assert left == [], "the sweep and its runs end with the explorer"


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    """The 12-trial exploration the interrupted ones must end up equal to."""
    folder = tmp_path_factory.mktemp("uninterrupted")
    return exploration.explore(write_spec(folder, trials=12, batch=4), out=folder / "whole", jobs=2)


@pytest.mark.parametrize("how", ["SIGKILL to all", "SIGTERM to the explorer"])
def test_resume_after_a_kill_loses_no_trial(tmp_path, how, uninterrupted):
    spec = write_spec(tmp_path, trials=12, batch=4)
    reference = uninterrupted
    out = tmp_path / "killed"
    child = _explorer(spec, out)
    deadline = time.time() + 120
    while _finished_points(out) < 6 and child.poll() is None and time.time() < deadline:
        time.sleep(0.05)
    _stop(child, out, how)
    told_before = pd.read_csv(out / "trials.csv")
    assert 0 < len(told_before) < 12, "the kill should land in the middle of the exploration"
    resumed = exploration.explore(spec, out=out, jobs=2)
    pd.testing.assert_frame_equal(trial_table(resumed), trial_table(reference))
    assert sorted(resumed.trials["trial"]) == list(range(12))
    kept = resumed.trials.set_index("trial").loc[told_before["trial"], ["slaves", "cus", "nram"]]
    assert (kept.to_numpy() == told_before[["slaves", "cus", "nram"]].to_numpy()).all()


def brute_force_front(rows, objectives):
    """The feasible rows no other feasible row dominates, by plain loops (minimised objectives)."""
    feasible = [r for r in rows if r["feasible"]]
    front = []
    for r in feasible:
        beaten = any(all(o[k] <= r[k] for k in objectives) and any(o[k] < r[k] for k in objectives)
                     for o in feasible)
        if not beaten:
            front.append(r["trial"])
    return sorted(front)


def test_pareto_points_never_break_a_constraint(tmp_path):
    spec = write_spec(tmp_path, method="random", trials=16, batch=8,
                      constraints=[{"metric": "area", "max": 1.5}, {"metric": "cycles", "min": 1000}])
    result = exploration.explore(spec, out=tmp_path / "out", jobs=2)
    trials = result.trials
    complete = trials[trials["state"] == "complete"]
    assert (complete["area"] > 1.5).any(), "the test needs trials that break the area limit"
    assert (trials["state"] == "failed").any(), "the test needs trials whose layer does not fit NRAM"
    assert trials[trials["state"] == "failed"]["error"].str.contains("does not fit NRAM").all()
    assert len(result.pareto) > 0
    assert (result.pareto["area"] <= 1.5).all() and (result.pareto["cycles"] >= 1000).all()
    assert sorted(result.pareto["trial"]) == brute_force_front(trials.to_dict("records"), ["cycles", "area"])
    written = pd.read_csv(result.out / "pareto.csv")
    assert list(written["trial"]) == list(result.pareto["trial"])
    assert (result.out / "pareto.png").stat().st_size > 0


@pytest.mark.parametrize("change, place", [
    ({"axes": [{"name": "slaves", "pointer": "core/matrix/slaves", "values": [2]}]}, "/axes/0/pointer"),
    ({"axes": [{"name": "slaves", "pointer": "/core/matrix/slaves", "log": [4, 24], "base": 2}]}, "/axes/0/log"),
    ({"objectives": ["speed"]}, "/objectives/0/metric"),
    ({"constraints": [{"metric": "area"}]}, "/constraints/0"),
    ({"method": "annealing"}, "/method"),
    ({"trials": 0}, "/trials"),
    ({"workload": "missing.json"}, "/workload"),
    ({"axes": [{"name": "slaves", "pointer": "/core/matrix/slavez", "values": [2, 4]}]}, "/axes/0/pointer"),
    ({"axes": [{"name": "slaves", "pointer": "/core/matrix/slaves", "range": [2, 4096]}]}, "/axes/0/range"),
    ({"set": [{"pointer": "/chip/dram/channels", "value": 3}]}, "/set/0/value"),
])
def test_a_bad_spec_names_its_place(tmp_path, change, place):
    spec = write_spec(tmp_path, **change)
    with pytest.raises(InputError) as raised:
        exploration.explore(spec, out=tmp_path / "out")
    assert raised.value.file == str(spec) and raised.value.place == place
    assert not (tmp_path / "out").exists(), "nothing runs before the spec is checked"


@pytest.mark.parametrize("metric, reason", [
    ("report.energy.no_such_key", "names nothing in the run's report.json"),
    ("/mode", "is not a number in the run's results: 'timing'"),  # issue 42: found after the first batch
    ("util.core0.no_such_engine", "is not in the run's results"),
])
def test_a_metric_runs_lack_is_named_before_any_trial(tmp_path, monkeypatch, metric, reason):
    spec = write_spec(tmp_path, trials=2, batch=2, objectives=["cycles", metric])
    monkeypatch.setattr(exploration.explorer.study, "open_study", no_study)
    with pytest.raises(InputError) as raised:
        exploration.explore(spec, out=tmp_path / "out")
    assert raised.value.place == "/objectives/1/metric" and reason in raised.value.reason
    assert not (tmp_path / "out").exists(), "no trial ran, no folder to refuse the corrected spec"
    monkeypatch.undo()
    exploration.explore(write_spec(tmp_path, trials=2, batch=2), out=tmp_path / "out")  # the corrected spec runs


def no_study(*args):
    raise AssertionError("the study opened (trials ran) before the spec's metrics were checked")


def test_a_constraint_metric_is_read_from_a_design_that_runs(tmp_path, monkeypatch):
    # nram 1024, the axes' low end, cannot run the layer: the probe reads the high end's run.
    spec = write_spec(tmp_path, trials=2, batch=2, constraints=[{"metric": "/mode", "max": 1}])
    monkeypatch.setattr(exploration.explorer.study, "open_study", no_study)
    with pytest.raises(InputError) as raised:
        exploration.explore(spec, out=tmp_path / "out")
    assert raised.value.place == "/constraints/0/metric"
    assert not (tmp_path / "out").exists()


def test_report_paths_dotted_and_pointer_read_the_same_number(tmp_path):
    spec = write_spec(tmp_path, trials=2, batch=2, constraints=[],
                      objectives=["report.stats.core0.matrix.issued_macs", "/memories/core0.nram/peak_occupancy_bytes",
                                  {"metric": "/stats/core0.matrix/issued_macs", "name": "macs_by_pointer"}])
    result = exploration.explore(spec, out=tmp_path / "out")
    for _, row in result.trials.iterrows():
        report = json.loads((result.out / row["point"] / "report.json").read_text())
        assert row["report.stats.core0.matrix.issued_macs"] == report["stats"]["core0.matrix"]["issued_macs"]
        assert row["macs_by_pointer"] == report["stats"]["core0.matrix"]["issued_macs"]
        nram = [m for m in report["memories"] if m["name"] == "core0.nram"][0]
        assert row["/memories/core0.nram/peak_occupancy_bytes"] == nram["peak_occupancy_bytes"]


def test_the_cli_refuses_a_bad_spec_with_one_line_and_exit_2(tmp_path):
    spec = write_spec(tmp_path, method="annealing")
    binary = os.environ.get("NPUSIM_BIN", str(ROOT / "build" / "npusim"))
    done = subprocess.run([binary, "explore", str(spec), "--out", str(tmp_path / "out")], capture_output=True,
                          text=True)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [f"error: {spec}: /method: expected one of: random, tpe, nsga2"]


def test_the_cli_explores_and_resumes_with_a_larger_budget(tmp_path):
    spec = write_spec(tmp_path, trials=4, batch=2)
    binary = os.environ.get("NPUSIM_BIN", str(ROOT / "build" / "npusim"))
    out = tmp_path / "out"
    first = subprocess.run([binary, "explore", str(spec), "--out", str(out), "-j", "2"], capture_output=True,
                           text=True)
    assert first.returncode == 0, first.stderr
    assert "explore: 4 trials: 4 new, 0 already done" in first.stdout
    more = subprocess.run([binary, "explore", str(spec), "--out", str(out), "--trials", "6"], capture_output=True,
                          text=True)
    assert "explore: 6 trials: 2 new, 4 already done" in more.stdout, more.stderr
    assert len(pd.read_csv(out / "trials.csv")) == 6


def test_the_python_example_of_the_docs_runs(tmp_path, monkeypatch):
    """docs/exploration.md's Python block, as written, on the bundled spec with a budget of 3."""
    import functools
    import re

    import npusim

    block = re.search(r"```python\n(.*?)```", (ROOT / "docs/exploration.md").read_text(), re.S).group(1)
    for folder in ("configs", "traces"):
        (tmp_path / folder).symlink_to(ROOT / folder)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(npusim, "explore", functools.partial(exploration.explore, trials=3), raising=False)
    scope = {}
    exec(compile(block, "docs/exploration.md", "exec"), scope)
    assert len(scope["result"].trials) == 3
    assert (tmp_path / "explorations/r50/pareto.csv").exists()


def test_a_design_drawn_again_is_simulated_once(tmp_path):
    """Two axes of two values: eight trials must repeat designs; each design runs once."""
    spec = write_spec(tmp_path, method="random", trials=8, batch=4, constraints=[],
                      axes=[{"name": "slaves", "pointer": "/core/matrix/slaves", "values": [8, 16]},
                            {"name": "cus", "pointer": "/core/matrix/cus_per_slave", "values": [2, 4]}])
    result = exploration.explore(spec, out=tmp_path / "out", jobs=2)
    trials = result.trials
    simulated = list(result.out.glob("batches/*/points/*/report.json"))
    designs = trials[["slaves", "cus"]].drop_duplicates()
    assert len(simulated) == len(designs) == int(trials["same_as"].isna().sum()) < len(trials)
    for _, row in trials[trials["same_as"].notna()].iterrows():
        source = trials.set_index("trial").loc[int(row["same_as"])]
        assert (source["slaves"], source["cus"]) == (row["slaves"], row["cus"])
        assert (source["cycles"], source["area"]) == (row["cycles"], row["area"])
    assert not result.pareto.duplicated(["slaves", "cus"]).any()


def test_resuming_with_another_spec_is_refused_but_a_larger_budget_is_not(tmp_path):
    spec = write_spec(tmp_path, trials=2, batch=2)
    exploration.explore(spec, out=tmp_path / "out")
    changed = write_spec(tmp_path / "changed", trials=2, batch=2, method="random")
    with pytest.raises(InputError) as raised:
        exploration.explore(changed, out=tmp_path / "out")
    assert raised.value.place == "/method" and "differs in method" in raised.value.reason
    assert len(exploration.explore(spec, out=tmp_path / "out", trials=3).trials) == 3


def test_the_shell_example_of_the_docs_runs_and_resumes(tmp_path):
    """docs/exploration.md's two commands, with budgets of 2 and 3 instead of 120 and 200."""
    import re
    import shlex

    block = re.search(r"```sh\n(.*?)```", (ROOT / "docs/exploration.md").read_text(), re.S).group(1)
    commands = [shlex.split(line.split("#")[0]) for line in block.strip().splitlines()]
    assert commands[1][-2:] == ["--trials", "200"]
    commands[0] += ["--trials", "2"]
    commands[1][-1] = "3"
    for folder in ("configs", "traces"):
        (tmp_path / folder).symlink_to(ROOT / folder)
    binary = os.environ.get("NPUSIM_BIN", str(ROOT / "build" / "npusim"))
    outputs = [subprocess.run([binary, *c[1:]], cwd=tmp_path, capture_output=True, text=True) for c in commands]
    assert [o.returncode for o in outputs] == [0, 0], [o.stderr for o in outputs]
    assert outputs[0].stdout.startswith("explore: 2 trials: 2 new, 0 already done;")
    assert outputs[1].stdout.startswith("explore: 3 trials: 1 new, 2 already done;")
    assert "trials: explorations/r50/trials.csv" in outputs[1].stdout


def test_a_maximised_objective_keeps_the_highest_on_the_front(tmp_path):
    spec = write_spec(tmp_path, method="random", trials=8, batch=8, constraints=[],
                      objectives=["cycles", {"metric": "mac_utilization", "direction": "maximize", "name": "util"}])
    result = exploration.explore(spec, out=tmp_path / "out", jobs=2)
    rows = result.trials.to_dict("records")
    for r in rows:
        r["negated_util"] = -r["util"] if r["feasible"] else None
    assert sorted(result.pareto["trial"]) == brute_force_front(rows, ["cycles", "negated_util"])
    assert list(result.pareto["cycles"]) == sorted(result.pareto["cycles"])
