"""The exploration spec (docs/exploration.md): what to vary, what to optimise, what to respect.

Every problem is an InputError naming the spec file and the JSON pointer of the bad key,
as the CLI names them, so `npusim explore` prints one line and exits 2 before anything runs.
"""
import dataclasses
import pathlib

from .. import strict_json
from ..errors import InputError
from .metrics import Metric, parse_metric
from .space import is_number, parse_axis

METHODS = ("random", "tpe", "nsga2")
SPEC_KEYS = {"description", "config", "trace", "workload", "set", "axes", "objectives", "constraints",
             "trials", "batch", "method", "seed", "functional", "backend", "slurm"}
OBJECTIVE_KEYS = {"metric", "direction", "name"}
CONSTRAINT_KEYS = {"metric", "min", "max", "name"}
SET_KEYS = {"pointer", "value", "in", "name"}
SLURM_KEYS = {"partition", "array_limit", "points_per_task", "sbatch_args"}  # a sweep spec's (docs/sweeps.md)


@dataclasses.dataclass
class Objective:
    metric: Metric
    direction: str  # "minimize" or "maximize"
    name: str


@dataclasses.dataclass
class Constraint:
    metric: Metric
    low: float = None   # the value must be >= low (when set)
    high: float = None  # and <= high (when set)
    name: str = ""

    def violation(self, value):
        """How far the value lies outside the bounds: 0 when it respects them (optuna's form)."""
        below = self.low - value if self.low is not None else 0.0
        above = value - self.high if self.high is not None else 0.0
        return max(below, above, 0.0)


@dataclasses.dataclass
class Setting:
    """A value fixed for every trial (a workload's split, a config key the axes leave alone)."""
    name: str
    pointer: str
    value: object
    in_workload: bool = False


@dataclasses.dataclass
class ExploreSpec:
    file: str
    raw: dict
    config: str
    trace: str
    workload: str
    settings: list
    axes: list
    objectives: list
    constraints: list
    trials: int
    batch: int
    method: str
    seed: int
    functional: bool
    backend: str
    slurm: dict


def input_error(file, place, reason):
    """The InputError the CLI would print as `error: <file>: <place>: <reason>`."""
    text = f"{file}: {place}: {reason}" if place else f"{file}: {reason}"  # as the CLI composes it
    return InputError(text, str(file), place, reason)


class _Reader:
    """Reads one spec file; fail() raises the InputError with the file and place."""

    def __init__(self, path, base=None):
        self.path = pathlib.Path(path)
        self.file = str(path)
        self.base = pathlib.Path(base) if base is not None else self.path.parent  # of relative inputs

    def fail(self, place, reason):
        raise input_error(self.file, place, reason)

    def keys(self, obj, allowed, place):
        if not isinstance(obj, dict):
            self.fail(place or "/", "expected a JSON object")
        for key in obj:
            if key not in allowed:
                self.fail(f"{place}/{key}", "unknown key; expected one of: " + ", ".join(sorted(allowed)))

    def count(self, obj, key, default, top=1000000):
        value = obj.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= top:
            self.fail(f"/{key}", f"expected a whole number from 1 to {top}")
        return value

    def input_path(self, obj, key):
        """A file named relative to the spec; it must exist."""
        value = obj[key]
        if not isinstance(value, str) or not value:
            self.fail(f"/{key}", "expected a non-empty string (a file relative to the spec)")
        try:
            path = (self.base / value).resolve()
            found = path.is_file()
        except OSError as e:  # a name too long for the file system, say
            self.fail(f"/{key}", f"{e.strerror}: {value[:80]}{'...' if len(value) > 80 else ''}")
        if not found:
            self.fail(f"/{key}", f"no such file: {path}")
        return str(path)

    def name(self, obj, place, default):
        value = obj.get("name", default)
        if not isinstance(value, str) or not value:
            self.fail(f"{place}/name", "expected a non-empty string")
        return value


def _read_document(reader):
    try:
        if reader.path.exists() and not reader.path.is_file():
            reader.fail("", "not an ordinary file (a spec is a JSON file)")
        text = reader.path.read_text()
    except OSError as e:  # unreadable, or a name too long for the file system
        raise input_error(reader.file, "", e.strerror) from None
    except UnicodeDecodeError as e:
        raise input_error(reader.file, "", f"not UTF-8 text (byte {e.start})") from None
    try:
        doc = strict_json.load_text(text)
    except strict_json.StrictJsonError as e:
        reader.fail(e.place, e.reason)
    reader.keys(doc, SPEC_KEYS, "")
    return doc


def _inputs(reader, doc):
    if "config" not in doc:
        reader.fail("/", 'missing "config" (the base hardware config)')
    if ("trace" in doc) == ("workload" in doc):
        reader.fail("/", 'name exactly one of "trace" and "workload"')
    config = reader.input_path(doc, "config")
    trace = reader.input_path(doc, "trace") if "trace" in doc else ""
    workload = reader.input_path(doc, "workload") if "workload" in doc else ""
    return config, trace, workload


def _list(reader, doc, key, required):
    value = doc.get(key, [])
    if not isinstance(value, list) or (required and not value):
        reader.fail(f"/{key}", "expected a non-empty list" if required else "expected a list")
    return value


