#!/usr/bin/env bash
# Installs, with apt-get, whatever npusim needs that this Debian machine lacks.
# Safe to run again: packages already present are skipped.
set -euo pipefail
# clang and its runtimes build the sanitizer and fuzzing checks; ccache shares
# compiled objects between the Release and checking builds' reruns; slurm-wlm and
# munge run the Slurm sweep backend's test on a single-node cluster; libonnx-dev
# (with libprotobuf-dev, whose version its generated onnx.pb.h was built against)
# reads ONNX workloads (docs/workload-format.md); python3-onnx lets a test evaluate an
# ONNX graph with numpy (tests/onnx/onnx_reference.py).
PACKAGES=(cmake g++ make pkg-config libsystemc-dev libfmt-dev nlohmann-json3-dev
          catch2 libcli11-dev libonnx-dev libprotobuf-dev python3 python3-numpy python3-matplotlib python3-onnx
          clang libclang-rt-14-dev ccache
          slurm-wlm munge)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
