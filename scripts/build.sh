#!/usr/bin/env bash
# Configures and builds npusim into build/ (Release). Used by run-default.sh and test.sh.
# With target names (scripts/build.sh npusim) it builds only those; without, everything,
# tests included.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
launcher=()
# ccache with the checkout as its base directory: compile lines name files relative to the
# build folder, so a second checkout (a git worktree, a CI clone elsewhere) reuses the objects.
# The sloppiness lets it cache the test files that use the precompiled header (tests/CMakeLists.txt).
command -v ccache >/dev/null &&
  launcher=("-DCMAKE_CXX_COMPILER_LAUNCHER=env;CCACHE_BASEDIR=$root;CCACHE_NOHASHDIR=1;CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime;ccache")
cmake -S "$root" -B "$root/build" -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" >/dev/null
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build "$root/build" -j"$(nproc)" "${targets[@]}"
# The Python API (python/npusim, docs/python-api.md): build/venv sees Debian's packages (numpy,
# pandas, matplotlib) and, through a .pth file, the checkout's python/ folder, so
# build/venv/bin/python imports npusim with no pip, no network and nothing outside the checkout.
if [ -x /usr/bin/python3 ] && [ ! -x "$root/build/venv/bin/python" ]; then
  /usr/bin/python3 -m venv --system-site-packages --without-pip "$root/build/venv"
fi
if [ -x "$root/build/venv/bin/python" ]; then
  "$root/build/venv/bin/python" -c 'import sys, sysconfig; open(sysconfig.get_paths()["purelib"] + "/npusim.pth", "w").write(sys.argv[1] + "\n")' "$root/python"
fi
