"""What a trial is judged by: a column of the sweep's results.csv or a number in its report.json.

A metric is named (docs/exploration.md) by
- a short name: cycles, time, energy, edp, area;
- a results.csv column: total_cycles, energy_pj, mac_utilization, util.core0.matrix,
  stat.matrix.issued_macs ... (docs/sweeps.md lists them);
- a path into the point's report.json: a JSON pointer, "/energy/total_pj", or a dotted path,
  "report.energy.total_pj". Report keys hold dots themselves ("core0.matrix"), so a dotted
  step takes the longest key that matches; in a list, a step is an index or the element's
  "name": "/memories/core0.nram/peak_occupancy_bytes".
"""
import dataclasses
import math

SHORT_NAMES = {"cycles": "total_cycles", "time": "time_us", "energy": "energy_pj", "edp": "edp",
               "area": "area_mm2"}
FIXED_COLUMNS = {"total_cycles", "time_us", "macs", "mac_utilization", "dram_bytes", "dram_bw_utilization",
                 "energy_pj", "edp", "area_mm2"}
COLUMN_PREFIXES = ("util.", "bw.", "stat.")
UNITS = {"total_cycles": "cycles", "time_us": "µs", "energy_pj": "pJ", "edp": "J·s", "area_mm2": "mm²",
         "macs": "MACs", "dram_bytes": "bytes"}


class MetricMissing(LookupError):
    """A metric a successful run does not have: the spec names something that is not there."""


@dataclasses.dataclass
class Metric:
    label: str       # as the spec wrote it
    column: str = ""  # a results.csv column, or
    path: str = ""    # a path into report.json
    pointer: bool = False

    @property
    def unit(self):
        return UNITS.get(self.column, "")

    @property
    def needs_report(self):
        return not self.column

    def value(self, row, report=None):
        """The metric of one successful point: row is its results.csv row (a dict), report
        its report.json (a dict, needed only for report paths)."""
        raw = row.get(self.column) if self.column else _resolve(report, self.path, self.pointer)
        if raw is None or raw == "" or (isinstance(raw, float) and math.isnan(raw)):
            raise MetricMissing(f"'{self.label}' is not in the run's results")
        try:
            return float(raw)
        except (TypeError, ValueError):
            raise MetricMissing(f"'{self.label}' is not a number in the run's results: {raw!r}") from None


def parse_metric(text, reader, place):
    """A metric name from the spec; reader.fail raises the InputError at place."""
    if not isinstance(text, str) or not text:
        reader.fail(place, "expected a metric name (cycles, energy, edp, area, a results.csv column "
                           "or a report path)")
    if text in SHORT_NAMES:
        return Metric(text, column=SHORT_NAMES[text])
    if text in FIXED_COLUMNS or text.startswith(COLUMN_PREFIXES):
        return Metric(text, column=text)
    if text.startswith("/"):
        return Metric(text, path=text, pointer=True)
    if text.startswith("report.") and len(text) > len("report."):
        return Metric(text, path=text[len("report."):])
    reader.fail(place, f"unknown metric '{text}'; expected one of {', '.join(SHORT_NAMES)}, a results.csv "
                       "column (total_cycles, energy_pj, util.<engine>, stat.<kind>.<counter> ...), a JSON "
                       "pointer into report.json (/energy/total_pj) or report.<dotted path>")


def _pointer_steps(path):
    return [s.replace("~1", "/").replace("~0", "~") for s in path.split("/")[1:]]


def _in_list(items, step):
    if step.isdigit() and int(step) < len(items):
        return items[int(step)]
    named = [x for x in items if isinstance(x, dict) and x.get("name") == step]
    if not named:
        raise KeyError(step)
    return named[0]


def _resolve(report, path, pointer):
    if report is None:
        raise MetricMissing(f"'{path}': the run has no report.json")
    try:
        return _walk_pointer(report, _pointer_steps(path)) if pointer else _walk_dotted(report, path)
    except (KeyError, TypeError):
        raise MetricMissing(f"'{path}' names nothing in the run's report.json") from None


def _walk_pointer(node, steps):
    for step in steps:
        node = _in_list(node, step) if isinstance(node, list) else node[step]
    return node


def _walk_dotted(node, path):
    """Each step is the longest prefix of what is left that names a key (or a list element)."""
    parts = path.split(".")
    while parts:
        for n in range(len(parts), 0, -1):
            step = ".".join(parts[:n])
            try:
                node = _in_list(node, step) if isinstance(node, list) else node[step]
            except KeyError:
                continue
            parts = parts[n:]
            break
        else:
            raise KeyError(".".join(parts))
    return node
