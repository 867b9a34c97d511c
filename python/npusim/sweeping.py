"""npusim.sweep: a config sweep by `npusim sweep`, its results.csv as a DataFrame.

The API writes a sweep spec and runs the CLI on it, so the sweep directory, results.csv,
resuming and the Slurm backend are exactly the CLI's (docs/sweeps.md).
"""
import json
import pathlib
import tempfile

import pandas as pd

from . import _cli, charts
from .chip import as_chip
from .errors import InputError
from .inputs import is_trace
from .running import DEFAULT_WORKLOAD


class SweepResult(pd.DataFrame):
    """results.csv of a sweep, one row per point; `directory` is the sweep folder (None
    when nothing was kept). plot() draws the charts of scripts/plot_sweep.py."""

    _metadata = ["directory", "front", "byte_columns"]

    @property
    def _constructor(self):
        return SweepResult

    def plot(self, x, y, hue=None, pareto=False, label=None, logx=False, logy=False, title=None, output=None):
        """A line of y against x per value of `hue` (a column or a list of columns), or with
        pareto=True every point as a dot and the Pareto front (lower is better on both)."""
        hue = [hue] if isinstance(hue, str) else list(hue or [])
        rows = self.astype(str).to_dict("records")
        fig, self.front = charts.sweep_figure(rows, x, y, hue, pareto, label, logx, logy, title,
                                              getattr(self, "byte_columns", ()))
        return charts.finish(fig, output)


def spec_axes(axes):
    """The spec's "axes": from {pointer: values} or a list of axis dicts as in a spec."""
    if isinstance(axes, dict):
        return [{"pointer": pointer, "values": list(values)} for pointer, values in axes.items()]
    return [dict(axis) for axis in axes]


def byte_axes(axes):
    """The results.csv columns of the axes that set a byte count (pointer ending in bytes):
    charts write their values as KiB/MiB."""
    named = spec_axes(axes)
    return {a.get("name", a["pointer"].strip("/").replace("/", ".")) for a in named if a["pointer"].endswith("bytes")}


def _write_spec(folder, chip, workload, axes, options):
    """spec.json and the chip's resolved config, in folder; the names stay those of the
    user's files, which point.json records (so a rerun resumes)."""
    folder.mkdir(parents=True, exist_ok=True)
    source = pathlib.Path(workload) if not isinstance(workload, dict) else None
    spec = {"config": str(chip.write(folder / chip.file_name)), "axes": spec_axes(axes), **options}
    if source is None:
        path = folder / f"{workload.get('name', 'workload')}.json"
        path.write_text(json.dumps(workload, indent=1))
        spec["workload"] = str(path)
    else:
        spec["trace" if is_trace(source) else "workload"] = str(_cli.locate(source).absolute())
    (folder / "spec.json").write_text(json.dumps(spec, indent=2) + "\n")
    return folder / "spec.json"


def _sweep_args(spec, out, jobs, backend, slurm):
    args = ["sweep", spec, "--out", out, "--quiet"]
    if jobs is not None:
        args += ["--jobs", jobs]
    if backend == "slurm":
        args += ["--backend", "slurm", "--wait"]
        for key, value in (slurm or {}).items():
            values = value if isinstance(value, list) else [value]
            args += [f"--{key.replace('_', '-')}={v}" for v in values]
    elif backend != "local":
        raise ValueError(f"backend '{backend}': use 'local' or 'slurm'")
    return args


def sweep(base=None, axes=None, workload=DEFAULT_WORKLOAD, jobs=None, backend="local", out=None,
          mode="cross", functional=False, slurm=None):
    """Runs `workload` (a path, a dict, or a .jsonl trace) on every point of `axes` over the
    chip `base` (a Chip or a config path); returns results.csv as a SweepResult DataFrame.

    axes: {pointer: [values]} or a list of spec axes ({"pointer", "values", "name", "in"}).
    out: the sweep folder; running again with the same out resumes as `npusim sweep` does
    (complete points are skipped). Its spec is kept beside it, in OUT.spec/, so
    `npusim sweep OUT.spec/spec.json --out OUT` reruns it from a shell. None keeps nothing.
    backend "slurm" submits an array job and waits for it; slurm={"partition": "short",
    "points_per_task": 20, "array_limit": 8, "sbatch_arg": ["--time=00:10:00"]}.
    """
    if not axes:
        raise ValueError("sweep needs axes, e.g. {'/core/matrix/slaves': [8, 16, 32]}")
    chip = as_chip(base)
    options = {"mode": mode, "functional": functional}
    with tempfile.TemporaryDirectory(prefix="npusim-sweep-") as tmp:
        folder = pathlib.Path(out).absolute() if out is not None else pathlib.Path(tmp) / "sweep"
        spec_folder = folder.with_name(folder.name + ".spec")
        spec = _write_spec(spec_folder, chip, workload, axes, options)
        try:
            _cli.call(_sweep_args(spec, folder, jobs, backend, slurm), cwd=pathlib.Path.cwd())
        except InputError as e:
            raise e.renamed({str(spec.parent / chip.file_name): chip.origin}) from None
        result = SweepResult(pd.read_csv(folder / "results.csv"))
        result.directory = folder if out is not None else None
        result.byte_columns = byte_axes(axes)
        return result
