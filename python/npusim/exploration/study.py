"""The optuna study behind an exploration, kept in DIR/study.db (sqlite), and its batches.

Trials are asked in batches (the spec's "batch") and a batch is told only after its sweep ran.
The study records the plan (each batch's size) before it asks, so after an interruption the
next run finds the unfinished batch, asks what it had not asked yet, re-runs its sweep (which
skips the finished points) and tells the rest: no trial is lost or run twice.

Reproducible: trial n is sampled by a sampler seeded from (seed, n), so the same spec and
seed give the same trials however the run was interrupted, and whatever -j or backend.
"""
import hashlib
import json
import warnings

import optuna
import sqlalchemy
from optuna.trial import Trial, TrialState

from .spec import input_error

STUDY_NAME = "explore"
_FINGERPRINT_IGNORES = ("trials", "description", "backend", "slurm")


def open_study(spec, out):
    """Creates the study in out/study.db, or loads it when resuming the same spec."""
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(storage=_storage(out), study_name=STUDY_NAME, load_if_exists=True,
                                directions=[o.direction for o in spec.objectives])
    fingerprint = _fingerprint(spec)
    recorded = study.user_attrs.get("spec")
    if recorded is None:
        study.set_user_attr("spec", fingerprint)
    elif recorded != fingerprint:
        differing = sorted(k for k in set(recorded) | set(fingerprint) if recorded.get(k) != fingerprint.get(k))
        raise input_error(spec.file, f"/{differing[0]}",
                          f"{out} holds an exploration that differs in {', '.join(differing)}; explore into a new "
                          "--out (only \"trials\" may change on resume)")
    return study


def _without_fsync(connection, _):
    """Write-ahead log without an fsync per commit: optuna commits a few times per trial, and
    an fsync each took most of the explorer's time on a busy disk. A killed process loses
    nothing (its writes are in the OS); a power cut may lose the last commits, which the
    next run simply redoes (the sweep's finished points are kept)."""
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=NORMAL")


def _storage(out):
    storage = optuna.storages.RDBStorage(f"sqlite:///{out}/study.db")
    sqlalchemy.event.listen(storage.engine, "connect", _without_fsync)
    return storage


def _fingerprint(spec):
    """What must stay the same for a study to be resumed: everything but the budget and where
    it runs. Inputs are compared by their resolved paths, the seed as finally chosen."""
    doc = {k: v for k, v in spec.raw.items() if k not in _FINGERPRINT_IGNORES}
    doc.update(config=spec.config, trace=spec.trace, workload=spec.workload, seed=spec.seed)
    return json.loads(json.dumps(doc))


def trial_seed(seed, number):
    """A seed per trial, so trial n never depends on how many trials one process asked."""
    digest = hashlib.sha256(f"npusim-explore:{seed}:{number}".encode()).digest()
    return int.from_bytes(digest[:4], "little")


def _violations(trial):
    return trial.user_attrs.get("violations", [0.0])


def sampler(spec, number):
    """The method's sampler for trial `number`; infeasible trials count as such (constraints)."""
    seed = trial_seed(spec.seed, number)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
        if spec.method == "random":
            return optuna.samplers.RandomSampler(seed=seed)
        if spec.method == "nsga2":
            return optuna.samplers.NSGAIISampler(population_size=max(2, spec.batch), seed=seed,
                                                 constraints_func=_violations)
        return optuna.samplers.TPESampler(seed=seed, multivariate=True, constraints_func=_violations,
                                          n_startup_trials=min(10, max(1, spec.trials // 4)))


def next_batch(study, spec):
    """(k, first trial number, size) of the batch to run: an unfinished one, or a new one
    while the budget lasts; None when the exploration is complete."""
    plan = study.user_attrs.get("plan", [])
    trials = study.get_trials(deepcopy=False)
    start = 0
    for k, size in enumerate(plan):
        batch = trials[start:start + size]
        if len(batch) < size or any(t.state == TrialState.RUNNING for t in batch):
            return k, start, size
        start += size
    if len(trials) >= spec.trials:
        return None
    size = min(spec.batch, spec.trials - len(trials))
    study.set_user_attr("plan", plan + [size])
    return len(plan), len(trials), size


def ask_batch(study, spec, start, size):
    """The batch's trials, asking those not asked yet (each with its own seeded sampler)."""
    distributions = {a.name: a.distribution() for a in spec.axes}
    for number in range(len(study.get_trials(deepcopy=False)), start + size):
        study.sampler = sampler(spec, number)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
            trial = study.ask(distributions)
        assert trial.number == number, (trial.number, number)
    return study.get_trials(deepcopy=False)[start:start + size]


def point_values(spec, trial):
    """The values the trial writes at the axes' pointers."""
    return {a.name: a.value(trial.params[a.name]) for a in spec.axes}


def tell(study, spec, trial, judged):
    """Records a judged trial (see judge.py): its metrics, and its objectives or its failure."""
    live = Trial(study, trial._trial_id)
    for key in ("batch", "point", "same_as", "error", "metrics", "violations"):
        if key in judged:
            live.set_user_attr(key, judged[key])
    study.sampler = sampler(spec, trial.number)
    if judged.get("failed"):
        study.tell(trial.number, state=TrialState.FAIL)
    else:
        study.tell(trial.number, [judged["metrics"][o.name] for o in spec.objectives])
