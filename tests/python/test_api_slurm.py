"""npusim.sweep(backend="slurm") on a real single-node Slurm cluster (tests/slurm/slurm-cluster.sh,
which starts munged, slurmctld and slurmd in a temporary folder and stops them by pid): the same
results.csv as the local backend. Skipped where no cluster can start (no Slurm, not root)."""
import subprocess

import pytest

import npusim
from conftest import CHECKOUT

CLUSTER = CHECKOUT / "tests" / "slurm" / "slurm-cluster.sh"
AXES = {"/core/matrix/slaves": [8, 16, 32], "/core/matrix/cus_per_slave": [2, 4]}
TINY = "traces/workloads/tiny.json"


@pytest.fixture
def slurm_cluster(tmp_path, monkeypatch):
    folder = tmp_path / "cluster"
    started = subprocess.run([CLUSTER, "start", folder], capture_output=True, text=True)
    if started.returncode == 77:
        pytest.skip(started.stderr.strip())
    assert started.returncode == 0, started.stderr
    monkeypatch.setenv("SLURM_CONF", started.stdout.strip())
    yield
    subprocess.run([CLUSTER, "stop", folder], check=True)


def test_a_slurm_sweep_equals_the_local_one(tmp_path, slurm_cluster):
    local = npusim.sweep(None, AXES, workload=TINY, out=tmp_path / "local")
    remote = npusim.sweep(None, AXES, workload=TINY, out=tmp_path / "slurm", backend="slurm",
                          slurm={"points_per_task": 3, "array_limit": 2})
    assert (tmp_path / "slurm" / "slurm" / "submission.json").is_file()  # it went through sbatch
    assert (tmp_path / "slurm" / "results.csv").read_bytes() == (tmp_path / "local" / "results.csv").read_bytes()
    assert remote.equals(local)
