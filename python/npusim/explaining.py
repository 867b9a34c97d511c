"""npusim.explain: how one conv layer maps onto an engine, as a dict.

`npusim explain --format json` names the engine that explained the layer and the layer as read
(with its output size); the explanation itself is text, read here into sections, one per line
label ("Pci", "loops", "cycles", ...), with the line's numbers.
"""
import json
import pathlib
import re
import tempfile

from . import _cli
from .chip import as_chip
from .errors import InputError

_PAIR = re.compile(r"(?<![\w*.])([A-Za-z_]\w*)=(-?\d+(?:\.\d+)?)")
_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?")


def layer_spec(layer):
    """"hi=56,wi=56,..." from a dict {"hi": 56, ...} (or the text itself)."""
    if isinstance(layer, str):
        return layer
    return ",".join(f"{key}={','.join(map(str, v)) if isinstance(v, (list, tuple)) else v}"
                    for key, v in layer.items())


def _number(text):
    return float(text) if "." in text else int(text)


def parse(text):
    """{"text": ..., "sections": {label: {"text": rest of the line, "numbers": [every number
    in it], key: number for each key=number}}}; e.g. sections["cycles"]["numbers"][0] is the
    Wfold unit's total cycles.

    A label is a line's first word; a repeated label gets " 2", " 3"; lines that start with
    a space continue the previous section.
    """
    sections, last = {}, None
    for line in text.splitlines():
        if not line.strip():
            continue
        label, _, rest = line.strip().partition(" ")
        if line[0].isspace() and last is not None:
            sections[last]["text"] += "\n" + line.strip()
            continue
        name, n = label, 2
        while name in sections:
            name, n = f"{label} {n}", n + 1
        sections[name] = {"text": rest.strip(), "numbers": [_number(x) for x in _NUMBER.findall(rest)]}
        sections[name].update({k: _number(v) for k, v in _PAIR.findall(rest)})
        last = name
    return {"text": text, "sections": sections}


def explain(chip=None, layer=None, engine=None, sparsity=None):
    """The mapping of one conv layer (dict or "hi=..,wi=..,ci=..,co=..,kh=..,kw=.." text) on a
    chip, by `engine` ("matrix", "shader", "sparse"; None: the one the compiler would choose).

    Returns {"engine": the engine that explained it, "layer": the layer as read (n, hi, wi, ci,
    co, kh, kw, sh, sw, pad, element_bytes, ho, wo), "config", "notes" (the other engines'
    remarks), "text" (what `npusim explain` prints), "sections": parse(explanation)}.
    """
    if layer is None:
        raise ValueError("explain needs a layer, e.g. {'hi': 56, 'wi': 56, 'ci': 64, 'co': 64, 'k': 3}")
    chip = as_chip(chip)
    with tempfile.TemporaryDirectory(prefix="npusim-explain-") as tmp:
        chip_path = chip.write(pathlib.Path(tmp) / chip.file_name)
        args = ["explain", "--config", chip_path, "--layer", layer_spec(layer), "--format", "json"]
        args += ["--engine", engine] if engine else []
        args += ["--sparsity", sparsity] if sparsity else []
        try:
            done = _cli.call(args, cwd=pathlib.Path.cwd())
        except InputError as e:
            raise e.renamed({str(chip_path): chip.origin}) from None
    answer = json.loads(done.stdout)
    return {"engine": answer["engine"], "layer": answer["layer"], "config": chip.origin,
            "notes": answer["notes"], "text": answer["notes"] + answer["explanation"],
            "sections": parse(answer["explanation"])["sections"]}
