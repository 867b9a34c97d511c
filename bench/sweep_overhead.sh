#!/usr/bin/env bash
# Per-point overhead of `npusim sweep` (issue 36): a POINTS-point ResNet-50 sweep (default 1,000)
# with JOBS simulations at once (default 2) against the same run started SINGLE times one after
# another (default 20). The sweep's one axis is /chip/clock_mhz, which only converts cycles to
# seconds, so every point costs one ResNet-50 run and nothing else differs.
#
# Prints, per point: the wall and CPU (user + system, children included) of a single `npusim run`
# and of its steps started alone (process start, config merge and check, compile to a trace),
# then the sweep's wall and CPU per point, and two efficiencies:
#   rate = (points per sweep second) / (JOBS x single runs per second)   (the issue's measure)
#   cpu  = (single run CPU) / (sweep CPU per point)                      (what a point costs more)
# On a machine other processes share, wall times (and so `rate`) depend on their load; `cpu` does not.
source "$(dirname "$0")/common.sh"
points="${POINTS:-1000}" jobs="${JOBS:-2}" single="${SINGLE:-20}"
resnet="$root/traces/workloads/resnet50.json" config="$root/configs/default.json"

# Runs "$@" N times; prints "wall_s cpu_s" per run, averaged.
per_run() {
  local n=$1; shift
  /usr/bin/time -f "%e %U %S" -o "$work/t" bash -c 'for ((i = 0; i < '"$n"'; ++i)); do "$@" >/dev/null; done' _ "$@"
  awk -v n="$n" '{ printf "%.4f %.4f\n", $1 / n, ($2 + $3) / n }' "$work/t"
}

step() { printf "%-34s %s\n" "$1" "$(per_run "$single" "${@:2}" | awk '{ printf "wall %7.1f ms   cpu %6.1f ms", $1 * 1000, $2 * 1000 }')"; }
echo "per point, mean of $single starts:"
step "process start (npusim --version)" "$npusim" --version
step "config merge + checks (validate)" "$npusim" validate "$config"
step "compile ResNet-50 to a trace" "$npusim" compile -q -c "$config" -w "$resnet" -o "$work/trace.jsonl"
step "run ResNet-50 (whole point)" "$npusim" run -q -c "$config" -w "$resnet" -o "$work/run"
read -r run_wall run_cpu < <(per_run "$single" "$npusim" run -q -c "$config" -w "$resnet" -o "$work/run")

values=$(seq -s, 1000 $((1000 + points - 1)))
printf '{"config": "%s", "workload": "%s", "axes": [{"name": "clock_mhz", "pointer": "/chip/clock_mhz", "values": [%s]}]}\n' \
  "$config" "$resnet" "$values" > "$work/spec.json"
/usr/bin/time -f "%e %U %S" -o "$work/sweep_t" "$npusim" sweep -q -j "$jobs" -o "$work/sweep" "$work/spec.json"
ok=$(grep -c ',ok,' "$work/sweep/results.csv" || true)
read -r sweep_wall sweep_cpu < <(awk '{ print $1, $2 + $3 }' "$work/sweep_t")
awk -v p="$points" -v j="$jobs" -v ok="$ok" -v rw="$run_wall" -v rc="$run_cpu" -v sw="$sweep_wall" -v sc="$sweep_cpu" 'BEGIN {
  printf "single run (again, for the ratios)  wall %7.1f ms   cpu %6.1f ms\n", rw * 1000, rc * 1000
  printf "sweep, %d points (%d ok), -j %d:      wall %7.1f ms   cpu %6.1f ms per point (%.1f s in all)\n", p, ok, j, sw / p * 1000, sc / p * 1000, sw
  printf "rate efficiency %.1f %%   cpu efficiency %.1f %%\n", 100 * (p / sw) / (j / rw), 100 * rc / (sc / p)
}'
