"""Design-space exploration: search a chip's parameters with optuna instead of a full grid.

    result = npusim.explore("configs/explore/resnet50-6axes.json", out="explorations/r50", trials=60)
    result.pareto          # the feasible Pareto front (pandas)
    result.plot()          # the Pareto chart (matplotlib figure)

Trials run as `npusim sweep` batches; the study lives in the output folder, so calling
explore again with the same folder resumes. See docs/exploration.md.
"""
import pathlib

from . import chart, explorer, probe
from .spec import load_spec, with_overrides

__all__ = ["explore", "Exploration", "load_spec"]


class Exploration:
    """What an exploration found: `trials` (every trial) and `pareto` (the feasible front),
    pandas DataFrames as in trials.csv and pareto.csv, and the folder `out`."""

    def __init__(self, spec, out, trials, pareto, ran=0):
        self.spec, self.out, self.trials, self.pareto, self.ran = spec, pathlib.Path(out), trials, pareto, ran

    def plot(self, path=None):
        """The Pareto chart as a matplotlib figure; also written to path when given."""
        return chart.pareto_chart(self.trials, self.pareto, self.spec.objectives,
                                  pathlib.Path(self.spec.file).stem, path)

    def __repr__(self):
        return f"<Exploration {self.out}: {len(self.trials)} trials, {len(self.pareto)} on the front>"


def explore(spec, out=None, trials=None, seed=None, jobs=1, backend=None, quiet=True):
    """Runs (or resumes) the exploration `spec` (a file, or a dict whose paths are relative to
    the working directory) into `out` (default explorations/<spec name>).

    trials and seed override the spec's; backend "local" or "slurm" (default: the spec's, else
    local); jobs is the number of simulations at once on the local backend."""
    if isinstance(spec, dict):
        parsed = load_spec("explore spec", doc=spec)
    else:
        parsed = load_spec(spec)
    parsed = with_overrides(parsed, trials, seed)
    probe.check_config_axes(parsed)
    probe.check_workload_axes(parsed)
    name = pathlib.Path(spec).stem if not isinstance(spec, dict) else "explore"
    out = pathlib.Path(out) if out is not None else pathlib.Path("explorations") / name
    if not explorer.resumes(out):  # a resumed exploration's spec (the same) was checked when it began
        probe.check_metrics(parsed)
    trials_frame, pareto, ran = explorer.run(parsed, out, jobs=jobs, backend=backend, quiet=quiet)
    return Exploration(parsed, out, trials_frame, pareto, ran)
