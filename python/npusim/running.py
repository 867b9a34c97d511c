"""npusim.run: one simulation, its own `npusim run` process, read back as Python objects."""
import json
import pathlib
import shutil
import tempfile

import numpy as np
import pandas as pd

from . import _cli, charts
from .chip import as_chip
from .errors import InputError
from .inputs import is_trace, workload_file

DEFAULT_WORKLOAD = "traces/workloads/resnet50.json"  # what `npusim run` runs by default
INSTRUCTION_COLUMNS = ["id", "op", "engine", "core", "dispatch", "start", "end", "stall_cycles", "bytes", "macs"]


class Run:
    """What one `npusim run` wrote, in memory: the report and its tables.

    cycles, time_us, energy (pJ, the whole run), area (mm²), layers / engines / memories /
    instructions (DataFrames), report (report.json as a dict), tensors (functional runs:
    name -> numpy array), directory (the run folder, or None when nothing was kept).
    """

    def __init__(self, folder, keep):
        folder = pathlib.Path(folder)
        self.report = json.loads((folder / "report.json").read_text())
        # Runs with `--rows layers|none`, or above the row limit, have no instructions.csv.
        csv = folder / "instructions.csv"
        self.instructions = pd.read_csv(csv) if csv.exists() else pd.DataFrame(columns=INSTRUCTION_COLUMNS)
        self.tensors = {p.stem: np.load(p) for p in sorted((folder / "tensors").glob("*.npy"))}
        self.directory = folder if keep else None
        # out=None keeps no file; the timeline is small (0.4 MB for ResNet-50), so keep its text.
        self._timeline = None if keep else (folder / "timeline.json").read_text()

    @property
    def cycles(self):
        return self.report["total_cycles"]

    @property
    def time_us(self):
        return self.report["time_us"]

    @property
    def energy(self):
        """Energy of the whole run in pJ (report.json energy.total_pj), dynamic and leakage."""
        return self.report.get("energy", {}).get("total_pj")

    @property
    def area(self):
        """Chip area in mm² (report.json area.total_mm2)."""
        return self.report.get("area", {}).get("total_mm2")

    @property
    def layers(self):
        """One row per workload layer (report.json workload.rows) with its energy_pj."""
        rows = self.report.get("workload", {}).get("rows", [])
        table = pd.DataFrame(rows)
        energy = {l["name"]: l["total_pj"] for l in self.report.get("energy", {}).get("layers", [])}
        if len(table):
            table["energy_pj"] = table["name"].map(energy)
        return table

    @property
    def engines(self):
        return pd.DataFrame(self.report["engines"])

    @property
    def memories(self):
        """Scratchpads, buses and caches, then the DRAM channels."""
        return pd.DataFrame(self.report["memories"] + self.report.get("dram_channels", []))

    def timeline(self, path=None):
        """The Perfetto trace (open it in https://ui.perfetto.dev): its path in the run folder,
        or, for a run that kept nothing, written to `path`."""
        if path is None:
            if self.directory is None:
                raise ValueError("this run kept no files (out=None): give timeline(path) to write one")
            return self.directory / "timeline.json"
        path = pathlib.Path(path)
        if self.directory is None:
            path.write_text(self._timeline)
        else:
            shutil.copyfile(self.directory / "timeline.json", path)
        return path

    def plot_layers(self, output=None, title=None):
        """Energy per layer by component class (the chart of scripts/plot_energy.py)."""
        return charts.finish(charts.energy_figure(self.report, title), output)

    def plot_roofline(self, output=None, title=None):
        """Each layer's MACs per cycle against its MACs per DRAM byte, under the roofline."""
        return charts.finish(charts.roofline_figure(self.report, title), output)

    def __repr__(self):
        return f"<Run {self.report.get('trace')} on {self.report.get('config')}: {self.cycles} cycles>"


def _run_args(chip_path, workload, options):
    args = ["run", "--config", chip_path, "--trace" if is_trace(workload) else "--workload", options["file"],
            "--out", options["out"], "--quiet"]
    if options["functional"]:
        args.append("--functional")
    for flag in ("split", "dependency_mode"):
        if options[flag] is not None:
            args += ["--" + flag.replace("_", "-"), options[flag]]
    return args


def run(chip=None, workload=DEFAULT_WORKLOAD, functional=False, split=None, dependency_mode=None,
        out=None, inputs=None):
    """Runs a workload (JSON/CSV/ONNX path or dict) or a trace (.jsonl) on a chip.

    inputs: {name: numpy array} for the network input ("input") or a layer's weights (its
    name), or a trace header's inputs. out: the run folder to keep (replaced if npusim made
    it); None keeps nothing on disk. Bad input raises InputError with the CLI's message.
    """
    chip = as_chip(chip)
    with tempfile.TemporaryDirectory(prefix="npusim-run-") as tmp:
        scratch = pathlib.Path(tmp)
        folder = pathlib.Path(out) if out is not None else scratch / "run"
        file, given = workload_file(workload, inputs or {}, scratch)  # names checked before any write
        options = dict(file=file, out=folder.absolute(), functional=functional, split=split,
                       dependency_mode=dependency_mode)
        chip_path = chip.write(scratch / chip.file_name)
        given[str(chip_path)] = chip.origin
        try:
            _cli.call(_run_args(chip_path, workload, options), cwd=pathlib.Path.cwd())
        except InputError as e:
            raise e.renamed(given) from None
        return Run(folder, keep=out is not None)
