#!/usr/bin/env bash
# Regenerates scenarios/<name>/kernel.ptx from kernel.cu for every scenario
# folder, with clang 14 (the committed PTX is clang 14's; other versions emit
# different text). Idempotent: the same sources give byte-identical PTX.
#
#   scenarios/regen_ptx.sh          rewrite every kernel.ptx
#   scenarios/regen_ptx.sh --check  rewrite nothing; exit 1 if any is stale
#
# Flags: device-only CUDA for sm_70 without the CUDA headers or libdevice
# (the kernels use common/cuda_shim.h), -O3, and -ffp-contract=off so no
# mul+add is fused into fma (the mandelbrot host reference relies on that).
# CLANG overrides the compiler (default: clang-14, else clang).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
check=0
case "${1:-}" in
  "") ;;
  --check) check=1 ;;
  *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac

clang="${CLANG:-$(command -v clang-14 || command -v clang || true)}"
if [[ -z "$clang" ]]; then
  echo "regen_ptx.sh: clang 14 not found (set CLANG)" >&2
  exit 2
fi
if ! "$clang" --version | head -n1 | grep -q 'clang version 14\.'; then
  echo "regen_ptx.sh: $clang is not clang 14: $("$clang" --version | head -n1)" >&2
  exit 2
fi

flags=(-x cuda --cuda-device-only --cuda-gpu-arch=sm_70 -nocudainc -nocudalib -O3
       -ffp-contract=off -Wno-unknown-cuda-version -S)

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
stale=0
for cu in "$here"/*/kernel.cu; do
  dir="$(dirname "$cu")"
  name="$(basename "$dir")"
  "$clang" "${flags[@]}" -o "$tmp/$name.ptx" "$cu"
  if cmp -s "$tmp/$name.ptx" "$dir/kernel.ptx"; then
    continue
  fi
  if ((check)); then
    echo "stale: scenarios/$name/kernel.ptx" >&2
    stale=1
  else
    cp "$tmp/$name.ptx" "$dir/kernel.ptx"
    echo "regenerated scenarios/$name/kernel.ptx"
  fi
done
exit "$stale"
