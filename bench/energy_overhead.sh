#!/usr/bin/env bash
# Cost of the energy account (issue 16) in timing mode: the same runs with a build
# from before the energy model (NPUSIM_BASE) and with this one (NPUSIM, default
# build/npusim), interleaved, 15 runs each; prints the median wall time of each and
# the difference. The runs: the default `npusim run` (ResNet-50 on default.json),
# the pruned ResNet-50 on configs/sparse.json (the chip with most priced counters),
# and MobileNetV2 on smp-2x2 (four cores).
#   NPUSIM_BASE=/path/to/old/npusim bench/energy_overhead.sh
# An old build: git worktree add /tmp/npusim-base 434e749 && /tmp/npusim-base/scripts/build.sh
source "$(dirname "$0")/common.sh"
base="${NPUSIM_BASE:?set NPUSIM_BASE to an npusim built before the energy model}"
python3 - "$base" "$npusim" "$root" <<'PY'
import statistics, subprocess, sys, tempfile, time
base, new, root = sys.argv[1:4]
runs = {
    "default run (ResNet-50)": [],
    "pruned ResNet-50, sparse.json": ["--config", f"{root}/configs/sparse.json",
                                      "--workload", f"{root}/traces/workloads/resnet50-pruned.json"],
    "MobileNetV2, smp-2x2": ["--config", f"{root}/configs/smp-2x2.json",
                             "--workload", f"{root}/traces/workloads/mobilenetv2.json"],
}
print(f"{'run':32} {'before_s':>9} {'after_s':>9} {'change':>8}")
with tempfile.TemporaryDirectory() as tmp:
    for name, args in runs.items():
        times = {base: [], new: []}
        for i in range(15):
            for binary in (base, new):
                start = time.perf_counter()
                subprocess.run([binary, "run", "--quiet", "--out", f"{tmp}/run", *args], check=True)
                times[binary].append(time.perf_counter() - start)
        b, n = statistics.median(times[base]), statistics.median(times[new])
        print(f"{name:32} {b:9.4f} {n:9.4f} {100 * (n - b) / b:+7.1f}%")
PY
