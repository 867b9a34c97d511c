"""Puts a run's inputs where the CLI reads them: config, workload or trace, and .npy files.

The CLI takes files only. A chip, a workload dict or numpy arrays held in memory are written to
a scratch folder; a workload or trace copied there keeps reading its other files, because their
relative paths are made absolute against the original's folder.
"""
import json
import pathlib

import numpy as np

from . import _cli


def is_trace(workload):
    """A path ending in .jsonl is an instruction trace (`npusim run --trace`)."""
    return isinstance(workload, (str, pathlib.Path)) and str(workload).endswith(".jsonl")


def _absolute(file, folder):
    return file if pathlib.Path(file).is_absolute() else str((folder / file).resolve())


def _save_array(name, array, scratch):
    path = scratch / f"{name}.npy"
    np.save(path, np.asarray(array))
    return str(path)


def _bind_workload(doc, folder, arrays, scratch):
    """Workload JSON: "input" binds input.file, a layer's name binds its weights."""
    layers = {layer.get("name"): layer for layer in doc.get("layers", [])}
    if "input" in doc and "file" in doc["input"]:
        doc["input"]["file"] = _absolute(doc["input"]["file"], folder)
    for layer in layers.values():
        if "weights" in layer:
            layer["weights"] = _absolute(layer["weights"], folder)
    for name, array in arrays.items():
        if name == "input":
            doc.setdefault("input", {})["file"] = _save_array(name, array, scratch)
        elif name in layers:
            layers[name]["weights"] = _save_array(f"{name}.weights", array, scratch)
        else:
            raise KeyError(f"inputs: '{name}' is neither 'input' nor a layer of the workload")
    return doc


def _bind_trace(header, folder, arrays, scratch):
    """Trace header: each named input's file (a generated one becomes the array's file)."""
    bound = {entry.get("name"): entry for entry in header.get("inputs", [])}
    for entry in bound.values():
        if "file" in entry:
            entry["file"] = _absolute(entry["file"], folder)
    for name, array in arrays.items():
        if name not in bound:
            raise KeyError(f"inputs: the trace's header has no input '{name}'")
        for generated in ("shape", "dtype", "random_seed"):
            bound[name].pop(generated, None)
        bound[name]["file"] = _save_array(name, array, scratch)
    return header


def workload_file(workload, arrays, scratch):
    """The file to give `npusim run`: the workload as it is, or a scratch copy with the
    arrays bound (a workload given as a dict is always written)."""
    if isinstance(workload, dict):
        doc = _bind_workload(json.loads(json.dumps(workload)), pathlib.Path.cwd(), arrays, scratch)
        path = scratch / f"{workload.get('name', 'workload')}.json"
        path.write_text(json.dumps(doc, indent=1))
        return path
    source = _cli.locate(workload)
    if not arrays:
        return source
    if not is_trace(workload) and source.suffix != ".json":
        raise ValueError(f"{workload}: arrays bind to JSON workloads and traces; "
                         "a SCALE-Sim table or an ONNX model carries its own data")
    path = scratch / source.name
    if is_trace(workload):
        header, rest = source.read_text().split("\n", 1)
        header = _bind_trace(json.loads(header), source.parent, arrays, scratch)
        path.write_text(json.dumps(header) + "\n" + rest)
    else:
        doc = _bind_workload(json.loads(source.read_text()), source.parent, arrays, scratch)
        path.write_text(json.dumps(doc, indent=1))
    return path
