"""Runs an exploration into its folder, batch by batch, resuming whatever an earlier run left.

DIR/.npusim-explore   marker (and lock: one exploration writes a folder at a time)
DIR/study.db          the optuna study (sqlite): every trial, its parameters and values
DIR/batches/NNNN.json the sweep spec of batch NNNN; DIR/batches/NNNN/ its sweep directory
DIR/trials.csv        every trial;  DIR/pareto.csv the feasible Pareto front;  DIR/pareto.png
"""
import fcntl
import os
import pathlib
import sys

from . import batches, chart, judge, study, tables
from .spec import input_error

MARKER = ".npusim-explore"


def _claim_folder(out):
    """Creates or reopens DIR; refuses a folder that is not an exploration, or one another
    exploration is writing. The returned file holds the lock until the process ends."""
    out.mkdir(parents=True, exist_ok=True)
    marker = out / MARKER
    if not marker.exists() and any(out.iterdir()):
        raise input_error(out, "", f"not an exploration folder (no {MARKER}) and not empty; choose a new --out")
    lock = open(marker, "a+")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.seek(0)
        raise input_error(out, "", f"another npusim explore (pid {lock.read().strip() or '?'}) is writing this "
                                   "folder; wait for it or choose a new --out") from None
    lock.truncate(0)
    lock.write(f"{os.getpid()}\n")
    lock.flush()
    return lock


def _run_batch(spec, out, the_study, planned, jobs, backend):
    k, start, size = planned
    trials = study.ask_batch(the_study, spec, start, size)
    rows = batches.run_batch(spec, out, k, [study.point_values(spec, t) for t in trials], jobs, backend)
    ran = 0
    for trial, row in zip(trials, rows):
        if trial.state.is_finished():
            continue
        study.tell(the_study, spec, trial, judge.judge(spec, k, row, lambda r: batches.read_report(out, k, r)))
        ran += 1
    return ran


def _write_tables(spec, out, the_study):
    trials = tables.trials_frame(spec, the_study)
    pareto = tables.pareto_frame(spec, trials)
    tables.write_csv(trials, out / "trials.csv")
    tables.write_csv(pareto, out / "pareto.csv")
    return trials, pareto


def _say(quiet, text):
    if not quiet:
        print(text, file=sys.stderr, flush=True)


def run(spec, out, jobs=1, backend=None, quiet=True):
    """Explores until the study holds spec.trials finished trials; returns (trials, pareto)."""
    out = pathlib.Path(out)
    lock = _claim_folder(out)
    the_study = study.open_study(spec, out)
    backend = backend or spec.backend
    ran = 0
    while (planned := study.next_batch(the_study, spec)) is not None:
        ran += _run_batch(spec, out, the_study, planned, jobs, backend)
        trials, pareto = _write_tables(spec, out, the_study)
        _say(quiet, f"explore: {len(trials)}/{spec.trials} trials, front {len(pareto)} points")
    trials, pareto = _write_tables(spec, out, the_study)
    chart.pareto_chart(trials, pareto, spec.objectives, pathlib.Path(spec.file).stem, out / "pareto.png")
    lock.close()
    return trials, pareto, ran
