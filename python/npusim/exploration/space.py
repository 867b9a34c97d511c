"""Axes of the design space: a JSON pointer and the values it may take, as optuna distributions.

Three kinds (docs/exploration.md): a list of values (categorical), a range with a step, and a
log range: powers of a base (NRAM 64 KiB .. 4 MiB in doublings) or log-uniform without one.
A power axis is searched by its exponent, so the sampler sees the values as ordered.
"""
import dataclasses
import math

from optuna.distributions import CategoricalDistribution, FloatDistribution, IntDistribution

AXIS_KEYS = {"name", "pointer", "in", "values", "range", "step", "log", "base"}


@dataclasses.dataclass
class Axis:
    name: str
    pointer: str
    in_workload: bool
    kind: str            # "values", "range", "powers" or "log"
    values: list = None  # "values": the choices; "powers": every power of the base in range
    low: float = None
    high: float = None
    step: float = None

    def distribution(self):
        """What optuna samples: the value itself, or for powers the exponent's index."""
        if self.kind == "values":
            return CategoricalDistribution(self.values)
        if self.kind == "powers":
            return IntDistribution(0, len(self.values) - 1)
        integer = isinstance(self.low, int) and isinstance(self.high, int)
        log = self.kind == "log"
        if integer:
            return IntDistribution(self.low, self.high, log=log, step=1 if log else self.step)
        return FloatDistribution(self.low, self.high, log=log, step=None if log else self.step)

    def value(self, param):
        """The value written at the pointer for a sampled parameter."""
        return self.values[param] if self.kind == "powers" else param


MAX_AXIS_VALUES = 1000  # a list's values or a power axis's: each is checked by the CLI before any trial
MAX_RANGE_STEPS = 10**9   # a stepped float range, whose steps optuna only counts


def is_number(value):
    """A finite JSON number that fits a config key (NaN and the infinities come only from
    Python callers; an integer past 64 bits would overflow the float arithmetic below)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return -2**63 <= value < 2**64 if isinstance(value, int) else math.isfinite(value)


def _number_pair(reader, obj, key, place):
    pair = obj[key]
    ok = isinstance(pair, list) and len(pair) == 2 and all(is_number(v) for v in pair)
    if not ok:
        reader.fail(f"{place}/{key}", "expected [low, high], two finite numbers")
    if pair[0] > pair[1]:
        reader.fail(f"{place}/{key}", f"low ({pair[0]}) is above high ({pair[1]})")
    return pair


def _values(reader, obj, place, axis):
    values = obj["values"]
    if not isinstance(values, list) or not values:
        reader.fail(f"{place}/values", "expected a non-empty list")
    if len(values) > MAX_AXIS_VALUES:
        reader.fail(f"{place}/values", f"{len(values)} values; an axis takes at most {MAX_AXIS_VALUES}")
    for i, v in enumerate(values):
        if isinstance(v, float) and not math.isfinite(v):
            reader.fail(f"{place}/values/{i}", "expected a finite number")
        if not (v is None or isinstance(v, (bool, int, float, str))):
            reader.fail(f"{place}/values/{i}", "expected a number, a string, true, false or null "
                        "(a list or object: use several axes, or a \"set\")")
    if len(set(map(repr, values))) != len(values):
        reader.fail(f"{place}/values", "a value is listed twice")
    axis.kind, axis.values = "values", list(values)


def _range(reader, obj, place, axis):
    axis.low, axis.high = _number_pair(reader, obj, "range", place)
    integer = isinstance(axis.low, int) and isinstance(axis.high, int)
    step = obj.get("step", 1 if integer else None)
    if step is not None and (not is_number(step) or step <= 0):
        reader.fail(f"{place}/step", "expected a positive number")
    if integer and not isinstance(step, int):
        reader.fail(f"{place}/step", "an integer range takes a whole-number step")
    if not integer and step is not None and (axis.high - axis.low) / step > MAX_RANGE_STEPS:
        reader.fail(f"{place}/step", f"the range {axis.low} to {axis.high} holds more than {MAX_RANGE_STEPS:,} "
                    f"steps of {step}; give a larger step, or a log range")
    if step is not None and not math.isclose(((axis.high - axis.low) / step) % 1, 0, abs_tol=1e-9):
        reader.fail(f"{place}/step", f"the range {axis.high} - {axis.low} is not a multiple of the step {step}")
    axis.kind, axis.step = "range", step


def _powers(reader, obj, place, axis, base):
    if not is_number(base) or base <= 1:
        reader.fail(f"{place}/base", "expected a finite number above 1")
    # Counted before they are listed: base 1.000000001 from 1 to 1e12 would be 2.8e13 values.
    count = math.log(axis.high / axis.low) / math.log(base) + 1
    if count > MAX_AXIS_VALUES:
        reader.fail(f"{place}/base", f"{axis.low} to {axis.high} in powers of {base} is {count:.3g} values; an "
                    f"axis takes at most {MAX_AXIS_VALUES} (a log range without \"base\" samples it instead)")
    values, v = [], axis.low
    while v <= axis.high * (1 + 1e-12):
        values.append(v)
        v = v * base
    if values[-1] != axis.high and not math.isclose(values[-1], axis.high):
        reader.fail(f"{place}/log", f"{axis.high} is not {axis.low} times a power of {base}")
    axis.kind, axis.values = "powers", values


def _log(reader, obj, place, axis):
    axis.low, axis.high = _number_pair(reader, obj, "log", place)
    if axis.low <= 0:
        reader.fail(f"{place}/log", "a log range needs low > 0")
    if "base" in obj:
        _powers(reader, obj, place, axis, obj["base"])
    else:
        axis.kind = "log"


def parse_axis(obj, reader, i):
    """One entry of "axes"; reader.fail raises the InputError naming its place."""
    place = f"/axes/{i}"
    reader.keys(obj, AXIS_KEYS, place)
    pointer = obj.get("pointer")
    if not isinstance(pointer, str) or not pointer.startswith("/") or pointer == "/":
        reader.fail(f"{place}/pointer", "expected a JSON pointer naming a key, e.g. /core/matrix/slaves")
    where = obj.get("in", "config")
    if where not in ("config", "workload"):
        reader.fail(f"{place}/in", 'expected "config" (default) or "workload"')
    kinds = [k for k in ("values", "range", "log") if k in obj]
    if len(kinds) != 1:
        reader.fail(place, 'give exactly one of "values", "range" and "log"')
    if "step" in obj and kinds != ["range"] or "base" in obj and kinds != ["log"]:
        reader.fail(place, '"step" goes with "range", "base" with "log"')
    axis = Axis(reader.name(obj, place, pointer.strip("/").replace("/", ".")), pointer, where == "workload", "")
    {"values": _values, "range": _range, "log": _log}[kinds[0]](reader, obj, place, axis)
    return axis
