#!/usr/bin/env bash
# Sweep throughput, local backend against Slurm (issue 15): a 1,000-point ResNet-50
# sweep (slaves x CUs x NRAM x DRAM bandwidth on configs/default.json, timing mode) run
# with `-j $(nproc)` locally, then on a single-node Slurm cluster started for the
# purpose (tests/slurm/slurm-cluster.sh) with K points per task for each K given
# (default 20 50). Prints points per second and the per-task overhead.
source "$(dirname "$0")/common.sh"
trap '"$root/tests/slurm/slurm-cluster.sh" stop "$work/cluster" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
export SLURM_CONF="$("$root/tests/slurm/slurm-cluster.sh" start "$work/cluster")"
cat > "$work/spec.json" <<SPEC
{"config": "$root/configs/default.json", "workload": "$root/traces/workloads/resnet50.json",
 "axes": [{"name": "slaves", "pointer": "/core/matrix/slaves", "values": [2, 4, 8, 16, 32]},
          {"name": "cus", "pointer": "/core/matrix/cus_per_slave", "values": [2, 4, 8, 16]},
          {"name": "nram", "pointer": "/core/nram/capacity_bytes", "values": [262144, 524288, 1048576, 2097152, 4194304]},
          {"name": "dram_bpc", "pointer": "/chip/dram/bytes_per_cycle", "values": [8, 16, 24, 32, 48, 64, 96, 128, 192, 256]}]}
SPEC
seconds() { local t0 t1; t0=$(date +%s%N); "$@" > /dev/null; t1=$(date +%s%N); echo "scale=2; ($t1 - $t0) / 1000000000" | bc; }
local_s=$(seconds "$npusim" sweep "$work/spec.json" --out "$work/local" -j "$(nproc)" -q)
printf "%-18s %8s %10s %14s\n" backend wall_s points/s vs_local
printf "%-18s %8.2f %10.1f %14s\n" "local -j$(nproc)" "$local_s" "$(echo "1000 / $local_s" | bc -l)" "100 %"
for k in ${@:-20 50}; do
  s=$(seconds "$npusim" sweep "$work/spec.json" --backend slurm --points-per-task "$k" --wait --out "$work/slurm-$k" -q)
  cmp -s "$work/local/results.csv" "$work/slurm-$k/results.csv" || echo "warning: K=$k results differ from local" >&2
  printf "%-18s %8.2f %10.1f %13.1f%%\n" "slurm K=$k" "$s" "$(echo "1000 / $s" | bc -l)" "$(echo "100 * $local_s / $s" | bc -l)"
done
