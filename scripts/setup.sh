#!/usr/bin/env bash
# Installs, with apt-get, whatever npusim needs for the given purposes that this Debian
# machine lacks. Safe to run again: packages already present are skipped.
#
#   scripts/setup.sh run            build npusim and run it (run-default.sh; the default)
#   scripts/setup.sh python         the chart scripts and the Python API (import npusim)
#   scripts/setup.sh test           what only the tests need (test.sh runs all three)
#   scripts/setup.sh run python test
#   scripts/setup.sh --list run     prints the packages, one a line, and installs nothing
set -euo pipefail
list_only=0
if [ "${1:-}" = "--list" ]; then list_only=1; shift; fi

# Build and run: the compiler and CMake, and the libraries npusim links. libonnx-dev (with
# libprotobuf-dev, whose version its generated onnx.pb.h was built against) reads ONNX
# workloads (docs/workload-format.md).
RUN=(cmake g++ make pkg-config libsystemc-dev libfmt-dev nlohmann-json3-dev libcli11-dev
     libonnx-dev libprotobuf-dev)
# scripts/plot_*.py draw with matplotlib; the Python API returns pandas tables and explores
# with Optuna.
PYTHON=(python3 python3-numpy python3-matplotlib python3-pandas python3-optuna)
# Catch2 is the C++ test framework; clang and its runtimes build the sanitizer and fuzzing
# checks; ccache shares compiled objects between the Release and checking builds' reruns;
# slurm-wlm and munge run the Slurm sweep backend's test on a single-node cluster;
# python3-onnx lets a test evaluate an ONNX graph with numpy (tests/onnx/onnx_reference.py);
# pytest runs the Python API's tests, nbclient, nbformat and ipykernel execute the notebooks,
# torch and torchvision export models to ONNX (scripts/export_onnx.py).
TEST=(catch2 clang libclang-rt-14-dev ccache slurm-wlm munge python3-onnx
      python3-pytest python3-nbclient python3-nbformat python3-ipykernel python3-torch python3-torchvision)

wanted=()
for purpose in "${@:-run}"; do
  case "$purpose" in
    run) wanted+=("${RUN[@]}") ;;
    python) wanted+=("${PYTHON[@]}") ;;
    test) wanted+=("${TEST[@]}") ;;
    *) echo "setup: unknown purpose '$purpose': use run, python or test" >&2; exit 2 ;;
  esac
done
if [ $list_only -eq 1 ]; then
  printf '%s\n' "${wanted[@]}"
  exit 0
fi
missing=()
for p in "${wanted[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
