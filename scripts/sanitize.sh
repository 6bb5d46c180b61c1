#!/usr/bin/env bash
# The whole test suite, C++ and Python, built with AddressSanitizer and
# UndefinedBehaviorSanitizer (GCC) in its own build folder:
#
#   bash scripts/sanitize.sh [CTEST ARGS...]     # e.g. -R python. or -E timing
#
# The Python tests load the sanitized extension with the runtimes preloaded
# (python/CMakeLists.txt). A report fails its test. docs/ARCHITECTURE.md,
# "Sanitizer builds", says what is checked and what SystemC rules out.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${WARPTLM_SANITIZE_BUILD_DIR:-build-asan}
if [ ! -f "$BUILD/CMakeCache.txt" ]; then
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWARPTLM_SANITIZE=ON
fi
cmake --build "$BUILD" -j"$(nproc)"
# Sanitized code runs 2-4 times slower (the Python tests' timeout is 900 s there).
ctest --test-dir "$BUILD" --output-on-failure -j"$(nproc)" "$@"
