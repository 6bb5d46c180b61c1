#!/usr/bin/env bash
# Command 1 of the README: installs what is missing (Debian packages), configures
# and builds warptlm, then runs the default scenario and prints its summary.
# Idempotent: a second run installs nothing and rebuilds only what changed.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  build-essential cmake ninja-build      # toolchain
  clang                                  # CUDA C -> PTX for kernels and scenarios
  llvm-14                                # opt: LLVM's structurizer, compared with the reconverging CFG
  libboost-graph-dev                     # post-dominator trees (Lengauer-Tarjan)
  nlohmann-json3-dev                     # statistics as JSON
  libyaml-cpp-dev                        # configuration files in YAML (C++ API)
  libgtest-dev googletest                # unit tests
  libcli11-dev                           # the command-line parser of `warptlm`
  libsystemc-dev pkg-config              # the SystemC/TLM timing model (found through pkg-config)
  libsystemc-doc                         # Accellera's TLM examples: the interoperability tests build their targets
  graphviz                               # `warptlm elaborate -o FILE.png|.svg` draws a platform
  python3 python3-numpy                  # .npy test data, Python package
  python3-dev pybind11-dev python3-pybind11       # the warptlm._core extension
  python3-pandas python3-yaml python3-tqdm        # results, sweep files, progress bars
  python3-matplotlib                              # `python3 -m warptlm plot`
  python3-dask python3-distributed                # sweeps on a Dask cluster
  python3-pytest                                  # the Python tests (run by CTest)
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

BUILD_DIR=${WARPTLM_BUILD_DIR:-build}
if [ ! -f "$BUILD_DIR/CMakeCache.txt" ]; then
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
fi
cmake --build "$BUILD_DIR" -j"$(nproc)"

if [ "${1:-}" != "--build-only" ]; then
  "$BUILD_DIR/warptlm" run reduction --size test
fi
