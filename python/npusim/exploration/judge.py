"""Judges one finished sweep point: its objectives, its constraints, or why it failed.

A point the simulator refused (a layer that does not fit NRAM or WRAM, a config out of range)
is a failed trial with the simulator's reason: the compiler itself checks that every layer
fits the scratchpads, so "NRAM >= the workload's need" holds for every trial that ran.
"""
from .metrics import MetricMissing
from .spec import input_error


def judge(spec, k, row, report_of):
    """The trial's record for study.tell: report_of(row) loads the point's report.json."""
    judged = {"batch": k, "point": f"batches/{k:04d}/points/{row['point']}"}
    if row["status"] != "ok":
        judged.update(failed=True, error=row["error"] or "the run failed")
        return judged
    needs_report = any(m.metric.needs_report for m in spec.objectives + spec.constraints)
    report = report_of(row) if needs_report else None
    metrics = {}
    for key, items in (("objectives", spec.objectives), ("constraints", spec.constraints)):
        for i, item in enumerate(items):
            metrics[item.name] = _value(spec, f"/{key}/{i}/metric", item.metric, row, report)
    judged["metrics"] = metrics
    judged["violations"] = [c.violation(metrics[c.name]) for c in spec.constraints] or [0.0]
    return judged


def _value(spec, place, metric, row, report):
    """A metric that a successful run lacks is the spec's mistake (a misspelt column or path):
    it would be missing from every trial, so the exploration stops and says where."""
    try:
        return metric.value(row, report)
    except MetricMissing as e:
        columns = ", ".join(sorted(c for c in row if c.startswith(("util.", "bw.", "stat."))))
        raise input_error(spec.file, place, f"{e} (a successful run has the columns {columns}; "
                                             "report paths: docs/outputs.md)") from None


def feasible(judged):
    return not judged.get("failed") and not any(v > 0 for v in judged["violations"])
