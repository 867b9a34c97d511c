"""npusim explore --backend slurm on a real single-node cluster (tests/slurm/slurm-cluster.sh):
each batch is an array job, and the trials equal the local backend's.

Skipped when no cluster can start here (the script exits 77: no slurm-wlm, munge or root).
"""
import pandas as pd

from test_explore import trial_table, write_spec

import npusim.exploration as exploration


def test_slurm_batches_give_the_local_trials(tmp_path, slurm_cluster):
    spec = write_spec(tmp_path, trials=6, batch=3, slurm={"points_per_task": 2})
    on_slurm = exploration.explore(spec, out=tmp_path / "slurm", backend="slurm")
    local = exploration.explore(spec, out=tmp_path / "local", jobs=2)
    pd.testing.assert_frame_equal(trial_table(on_slurm), trial_table(local))
    for k in (0, 1):
        assert (tmp_path / f"slurm/batches/{k:04d}/slurm/submission.json").exists(), "each batch is a job"
