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

from .. import _cli
from ..errors import InputError
from .spec import input_error


def _probe_values(axis):
    if axis.kind == "values":
        return axis.values
    if axis.kind == "powers":
        return [axis.values[0], axis.values[-1]]
    return [axis.low, axis.high]


def _probes(spec):
    """(place in the spec, pointer, value) of every value to try."""
    for i, axis in enumerate(spec.axes):
        if not axis.in_workload:
            key = {"powers": "log"}.get(axis.kind, axis.kind)
            for value in _probe_values(axis):
                yield f"/axes/{i}/{key}", f"/axes/{i}/pointer", axis.pointer, value
    for j, setting in enumerate(spec.settings):
        if not setting.in_workload:
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


def check_config_axes(spec):
    """Raises InputError at the spec place of the first axis value the config refuses."""
    probes = list(_probes(spec))
    if not probes:
        return
    resolved = json.loads(_cli.call(["validate", spec.config]).stdout)
    with tempfile.TemporaryDirectory(prefix="npusim-explore-") as folder:
        path = pathlib.Path(folder) / "probe.json"
        for value_place, pointer_place, pointer, value in probes:
            doc = copy.deepcopy(resolved)
            try:
                _set(doc, pointer, value)
            except (ValueError, IndexError, TypeError):
                raise input_error(spec.file, pointer_place, f"{pointer} names no key of the config") from None
            path.write_text(json.dumps(doc))
            try:
                _cli.call(["validate", path])
            except InputError as e:
                place = pointer_place if "unknown key" in e.reason else value_place
                raise input_error(spec.file, place, f"{pointer} = {json.dumps(value)}: {e.reason}") from None
