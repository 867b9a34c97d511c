"""Shared by the API tests: the checkout, and the CLI called directly as the reference."""
import os
import pathlib
import subprocess
import sys

import pytest

CHECKOUT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(CHECKOUT / "python"))  # ctest also sets PYTHONPATH; this covers plain pytest

from npusim import _cli  # noqa: E402


def cli(*args, cwd=CHECKOUT):
    """`npusim ARGS` as a shell user runs it: (exit status, stdout, stderr)."""
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    done = subprocess.run([str(_cli.binary()), *map(str, args)], cwd=cwd, env=env, capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr


@pytest.fixture(autouse=True)
def in_checkout(monkeypatch):
    """Tests name bundled files by their README paths, from the checkout."""
    monkeypatch.chdir(CHECKOUT)


@pytest.fixture
def slurm_cluster(tmp_path, monkeypatch):
    """A real single-node Slurm cluster (tests/slurm/slurm-cluster.sh starts munged, slurmctld
    and slurmd in a temporary folder and stops them by pid), SLURM_CONF pointing at it. Skips
    where none can start (the script exits 77: no slurm-wlm, munge or root)."""
    script = CHECKOUT / "tests" / "slurm" / "slurm-cluster.sh"
    folder = tmp_path / "cluster"
    started = subprocess.run([script, "start", folder], capture_output=True, text=True)
    if started.returncode == 77:
        pytest.skip(started.stderr.strip())
    assert started.returncode == 0, started.stderr
    monkeypatch.setenv("SLURM_CONF", started.stdout.strip())
    yield
    subprocess.run([script, "stop", folder], check=False)
