"""npusim.sweep(backend="slurm") on a real single-node Slurm cluster (tests/slurm/slurm-cluster.sh,
which starts munged, slurmctld and slurmd in a temporary folder and stops them by pid): the same
results.csv as the local backend. Skipped where no cluster can start (no Slurm, not root)."""
import npusim

AXES = {"/core/matrix/slaves": [8, 16, 32], "/core/matrix/cus_per_slave": [2, 4]}
TINY = "traces/workloads/tiny.json"


def test_a_slurm_sweep_equals_the_local_one(tmp_path, slurm_cluster):
    local = npusim.sweep(None, AXES, workload=TINY, out=tmp_path / "local")
    remote = npusim.sweep(None, AXES, workload=TINY, out=tmp_path / "slurm", backend="slurm",
                          slurm={"points_per_task": 3, "array_limit": 2})
    assert (tmp_path / "slurm" / "slurm" / "submission.json").is_file()  # it went through sbatch
    assert (tmp_path / "slurm" / "results.csv").read_bytes() == (tmp_path / "local" / "results.csv").read_bytes()
    assert remote.equals(local)