def _settings(reader, doc):
    settings = []
    for i, obj in enumerate(_list(reader, doc, "set", False)):
        place = f"/set/{i}"
        reader.keys(obj, SET_KEYS, place)
        for key in ("pointer", "value"):
            if key not in obj:
                reader.fail(place, f'missing "{key}"')
        pointer = obj["pointer"]
        if not isinstance(pointer, str) or not pointer.startswith("/") or pointer == "/":
            reader.fail(f"{place}/pointer", "expected a JSON pointer naming a key, e.g. /split")
        in_workload = _in_workload(reader, obj, place)
        name = reader.name(obj, place, "set" + pointer.replace("/", "."))
        settings.append(Setting(name, pointer, obj["value"], in_workload))
    return settings


def _in_workload(reader, obj, place):
    where = obj.get("in", "config")
    if where not in ("config", "workload"):
        reader.fail(f"{place}/in", 'expected "config" (default) or "workload"')
    return where == "workload"


def _objective(reader, obj, i):
    place = f"/objectives/{i}"
    if isinstance(obj, str):
        obj = {"metric": obj}
    reader.keys(obj, OBJECTIVE_KEYS, place)
    if "metric" not in obj:
        reader.fail(place, 'missing "metric" (cycles, energy, edp, area, a results.csv column or a report path)')
    metric = parse_metric(obj["metric"], reader, f"{place}/metric")
    direction = obj.get("direction", "minimize")
    if direction not in ("minimize", "maximize"):
        reader.fail(f"{place}/direction", 'expected "minimize" (default) or "maximize"')
    return Objective(metric, direction, reader.name(obj, place, metric.label))


def _bound(reader, obj, key, place):
    value = obj.get(key)
    if value is not None and not is_number(value):
        reader.fail(f"{place}/{key}", "expected a finite number")
    return value


def _constraint(reader, obj, i):
    place = f"/constraints/{i}"
    reader.keys(obj, CONSTRAINT_KEYS, place)
    if "metric" not in obj:
        reader.fail(place, 'missing "metric"')
    metric = parse_metric(obj["metric"], reader, f"{place}/metric")
    low, high = _bound(reader, obj, "min", place), _bound(reader, obj, "max", place)
    if low is None and high is None:
        reader.fail(place, 'give "min", "max" or both')
    if low is not None and high is not None and low > high:
        reader.fail(place, f'"min" ({low}) is above "max" ({high})')
    return Constraint(metric, low, high, reader.name(obj, place, metric.label))


def _unique_names(reader, spec):
    seen = {}
    groups = [("axes", spec.axes), ("set", spec.settings), ("objectives", spec.objectives),
              ("constraints", spec.constraints)]
    for key, items in groups:
        for i, item in enumerate(items):
            if key == "constraints" and any(o.name == item.name and o.metric == item.metric
                                            for o in spec.objectives):
                continue  # a constraint on an objective shares its column
            if item.name in seen:
                reader.fail(f"/{key}/{i}/name", f"'{item.name}' is already the name of {seen[item.name]}")
            seen[item.name] = f"/{key}/{i}"


def _method(reader, doc):
    method = doc.get("method", "tpe")
    if method not in METHODS:
        reader.fail("/method", "expected one of: " + ", ".join(METHODS))
    return method


def _seed(reader, doc):
    seed = doc.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**32:
        reader.fail("/seed", "expected a whole number from 0 to 4294967295")
    return seed


def _backend(reader, doc):
    backend = doc.get("backend", "local")
    if backend not in ("local", "slurm"):
        reader.fail("/backend", 'expected "local" or "slurm"')
    slurm = doc.get("slurm", {})
    reader.keys(slurm, SLURM_KEYS, "/slurm")  # their values: checked by the sweep, as in its spec
    return backend, slurm


def load_spec(path, doc=None):
    """Reads and checks an exploration spec; raises InputError naming the key at fault.
    With doc (a dict), path only names it in messages and inputs are relative to the
    working directory."""
    reader = _Reader(path, base="." if doc is not None else None)
    if doc is None:
        doc = _read_document(reader)
    else:
        reader.keys(doc, SPEC_KEYS, "")
    config, trace, workload = _inputs(reader, doc)
    axes = [parse_axis(obj, reader, i) for i, obj in enumerate(_list(reader, doc, "axes", True))]
    objectives = [_objective(reader, o, i) for i, o in enumerate(_list(reader, doc, "objectives", True))]
    constraints = [_constraint(reader, c, i) for i, c in enumerate(_list(reader, doc, "constraints", False))]
    functional = doc.get("functional", False)
    if not isinstance(functional, bool):
        reader.fail("/functional", "expected true or false")
    backend, slurm = _backend(reader, doc)
    spec = ExploreSpec(str(path), doc, config, trace, workload, _settings(reader, doc), axes, objectives,
                       constraints, reader.count(doc, "trials", 50), reader.count(doc, "batch", 8, 10000),
                       _method(reader, doc), _seed(reader, doc), functional, backend, slurm)
    _unique_names(reader, spec)
    for axis in spec.axes + spec.settings:
        if axis.in_workload and not workload:
            reader.fail("/workload", f"'{axis.name}' sets the workload, but the spec names a trace")
    return spec


def with_overrides(spec, trials=None, seed=None):
    """The spec with the command line's (or the caller's) budget and seed."""
    for option, value, top in (("--trials", trials, 1000000), ("--seed", seed, 2**32 - 1)):
        low = 1 if option == "--trials" else 0
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or not low <= value <= top):
            raise input_error(spec.file, option, f"expected a whole number from {low} to {top}")
    return dataclasses.replace(spec, trials=spec.trials if trials is None else trials,
                               seed=spec.seed if seed is None else seed)
