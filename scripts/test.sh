#!/usr/bin/env bash
# Command 2 of the README: builds if needed (through setup.sh, without the demo)
# and runs the whole test suite through CTest.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${WARPTLM_BUILD_DIR:-build}
bash scripts/setup.sh --build-only
ctest --test-dir "$BUILD_DIR" --output-on-failure -j"$(nproc)" "$@"
