#!/usr/bin/env bash
# Writes a manifest of everything one npusim binary produces for the bundled inputs: the
# compiled trace and the run folder of every bundled workload on every shipped config (with
# the split left to the workload and forced to model), one functional run, and the text of
# --help and explain. Two binaries whose manifests are equal produce byte-identical outputs;
# refactors that must not change behaviour are checked this way:
#
#   scripts/output-manifest.sh build-before/npusim before.txt
#   scripts/output-manifest.sh build/npusim after.txt && diff before.txt after.txt
#
# TIER=fast (default) leaves out the 7B and 70B prefill/decode and BERT seq512, which take minutes;
# TIER=full runs everything. JOBS sets the parallelism (default: nproc).
set -uo pipefail
[[ $# -eq 2 ]] || { echo "usage: $0 NPUSIM MANIFEST" >&2; exit 2; }
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="$(realpath "$1")"; manifest="$(realpath -m "$2")"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
export bin work root SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1

# One case: compile and run one workload on one config; prints "case file sha" lines.
one_case() {
  local cfg=$1 wl=$2; shift 2
  local args="$*" name
  name="$(basename "$cfg" .json)__$(basename "$wl")${args:+__${args// /_}}"
  local dir="$work/$name"; mkdir -p "$dir"; cd "$dir" || return
  "$bin" compile -q -c "$cfg" -w "$wl" -o trace.jsonl "$@" >compile.out 2>&1; echo $? >compile.rc
  "$bin" run -q -c "$cfg" -w "$wl" -o run "$@" >run.out 2>&1; echo $? >run.rc
  sed -i "s|$root|ROOT|g" compile.out run.out  # messages name the input; any checkout compares
  find . -type f -print0 | sort -z | xargs -0 sha256sum | sed "s|^\([0-9a-f]*\)  \./|$name \1 |"
  cd "$work" && rm -rf "$dir"
}
export -f one_case

cases() {
  local onnx_shape=()
  for cfg in "$root"/configs/*.json; do
    for wl in "$root"/traces/workloads/*.json "$root"/traces/workloads/*.csv "$root"/tests/onnx/data/*.onnx; do
      if [[ "${TIER:-fast}" != full && $wl =~ (llm-7b-decode|llm-7b-prefill|llm-70b-decode|llm-70b-prefill|seq512)\.json$ ]]; then continue; fi
      echo "$cfg $wl"; echo "$cfg $wl --split model"
    done
  done
  echo "$root/configs/default.json $root/traces/workloads/tiny.json --functional"
}

{
  cases | xargs -P"${JOBS:-$(nproc)}" -L1 bash -c 'one_case "$@"' _
  for cmd in "" compile run explain sweep validate diff; do
    echo "help__$cmd $("$bin" $cmd --help 2>&1 | sha256sum | cut -c1-64)"
  done
  local_layers=("hi=56,wi=56,ci=64,co=64,kh=3,kw=3,pad=1" "hi=224,wi=224,ci=3,co=64,k=7,stride=2,pad=3" "hi=14,wi=14,ci=48,co=32,k=3")
  for cfg in default sparse gpu-shader numa-2x2; do
    for layer in "${local_layers[@]}"; do
      for engine in "" matrix shader sparse; do
        for zeros in "" "ifm=0.6,weights=0.7"; do
          echo "explain__${cfg}__${layer}__${engine}__$zeros $("$bin" explain -c "$root/configs/$cfg.json" -l "$layer" ${engine:+-e $engine} ${zeros:+-s $zeros} 2>&1 | sha256sum | cut -c1-64)"
        done
      done
    done
  done
} | sed "s|$root|ROOT|g" | LC_ALL=C sort >"$manifest"
echo "$(wc -l <"$manifest") lines in $manifest"
