#!/usr/bin/env bash
# Fuzzes the PTX front end and the functional executor with libFuzzer
# (clang -fsanitize=fuzzer, with ASan and UBSan) for a bounded time.
#
#   bash scripts/fuzz.sh [SECONDS]     # default 60 (what CI runs); longer by hand
#   WARPTLM_FUZZ_SEED=N                # libFuzzer's seed (default 0: a new one each run)
#
# Seeds: every .ptx of tests/data/ptx and scenarios, and tests/fuzz/crashes.
# The working corpus grows in $BUILD/fuzz-corpus between runs. An input that
# breaks the harness (any exception but a located error, a sanitizer report, a
# timeout, memory past the limit) stops the run and is written to
# $BUILD/fuzz-artifacts/: copy it into tests/fuzz/crashes/ with a name saying
# what it does, fix the bug, and the ordinary test suite replays it from then on.
set -euo pipefail
cd "$(dirname "$0")/.."
RUN_SECONDS=${1:-60}
BUILD=${WARPTLM_FUZZ_BUILD_DIR:-build-fuzz}
# libFuzzer's random seed: 0 draws one; CI fixes it (WARPTLM_FUZZ_SEED=1) so
# a run explores the same inputs each time.
SEED=${WARPTLM_FUZZ_SEED:-0}

if [ ! -f "$BUILD/CMakeCache.txt" ]; then
  CC=clang CXX=clang++ cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DWARPTLM_FUZZ=ON -DWARPTLM_PYTHON=OFF -DWARPTLM_LTO=OFF >/dev/null
fi
cmake --build "$BUILD" --target ptx_fuzzer -j"$(nproc)"

seeds="$BUILD/fuzz-seeds"
rm -rf "$seeds"
mkdir -p "$seeds" "$BUILD/fuzz-corpus" "$BUILD/fuzz-artifacts"
i=0
while IFS= read -r -d '' f; do
  cp "$f" "$seeds/$i-$(basename "$f")"
  i=$((i + 1))
done < <(find tests/data/ptx scenarios tests/fuzz/crashes -name '*.ptx' -print0 | sort -z)

echo "fuzz: $i seeds, ${RUN_SECONDS}s"
# -timeout: one input may take at most 10 s (the harness's budgets keep
# normal inputs at milliseconds); -rss_limit_mb: 4 GiB.
set +e
"$BUILD/tests/ptx_fuzzer" "$BUILD/fuzz-corpus" "$seeds" -dict=tests/fuzz/ptx.dict \
  -seed="$SEED" -max_total_time="$RUN_SECONDS" -timeout=10 -rss_limit_mb=4096 -max_len=16384 \
  -artifact_prefix="$BUILD/fuzz-artifacts/" -print_final_stats=1 >"$BUILD/fuzz.log" 2>&1
status=$?
set -e
# Progress lines and the recommended dictionary are many; a report and the
# final statistics are shown.
awk '/Recommended dictionary/ {skip = 1} !skip && !/^#[0-9]+/ {print} /End of recommended/ {skip = 0}' \
  "$BUILD/fuzz.log" | tail -60
if [ "$status" -ne 0 ]; then
  echo "fuzz: the fuzzer found an input that breaks warptlm (status $status): see" \
       "$BUILD/fuzz-artifacts/; keep it in tests/fuzz/crashes/ once fixed" >&2
  exit "$status"
fi
echo "fuzz: no failure in ${RUN_SECONDS}s"
