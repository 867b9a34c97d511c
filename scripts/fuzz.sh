#!/usr/bin/env bash
# Runs every libFuzzer target for SECONDS each (default 60), after replaying its
# regression inputs. Usage: scripts/fuzz.sh [SECONDS] [TARGET...]
# Seeds come from tests/fuzz/corpus/<target>; what the fuzzer learns goes to
# build-asan/fuzz/<target>/corpus, never into the repository. A crash stops with
# exit 1 and the path of the input that reproduces it.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
seconds="${1:-60}"
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(config trace npy workload sweep_spec onnx)
"$root/scripts/build-sanitized.sh" "${targets[@]/#/fuzz_}" >/dev/null
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
# Leak checks stay on; a UB report aborts like a crash.
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
status=0
for t in "${targets[@]}"; do
  bin="$root/build-asan/tests/fuzz/fuzz_$t"
  work="$root/build-asan/fuzz/$t"
  mkdir -p "$work/corpus" "$work/artifacts"
  regressions="$root/tests/fuzz/regressions/$t"
  if [ -d "$regressions" ] && [ -n "$(ls -A "$regressions")" ]; then
    if ! "$bin" -runs=1 "$regressions"/* >"$work/replay.log" 2>&1; then
      echo "fuzz $t: a regression input fails again (see $work/replay.log)"; status=1; continue
    fi
  fi
  set +e
  "$bin" "$work/corpus" "$root/tests/fuzz/corpus/$t" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -malloc_limit_mb=1024 -max_len=65536 -print_final_stats=1 \
    -artifact_prefix="$work/artifacts/" >"$work/fuzz.log" 2>&1
  code=$?
  set -e
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$work/fuzz.log" | grep -o '[0-9]*$' | tail -1 || echo "?")
  rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$work/fuzz.log" | grep -o '[0-9]*$' | tail -1 || echo "?")
  if [ $code -ne 0 ]; then
    crash=$(grep -o "Test unit written to .*" "$work/fuzz.log" | tail -1 | sed 's/Test unit written to //')
    echo "fuzz $t: FINDING after ${runs} runs: ${crash:-see $work/fuzz.log}"
    grep -m3 -E "ERROR|==[0-9]+==|runtime error|terminate called|what\(\)" "$work/fuzz.log" | sed 's/^/  /'
    status=1
  else
    echo "fuzz $t: ${seconds} s, ${runs} runs (${rate}/s), no findings"
  fi
done
exit $status
