"""Puts a run's inputs where the CLI reads them: config, workload or trace, and .npy files.

The CLI takes files only. A chip, a workload dict or numpy arrays held in memory are written to
a scratch folder; a workload or trace copied there keeps reading its other files, because their
relative paths are made absolute against the original's folder.

Every name the caller gives (the workload's, the arrays') is checked before anything is
written, and no file is named after one: the arrays are saved as array-0.npy, array-1.npy ...
and a workload dict as <its name>.json only when that name is a plain file name. So a layer
named by an absolute path or with ".." cannot make npusim write outside its scratch folder.
"""
import json
import pathlib
import re

import numpy as np

from . import _cli, strict_json
from .errors import InputError

# A dict workload's "name" is kept as its file's name (reports name it) when it is plain.
_PLAIN_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,99}")


def is_trace(workload):
    """A path ending in .jsonl is an instruction trace (`npusim run --trace`)."""
    return isinstance(workload, (str, pathlib.Path)) and str(workload).endswith(".jsonl")


def label(workload):
    """How messages name the workload: its path, or for a dict "workload dict '<name>'"."""
    if isinstance(workload, dict):
        name = workload.get("name", "workload")
        return f"workload dict '{name}'" if isinstance(name, str) else "workload dict"
    return str(workload)


def refuse(workload, place, reason):
    file = label(workload)
    return InputError(": ".join(x for x in (file, place, reason) if x), file, place, reason)


def _absolute(file, folder):
    return file if pathlib.Path(file).is_absolute() else str((folder / file).resolve())


class Arrays:
    """The caller's arrays, checked, then saved in the scratch folder under names of ours."""

    def __init__(self, arrays, workload, known, expected_shape):
        """known: the names that take an array; expected_shape(name): its shape, or None."""
        if not isinstance(arrays, dict):
            raise refuse(workload, "inputs", "expected a dict {name: numpy array}")
        self.items = []
        for name, array in arrays.items():
            if not isinstance(name, str) or name not in known:
                raise refuse(workload, f"inputs[{name!r}]", "names nothing that takes an array; expected one of: " +
                             ", ".join(sorted(known)) if known else "the workload takes no arrays")
            array = np.asanyarray(array)
            shape = expected_shape(name)
            if shape is not None and tuple(array.shape) != tuple(shape):
                raise refuse(workload, f"inputs[{name!r}]", f"has shape {list(array.shape)}; the workload's "
                             f"'{name}' takes {list(shape)}")
            self.items.append((name, array))
        self.saved = {}  # scratch path -> "inputs['name']"

    def save(self, name, scratch):
        """Saves the array given for `name`; returns its path in the scratch folder."""
        index = [n for n, _ in self.items].index(name)
        path = pathlib.Path(scratch) / f"array-{index}.npy"
        np.save(path, self.items[index][1])
        self.saved[str(path)] = f"inputs['{name}']"
        return str(path)

    def names(self):
        return [n for n, _ in self.items]


def _input_shape(doc):
    """The network input's array shape, [batch, h, w, c], when the workload declares it."""
    given = doc.get("input")
    if not isinstance(given, dict) or not all(isinstance(given.get(k), int) for k in "hwc"):
        return None
    batch = doc.get("batch", 1)
    return [batch if isinstance(batch, int) else 1, given["h"], given["w"], given["c"]]


def bind_workload(workload, doc, folder, arrays, scratch):
    """Workload JSON: "input" binds input.file, a layer's name binds its weights."""
    if not isinstance(doc, dict):
        raise refuse(workload, "", "expected a JSON object (docs/workload-format.md)")
    listed = doc.get("layers", [])
    layers = {l.get("name"): l for l in listed if isinstance(l, dict)} if isinstance(listed, list) else {}
    known = {"input"} | {n for n in layers if isinstance(n, str)}
    bound = Arrays(arrays, workload, known, lambda name: _input_shape(doc) if name == "input" else None)
    if isinstance(doc.get("input"), dict) and "file" in doc["input"]:
        doc["input"]["file"] = _absolute(doc["input"]["file"], folder)
    for layer in layers.values():
        if "weights" in layer:
            layer["weights"] = _absolute(layer["weights"], folder)
    for name in bound.names():
        if name == "input":
            doc.setdefault("input", {})["file"] = bound.save(name, scratch)
        else:
            layers[name]["weights"] = bound.save(name, scratch)
    return doc, bound.saved


def _bind_trace(workload, header, folder, arrays, scratch):
    """Trace header: each named input's file (a generated one becomes the array's file)."""
    entries = header.get("inputs", []) if isinstance(header, dict) else []
    bound_entries = {e.get("name"): e for e in entries if isinstance(e, dict)} if isinstance(entries, list) else {}
    bound = Arrays(arrays, workload, {n for n in bound_entries if isinstance(n, str)}, lambda name: None)
    for entry in bound_entries.values():
        if "file" in entry:
            entry["file"] = _absolute(entry["file"], folder)
    for name in bound.names():
        for generated in ("shape", "dtype", "random_seed"):
            bound_entries[name].pop(generated, None)
        bound_entries[name]["file"] = bound.save(name, scratch)
    return header, bound.saved


def _read(source, workload):
    try:
        return pathlib.Path(source).read_text()
    except (OSError, UnicodeDecodeError) as e:
        raise refuse(workload, "", getattr(e, "strerror", None) or str(e)) from None


def _parsed(text, workload):
    """Strict JSON, as the CLI reads it (a key twice, NaN, deep nesting: InputError)."""
    try:
        return strict_json.load_text(text)
    except strict_json.StrictJsonError as e:
        raise refuse(workload, e.place, e.reason) from None


def _dict_file_name(workload):
    name = workload.get("name", "workload")
    return f"{name}.json" if isinstance(name, str) and _PLAIN_NAME.fullmatch(name) else "workload.json"


def workload_file(workload, arrays, scratch):
    """The file to give `npusim run` and {scratch file: what the user gave} for messages: the
    workload as it is, or a scratch copy with the arrays bound (a dict is always written)."""
    scratch = pathlib.Path(scratch)
    if isinstance(workload, dict):
        try:
            copy = json.loads(json.dumps(workload, allow_nan=False))
        except (TypeError, ValueError) as e:
            raise refuse(workload, "", f"not a JSON document: {e}") from None
        doc, saved = bind_workload(workload, copy, pathlib.Path.cwd(), arrays, scratch)
        path = scratch / _dict_file_name(workload)
        path.write_text(json.dumps(doc, indent=1))
        return path, dict(saved, **{str(path): label(workload)})
    source = _cli.locate(workload)
    if not arrays:
        return source, {str(source): str(workload)}
    if not is_trace(workload) and source.suffix != ".json":
        raise refuse(workload, "inputs", "arrays bind to JSON workloads and traces; a SCALE-Sim table or an "
                     "ONNX model carries its own data")
    path = scratch / source.name  # an existing file's own name: reports name it
    if is_trace(workload):
        header, rest = (_read(source, workload).split("\n", 1) + [""])[:2]
        header, saved = _bind_trace(workload, _parsed(header, workload), source.parent, arrays, scratch)
        path.write_text(json.dumps(header) + "\n" + rest)
    else:
        doc, saved = bind_workload(workload, _parsed(_read(source, workload), workload), source.parent, arrays, scratch)
        path.write_text(json.dumps(doc, indent=1))
    return path, dict(saved, **{str(path): str(workload)})
