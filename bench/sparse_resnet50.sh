#!/usr/bin/env bash
# Pruned network end to end (issues 10 and 31): traces/workloads/resnet50-pruned.json on
# configs/sparse.json in timing mode, against dense ResNet-50 on the same chip. Prints wall
# and CPU time (user + sys: on a shared machine the wall time also counts waiting for a core),
# simulated cycles, dense-equivalent and useful MACs per CPU second, and how many layers each
# engine ran. One run each. NPUSIM_BASE=/path/to/old/npusim adds the same rows for that build
# (the pruned run took tens of seconds before issue 31), checks that it simulated the same
# cycles, and prints the CPU-time speed-up.
source "$(dirname "$0")/common.sh"

python3 - "$root" "$work" "$npusim" ${NPUSIM_BASE:+"$NPUSIM_BASE"} <<'PY'
import collections, json, os, subprocess, sys, time
root, work, binaries = sys.argv[1], sys.argv[2], sys.argv[3:]

print(f"{'build':6} {'workload':16} {'wall_s':>8} {'cpu_s':>8} {'cycles':>10} {'dense_MACs':>14} {'useful_MACs':>14} "
      f"{'dense/cpu_s':>12} {'useful/cpu_s':>12}  layers_by_engine")
for net in ("resnet50", "resnet50-pruned"):
    cpu_by_build, cycles_by_build = [], []
    for label, binary in zip(("this", "base"), binaries):
        out = f"{work}/{net}-{label}"
        before, start = os.times(), time.perf_counter()
        subprocess.run([binary, "run", "--quiet", "--config", f"{root}/configs/sparse.json",
                        "--workload", f"{root}/traces/workloads/{net}.json", "--out", out], check=True)
        wall, after = time.perf_counter() - start, os.times()
        cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
        r = json.load(open(f"{out}/report.json"))
        rows = r["workload"]["rows"]
        dense = sum(row["macs"] for row in rows)
        useful = sum(row["sparse"]["useful_macs"] if row["engine"] == "sparse" else row["macs"] for row in rows)
        engines = collections.Counter(row["engine"] for row in rows if row["kind"] in ("conv", "fc"))
        cpu_by_build.append(cpu)
        cycles_by_build.append(r["total_cycles"])
        print(f"{label:6} {net:16} {wall:8.2f} {cpu:8.2f} {r['total_cycles']:10d} {dense:14d} {useful:14d} "
              f"{dense / cpu:12.3e} {useful / cpu:12.3e}  {dict(sorted(engines.items()))}")
    if len(binaries) == 2:
        if cycles_by_build[0] != cycles_by_build[1]:
            sys.exit(f"error: the builds simulated different cycles for {net}: {cycles_by_build}")
        print(f"{'':6} {net:16} speed-up in CPU time: {cpu_by_build[1] / cpu_by_build[0]:.1f}x")
PY
