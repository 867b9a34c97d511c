"""The exploration's tables: every trial (trials.csv) and the Pareto front (pareto.csv).

Both are rebuilt from the study after every batch, so they always match what it holds.
"""
import os

import numpy as np
import pandas as pd
from optuna.trial import TrialState

from .study import point_values

_STATES = {TrialState.COMPLETE: "complete", TrialState.FAIL: "failed", TrialState.RUNNING: "running"}


def metric_columns(spec):
    """The objectives' columns, then the constraints' that are not objectives too."""
    names = [o.name for o in spec.objectives]
    return names + [c.name for c in spec.constraints if c.name not in names]


def trials_frame(spec, study):
    """One row per trial, in trial order."""
    rows = [_trial_row(spec, t) for t in study.get_trials(deepcopy=False)]
    columns = (["trial", "batch", "state"] + [a.name for a in spec.axes] + metric_columns(spec) +
               ["feasible", "violation", "same_as", "error", "point"])
    frame = pd.DataFrame(rows, columns=columns)
    frame["same_as"] = frame["same_as"].astype("Int64")  # a trial number, or empty
    return frame


def _trial_row(spec, trial):
    attrs = trial.user_attrs
    row = {"trial": trial.number, "batch": attrs.get("batch"), "state": _STATES.get(trial.state, "other"),
           "same_as": attrs.get("same_as"), "error": attrs.get("error", ""), "point": attrs.get("point", "")}
    row.update(point_values(spec, trial))
    row.update(attrs.get("metrics", {}))
    violation = sum(attrs.get("violations", [])) if trial.state == TrialState.COMPLETE else np.nan
    row.update(violation=violation, feasible=trial.state == TrialState.COMPLETE and violation == 0)
    return row


def non_dominated(values):
    """Mask of the rows no other row dominates (all objectives minimised: as good on every one,
    better on one). Quadratic, which is nothing next to a simulation per row."""
    values = np.asarray(values, dtype=float)
    keep = np.ones(len(values), dtype=bool)
    for i, v in enumerate(values):
        at_least = np.all(values <= v, axis=1)
        better = np.any(values < v, axis=1)
        keep[i] = not np.any(at_least & better)
    return keep


def pareto_frame(spec, trials):
    """The feasible complete trials on the Pareto front, by the first objective; a design
    sampled more than once is listed once, as its first trial."""
    feasible = trials[trials["feasible"].astype(bool)]
    if "same_as" in feasible:
        feasible = feasible[feasible["same_as"].isna()]
    if feasible.empty:
        return feasible.copy()
    signs = [1.0 if o.direction == "minimize" else -1.0 for o in spec.objectives]
    values = feasible[[o.name for o in spec.objectives]].to_numpy(dtype=float) * signs
    front = feasible[non_dominated(values)]
    return front.sort_values([o.name for o in spec.objectives], ascending=[s > 0 for s in signs],
                             kind="stable").reset_index(drop=True)


def write_csv(frame, path):
    partial = f"{path}.partial"
    frame.to_csv(partial, index=False)
    os.replace(partial, path)
