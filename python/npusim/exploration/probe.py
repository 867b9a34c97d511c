"""Checks the config axes before anything runs: each axis's extreme values, one axis at a time,
written into the base config and validated by `npusim validate`.

A value the config can never accept (a pointer to no key, a slave count out of range) would
fail every trial that draws it; it is the spec's mistake, so it is reported at the axis's place
in the spec, with the config's own reason, and nothing runs.
"""
import copy
import json
import pathlib
import tempfile

from .. import _cli, inputs, strict_json
from ..errors import InputError
from . import batches, judge
from .spec import input_error

# results.csv columns every successful run has (apps/sweep/SweepResults.cpp): a spec that
# reads only these needs no probe run.
ALWAYS_THERE = {"total_cycles", "time_us", "dram_bytes", "energy_pj", "edp", "area_mm2"}


def _probe_values(axis):
    if axis.kind == "values":
        return axis.values
    if axis.kind == "powers":
        return [axis.values[0], axis.values[-1]]
    return [axis.low, axis.high]


def _probes(spec, in_workload=False):
    """(place of the value in the spec, place of its pointer, pointer, value) of every value
    to try, of the config's axes and settings or of the workload's."""
    for i, axis in enumerate(spec.axes):
        if axis.in_workload == in_workload:
            key = {"powers": "log"}.get(axis.kind, axis.kind)
            for value in _probe_values(axis):
                yield f"/axes/{i}/{key}", f"/axes/{i}/pointer", axis.pointer, value
    for j, setting in enumerate(spec.settings):
        if setting.in_workload == in_workload:
            yield f"/set/{j}/value", f"/set/{j}/pointer", setting.pointer, setting.value


def _set(doc, pointer, value):
    """Writes value at a JSON pointer, creating missing objects on the way (validate then
    names the unknown key)."""
    steps = [s.replace("~1", "/").replace("~0", "~") for s in pointer.split("/")[1:]]
    node = doc
    for step in steps[:-1]:
        node = node[int(step)] if isinstance(node, list) else node.setdefault(step, {})
    if isinstance(node, list):
        node[int(steps[-1])] = value
    else:
        node[steps[-1]] = value


def _try_each(spec, base, probes, check):
    """Writes each probe's value into a copy of `base` and runs check(doc) (which calls the
    CLI); raises InputError at the spec's place of the first value refused."""
    for value_place, pointer_place, pointer, value in probes:
        doc = copy.deepcopy(base)
        try:
            _set(doc, pointer, value)
        except (ValueError, IndexError, TypeError, KeyError, AttributeError):
            raise input_error(spec.file, pointer_place, f"{pointer} names no key") from None
        try:
            check(doc)
        except InputError as e:
            place = pointer_place if "unknown key" in e.reason else value_place
            raise input_error(spec.file, place, f"{pointer} = {json.dumps(value)}: {e.reason}") from None


def check_config_axes(spec):
    """Raises InputError at the spec place of the first axis value the config refuses."""
    probes = list(_probes(spec))
    if not probes:
        return
    resolved = json.loads(_cli.call(["validate", spec.config]).stdout)
    with tempfile.TemporaryDirectory(prefix="npusim-explore-") as folder:
        path = pathlib.Path(folder) / "probe.json"

        def validate(doc):
            path.write_text(json.dumps(doc))
            _cli.call(["validate", path])
        _try_each(spec, resolved, probes, validate)


def check_workload_axes(spec):
    """The same for the values the spec writes into a JSON workload: each compiled on the base
    config, so a pointer to no key or a value the workload reader refuses stops the
    exploration before any trial (it would fail every trial that drew it)."""
    probes = list(_probes(spec, in_workload=True))
    if not probes or not spec.workload.endswith(".json"):
        return
    source = pathlib.Path(spec.workload)
    try:
        base = strict_json.load_text(source.read_text())
    except (OSError, UnicodeDecodeError, strict_json.StrictJsonError):
        return  # the trials report the workload's own fault, naming it
    with tempfile.TemporaryDirectory(prefix="npusim-explore-") as folder:
        path, trace = pathlib.Path(folder) / source.name, pathlib.Path(folder) / "probe.jsonl"

        def compile_it(doc):
            doc, _ = inputs.bind_workload(spec.workload, doc, source.parent, {}, folder)
            path.write_text(json.dumps(doc))
            _cli.call(["compile", "-q", "-c", spec.config, "-w", path, "-o", trace])
        _try_each(spec, base, probes, compile_it)


def check_metrics(spec):
    """Reads every objective and constraint from one run of a design of the space (each axis
    at its low end; if that design fails, at its high end), so a metric successful runs lack
    or that is not a number (a misspelt column, a report path to a name) is refused at its
    place in the spec before any trial runs. The run is a one-point sweep in a temporary
    folder, as a batch's; when both designs fail, the trials judge the metrics."""
    metrics = [m.metric for m in spec.objectives + spec.constraints]
    if all(m.column in ALWAYS_THERE for m in metrics):
        return
    with tempfile.TemporaryDirectory(prefix="npusim-explore-") as folder:
        for k, end in enumerate((0, -1)):
            design = {axis.name: _probe_values(axis)[end] for axis in spec.axes}
            row = batches.run_batch(spec, folder, k, [design], 1, "local")[0]
            if row["status"] == "ok":
                judge.judge(spec, k, row, lambda r: batches.read_report(folder, k, r))
                return
