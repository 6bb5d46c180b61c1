#!/bin/bash
# Builds warptlm with profile-guided optimisation (GCC): an instrumented build
# runs the scenario suite once (the training), then the same build directory is
# rebuilt with the recorded profile. The result runs the timing model faster
# than the default build (docs/timing-performance.md, round 5) and behaves
# identically; use it for long sweeps. Takes two full builds plus about two
# minutes of training.
#
#   scripts/build_pgo.sh [BUILD_DIR] [extra cmake arguments...]
#
# BUILD_DIR defaults to build-pgo. The profile lives in BUILD_DIR/pgo-profile;
# running the script again starts from a fresh profile.
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build-pgo}
[ $# -gt 0 ] && shift
mkdir -p "$build"
build=$(cd "$build" && pwd)
profile=$build/pgo-profile
jobs=$(nproc)

echo "== build_pgo: instrumented build in $build"
rm -rf "$profile"
# The instrumented build needs only the CLI; the same directory is reused so the
# profile's object paths match the final build's.
cmake -S "$src" -B "$build" -G Ninja "$@" \
  -DCMAKE_CXX_FLAGS="-fprofile-generate=$profile -fprofile-update=single" >/dev/null
cmake --build "$build" -j "$jobs" --target warptlm

echo "== build_pgo: training (every scenario: fermi timing at study size, small timing and"
echo "   functional mode at test size)"
cli=$build/warptlm
for s in $("$cli" list | awk '/^[^ ]/ {print $1}'); do
  "$cli" run "$s" --size study --mode timing --preset fermi >/dev/null
  "$cli" run "$s" --size test --mode timing --preset small >/dev/null
  "$cli" run "$s" --size test --mode functional >/dev/null
done

echo "== build_pgo: optimised build"
# Files the training never ran (tests, the Python bindings) have no profile:
# -Wno-missing-profile keeps that quiet, and they are optimised as usual.
cmake -S "$src" -B "$build" -G Ninja "$@" \
  -DCMAKE_CXX_FLAGS="-fprofile-use=$profile -fprofile-partial-training -Wno-missing-profile" \
  >/dev/null
cmake --build "$build" -j "$jobs"
echo "== build_pgo: done: $build/warptlm"
