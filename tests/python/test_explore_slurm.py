"""npusim explore --backend slurm on a real single-node cluster (tests/slurm/slurm-cluster.sh):
each batch is an array job, and the trials equal the local backend's.

Skipped when no cluster can start here (the script exits 77: no slurm-wlm, munge or root).
"""
import subprocess

import pandas as pd
import pytest

from test_explore import ROOT, trial_table, write_spec

import npusim.exploration as exploration


@pytest.fixture
def cluster(tmp_path, monkeypatch):
    script = ROOT / "tests/slurm/slurm-cluster.sh"
    folder = tmp_path / "cluster"
    started = subprocess.run([script, "start", folder], capture_output=True, text=True)
    if started.returncode == 77:
        pytest.skip(started.stderr.strip())
    assert started.returncode == 0, started.stderr
    monkeypatch.setenv("SLURM_CONF", started.stdout.strip())
    yield
    subprocess.run([script, "stop", folder], check=False)


def test_slurm_batches_give_the_local_trials(tmp_path, cluster):
    spec = write_spec(tmp_path, trials=6, batch=3, slurm={"points_per_task": 2})
    on_slurm = exploration.explore(spec, out=tmp_path / "slurm", backend="slurm")
    local = exploration.explore(spec, out=tmp_path / "local", jobs=2)
    pd.testing.assert_frame_equal(trial_table(on_slurm), trial_table(local))
    for k in (0, 1):
        assert (tmp_path / f"slurm/batches/{k:04d}/slurm/submission.json").exists(), "each batch is a job"
