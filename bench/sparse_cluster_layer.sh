#!/usr/bin/env bash
# Sparse-cluster benchmark (issues 10 and 31): compress + sparse_conv of a 56x56x64 -> 64,
# 3x3, pad 1 layer on configs/sparse.json at 0 / 50 / 90 % zeros (ifm and weights), timing
# mode. Prints simulated dense-equivalent and useful MACs per host second, from the median
# wall time and from the median CPU time (user + sys of the process: on a shared machine the
# wall time also counts waiting for a core) of RUNS runs (default 3).
# NPUSIM_BASE=/path/to/old/npusim adds the same row for that build, checks that it simulated
# the same cycles, and prints the CPU-time speed-up.
source "$(dirname "$0")/common.sh"

python3 - "$root" "$work" "${RUNS:-3}" "$npusim" ${NPUSIM_BASE:+"$NPUSIM_BASE"} <<'PY'
import json, os, statistics, subprocess, sys, time
root, work, runs, binaries = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]

def timed_run(binary, trace, out):
    before, start = os.times(), time.perf_counter()
    subprocess.run([binary, "run", "--quiet", "--config", f"{root}/configs/sparse.json", "--trace", trace,
                    "--out", out], check=True)
    wall, after = time.perf_counter() - start, os.times()
    return wall, (after.children_user - before.children_user) + (after.children_system - before.children_system)

print(f"{'build':6} {'zeros':5} {'wall_s':>7} {'cpu_s':>7} {'dense_MACs':>11} {'useful_MACs':>11} {'cycles':>9} "
      f"{'dense/wall_s':>12} {'dense/cpu_s':>12} {'useful/cpu_s':>12}")
for zeros in ("0.0", "0.5", "0.9"):
    trace = f"{work}/layer.jsonl"
    subprocess.run([sys.executable, f"{root}/bench/make_sparse_layer_trace.py", trace, zeros], check=True)
    cpu_by_build, cycles_by_build = [], []
    for label, binary in zip(("this", "base"), binaries):
        out = f"{work}/run-{label}"
        walls, cpus = zip(*(timed_run(binary, trace, out) for _ in range(runs)))
        wall, cpu = statistics.median(walls), statistics.median(cpus)
        layer = json.load(open(f"{out}/report.json"))["sparse_layers"][0]
        d, u = layer["dense_macs"], layer["useful_macs"]
        cpu_by_build.append(cpu)
        cycles_by_build.append(layer["cycles"])
        print(f"{label:6} {zeros:5} {wall:7.3f} {cpu:7.3f} {d:11d} {u:11d} {layer['cycles']:9d} "
              f"{d / wall:12.3e} {d / cpu:12.3e} {u / cpu:12.3e}")
    if len(binaries) == 2:
        if cycles_by_build[0] != cycles_by_build[1]:
            sys.exit(f"error: the builds simulated different cycles at {zeros} zeros: {cycles_by_build}")
        print(f"{'':6} {zeros:5} speed-up in CPU time: {cpu_by_build[1] / cpu_by_build[0]:.1f}x")
PY
