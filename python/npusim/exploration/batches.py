"""A batch of trials runs as one `npusim sweep` in zip mode: point i is the batch's i-th trial.

So the sweep's backends (local processes, a Slurm array job) and its resume come with it: a
batch interrupted half-way is run again with the same spec and out, and the sweep skips every
point that had finished.
"""
import csv
import json
import os
import pathlib
import signal
import subprocess

from .. import _cli
from ..errors import InputError
from .spec import input_error


def batch_dir(out, k):
    return pathlib.Path(out) / "batches" / f"{k:04d}"


def sweep_spec(spec, values_per_trial):
    """The sweep spec of a batch: one zip axis per explore axis, one per fixed setting."""
    n = len(values_per_trial)
    axes = [_sweep_axis(a, [values[a.name] for values in values_per_trial]) for a in spec.axes]
    axes += [_sweep_axis(s, [s.value] * n) for s in spec.settings]
    doc = {"description": f"a batch of the exploration {spec.file}", "config": spec.config, "mode": "zip",
           "functional": spec.functional, "axes": axes}
    doc.update({"trace": spec.trace} if spec.trace else {"workload": spec.workload})
    if spec.slurm:
        doc["slurm"] = spec.slurm
    return doc


def _sweep_axis(axis, values):
    entry = {"name": axis.name, "pointer": axis.pointer, "values": values}
    if axis.in_workload:
        entry["in"] = "workload"
    return entry


def run_batch(spec, out, k, values_per_trial, jobs, backend):
    """Runs (or resumes) batch k; returns its results.csv rows, one dict per trial, in order."""
    folder = batch_dir(out, k)
    spec_file = folder.with_suffix(".json")
    folder.parent.mkdir(parents=True, exist_ok=True)
    _write_atomically(spec_file, json.dumps(sweep_spec(spec, values_per_trial), indent=1) + "\n")
    args = ["sweep", spec_file, "--out", folder, "--jobs", jobs, "--quiet"]
    if backend == "slurm":
        args += ["--backend", "slurm", "--wait"]
    try:
        _run_cli(args)
    except InputError as e:
        if e.file == str(spec_file) and e.place.startswith("/slurm"):  # the explore spec's own settings
            raise input_error(spec.file, e.place, e.reason) from None
        raise
    with open(folder / "results.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    if len(rows) != len(values_per_trial):
        raise RuntimeError(f"{folder}/results.csv has {len(rows)} rows for {len(values_per_trial)} trials")
    return rows


def read_report(out, k, row):
    with open(batch_dir(out, k) / "points" / row["point"] / "report.json") as f:
        return json.load(f)


def _write_atomically(path, text):
    partial = path.with_name(path.name + ".partial")
    partial.write_text(text)
    os.replace(partial, path)


class _Stop:
    """A stop asked by a signal (see __main__). Until the study opens (reading the spec,
    probing its values) nothing needs saving, so the explorer exits at once. From then on the
    running sweep gets SIGTERM at once, which ends its points cleanly, and the explorer exits
    at its next safe point: an exception raised by the handler itself could land inside
    optuna's database code and be lost."""
    signal = 0
    child = None
    study_open = False


def request_stop(signum):
    _Stop.signal = signum
    if not _Stop.study_open:
        raise SystemExit(128 + signum)
    if _Stop.child is not None and _Stop.child.poll() is None:
        _Stop.child.send_signal(signal.SIGTERM)


class StudyOpen:
    """While inside, a signal waits for the next safe point (see _Stop)."""

    def __enter__(self):
        _Stop.study_open = True
        exit_if_stopped()

    def __exit__(self, *exc):
        _Stop.study_open = False
        return False


def exit_if_stopped():
    if _Stop.signal:
        raise SystemExit(128 + _Stop.signal)


def _run_cli(args):
    """Like _cli.call, but the sweep is stopped with SIGTERM (not killed) when the explorer is
    stopped: by request_stop, or by Ctrl-C in Python (KeyboardInterrupt)."""
    exit_if_stopped()
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    with subprocess.Popen([str(_cli.binary()), *map(str, args)], env=env, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE) as child:
        _Stop.child = child
        try:
            _, err = child.communicate()
        except BaseException:
            child.send_signal(signal.SIGTERM)
            child.wait()
            raise
        finally:
            _Stop.child = None
    exit_if_stopped()
    _cli.check_exit(args, child.returncode, err)
