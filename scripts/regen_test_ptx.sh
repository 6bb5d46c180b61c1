#!/usr/bin/env bash
# Regenerates the compiler-output PTX samples the parser tests read
# (tests/data/ptx/clang, tests/data/ptx/nvcc) from the CUDA sources in
# tests/data/ptx/src. Needs clang 14 and nvcc. The nvcc used here is CUDA 13,
# whose oldest target is sm_75, so the sm_52/sm_70 samples come from clang.
# At the end: the third-party samples in tests/data/ptx/thirdparty.
#   CLANG=... NVCC=... scripts/regen_test_ptx.sh
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
src=$root/tests/data/ptx/src
out=$root/tests/data/ptx
CLANG=${CLANG:-clang-14}
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
sources=(divergence calls shared_atomics warp locals float_math globals)

mkdir -p "$out/clang" "$out/nvcc"
# Compile from inside src with relative paths. (nvcc -G still records the
# absolute source path in .file and the DWARF sections, so a checkout
# elsewhere regenerates files that differ only there.)
cd "$src"

# clang NAME ARCH OUT_TAG [extra flags]: device-only PTX without CUDA headers
# (compat.h maps the CUDA names onto NVVM builtins); +ptx64 enables the
# .sync warp intrinsics.
clang_ptx() {
  local name=$1 arch=$2 tag=$3
  shift 3
  "$CLANG" -x cuda --cuda-device-only --cuda-gpu-arch="$arch" -nocudainc -nocudalib \
    -Wno-unknown-cuda-version -Xclang -target-feature -Xclang +ptx64 -S "$@" \
    -o "$out/clang/$name.$tag.ptx" "$name.cu"
}

# nvcc NAME ARCH OUT_TAG [extra flags]
nvcc_ptx() {
  local name=$1 arch=$2 tag=$3
  shift 3
  "$NVCC" --ptx -arch="$arch" "$@" -o "$out/nvcc/$name.$tag.ptx" "$name.cu"
}

for s in "${sources[@]}"; do
  clang_ptx "$s" sm_70 O0.sm_70 -O0
  clang_ptx "$s" sm_70 O3.sm_70 -O3
  nvcc_ptx "$s" sm_75 sm_75
  nvcc_ptx "$s" sm_75 G.sm_75 -G
  nvcc_ptx "$s" sm_90 sm_90
  nvcc_ptx "$s" sm_90 G.sm_90 -G
done
clang_ptx divergence sm_70 O1.sm_70 -O1
clang_ptx divergence sm_70 O2.sm_70 -O2
clang_ptx divergence sm_52 O3.sm_52 -O3
clang_ptx shared_atomics sm_52 O3.sm_52 -O3
clang_ptx warp sm_52 O0.sm_52 -O0
clang_ptx calls sm_70 O0g.sm_70 -O0 -g

# Third-party device code (tests/data/ptx/thirdparty): tiny wrappers in
# thirdparty/src around NVIDIA's CUB block/warp primitives and the CUDA math
# library, so nearly all of the PTX is library code warptlm's authors did not
# write. tests/exec/test_thirdparty_kernels.cc runs it against host
# references.
tp_src=$root/tests/data/ptx/thirdparty/src
tp_out=$out/thirdparty
cd "$tp_src"
for s in cub_block math_float math_double; do
  for arch in sm_75 sm_90; do
    "$NVCC" --ptx -arch="$arch" -o "$tp_out/$s.$arch.ptx" "$s.cu"
  done
done
# clang 14 with CUDA 13: the CUDA headers are too new for clang 14's CUDA
# wrapper (its texture intrinsics need the `texture` template CUDA 12
# removed), and CUB needs them, so CUB is nvcc-only. The math kernels build
# with -nocudainc and call libdevice's __nv_* functions directly
# (libdevice_shim.h); clang links /usr/local/cuda/nvvm/libdevice/libdevice.10.bc.
clang_lib_ptx() {
  local name=$1 tag=$2
  shift 2
  "$CLANG" -x cuda --cuda-path=/usr/local/cuda --cuda-gpu-arch=sm_70 --cuda-device-only \
    -nocudainc -Wno-unknown-cuda-version -S -O3 "$@" -o "$tp_out/$name.$tag.ptx" "$name.cu"
}
clang_lib_ptx math_float clang.sm_70
clang_lib_ptx math_double clang.sm_70
# clang's default -ffp-contract=fast fuses libdevice's compensated float
# arithmetic into fma (LLVM 14 turns its mul.rn/add.rn intrinsics into plain
# fmul/fadd first), which costs powf up to ~50 ulp; with contraction off the
# library keeps its accuracy. Both are tested.
clang_lib_ptx math_float clang.nocontract.sm_70 -ffp-contract=off
