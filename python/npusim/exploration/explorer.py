"""Runs an exploration into its folder, batch by batch, resuming whatever an earlier run left.

DIR/.npusim-explore   marker (and lock: one exploration writes a folder at a time)
DIR/study.db          the optuna study (sqlite): every trial, its parameters and values
DIR/batches/NNNN.json the sweep spec of batch NNNN; DIR/batches/NNNN/ its sweep directory
DIR/trials.csv        every trial;  DIR/pareto.csv the feasible Pareto front;  DIR/pareto.png
"""
import errno
import fcntl
import json
import os
import pathlib
import shutil
import sys

from optuna.trial import TrialState

from . import batches, chart, judge, study, tables
from ..errors import InputError
from .spec import input_error

MARKER = ".npusim-explore"


def resumes(out):
    """Whether DIR already holds an exploration (which this call then resumes). A name the
    file system refuses (a part longer than it allows) is bad input, said here before
    anything is made."""
    try:
        return (out / MARKER).exists()
    except OSError as e:
        raise _refused_out(out, e) from None


def _refused_out(out, error):
    """The InputError for an --out the file system will not take (too long, no permission)."""
    return input_error(out, "", f"{error.strerror}; choose another --out")


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


def _design(spec, trial):
    return json.dumps(study.point_values(spec, trial), sort_keys=True)


def _plan_designs(spec, earlier, trials):
    """Which trials of the batch need a simulation. A sampler may draw a design again (TPE
    does, near its best points): a repeat of a completed earlier trial takes its results,
    and a design drawn twice in the batch is simulated once. Returns the designs to run
    and, per trial number, an earlier trial or the index of its design."""
    done = {}
    for trial in earlier:
        if trial.state == TrialState.COMPLETE:
            done.setdefault(_design(spec, trial), trial)
    designs, source = [], {}
    for trial in trials:
        key = _design(spec, trial)
        if key in done:
            source[trial.number] = done[key]
            continue
        if key not in designs:
            designs.append(key)
        source[trial.number] = designs.index(key)
    return designs, source


def _repeat(k, earlier):
    """The record of a trial whose design an earlier trial simulated."""
    attrs = earlier.user_attrs
    return {"batch": k, "point": attrs["point"], "same_as": earlier.number, "metrics": attrs["metrics"],
            "violations": attrs["violations"]}


def _run_batch(spec, out, the_study, planned, jobs, backend):
    k, start, size = planned
    trials = study.ask_batch(the_study, spec, start, size)
    designs, source = _plan_designs(spec, the_study.get_trials(deepcopy=False)[:start], trials)
    rows = batches.run_batch(spec, out, k, [json.loads(d) for d in designs], jobs, backend) if designs else []
    first = {}  # design index -> the trial that simulated it
    ran = 0
    for trial in trials:
        where = source[trial.number]
        if trial.state.is_finished():
            if isinstance(where, int):
                first.setdefault(where, trial.number)
            continue
        if isinstance(where, int):
            judged = judge.judge(spec, k, rows[where], lambda r: batches.read_report(out, k, r))
            if first.setdefault(where, trial.number) != trial.number:
                judged["same_as"] = first[where]
        else:
            judged = _repeat(k, where)
        study.tell(the_study, spec, trial, judged)
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


def _explore(spec, out, jobs, backend, quiet):
    with batches.StudyOpen():
        return _explore_study(spec, out, jobs, backend, quiet)


def _explore_study(spec, out, jobs, backend, quiet):
    the_study = study.open_study(spec, out)
    ran = 0
    while (planned := study.next_batch(the_study, spec)) is not None:
        ran += _run_batch(spec, out, the_study, planned, jobs, backend)
        batches.exit_if_stopped()
        trials, pareto = _write_tables(spec, out, the_study)
        _say(quiet, f"explore: {len(trials)}/{spec.trials} trials, front {len(pareto)} designs")
    trials, pareto = _write_tables(spec, out, the_study)
    chart.pareto_chart(trials, pareto, spec.objectives, pathlib.Path(spec.file).stem, out / "pareto.png")
    return trials, pareto, ran


def run(spec, out, jobs=1, backend=None, quiet=True):
    """Explores until the study holds spec.trials finished trials; returns (trials, pareto,
    trials told by this call)."""
    out = pathlib.Path(out)  # its name was checked by resumes()
    created = [p for p in [out, *out.parents] if not p.exists()]  # deepest first
    try:
        lock = _claim_folder(out)
    except OSError as e:  # no permission to make the folder, say
        _remove_created(created)
        raise _refused_out(out, e) from None
    try:
        return _explore(spec, out, jobs, backend or spec.backend, quiet)
    except InputError:
        _remove_created(created)  # a spec mistake found late leaves no folder to refuse its fix
        raise
    finally:
        lock.close()  # also when it fails: a caller in the same process may try again


def _remove_created(created):
    """Removes the folder this run made (and the parents it made, when empty)."""
    if not created:
        return
    shutil.rmtree(created[0], ignore_errors=True)
    for parent in created[1:]:
        try:
            parent.rmdir()
        except OSError as e:
            if e.errno == errno.ENOTEMPTY:  # somebody else's now
                break
            # else never made (the making failed below it, at a name too long): try its parent
