#!/usr/bin/python3
"""Real CUDA programs end to end: kernels of NVIDIA's cuda-samples compiled by
nvcc, launched through warptlm's Python API as each sample's host code
launches them (same geometry, same kind of inputs), and their outputs
checked against what the sample's own check accepts or a numpy reference.

    git clone https://github.com/NVIDIA/cuda-samples /tmp/cuda-samples
    PYTHONPATH=build/python /usr/bin/python3 scripts/real_programs.py /tmp/cuda-samples \\
        [--arch sm_75] [--mode functional|timing] [--session] [--only NAME ...]

nvcc is needed (it is not a warptlm dependency). Prints one line per program
(PASS/FAIL, what was checked) and exits 1 if any fails. docs/cuda-corpus.md
has the last results.
"""
import argparse
import math
import os
import subprocess
import sys
import tempfile
import traceback

import numpy as np

import warptlm

PROGRAMS = []


def program(path, arch=None):
    """Registers a check: `path` is the .cu file under Samples/; `arch` the
    oldest target it compiles for, when newer than --arch."""
    def add(fn):
        PROGRAMS.append((fn.__name__, path, fn, arch))
        return fn
    return add


class Run:
    """One program's PTX and a launcher on the chosen platform and mode. With
    ``session``, the program's launches run in one launch session (one device,
    one elaboration), each argument array written to the device before a
    launch and read back after it, as Platform.launch copies them."""

    def __init__(self, ptx, mode, session=False):
        self.ptx, self.mode = ptx, mode
        self.platform = warptlm.Platform("small")
        self.use_session, self.session = session, None

    def on(self, preset):
        """The same program on another preset (for CTAs the small one cannot hold)."""
        self.close()
        self.platform = warptlm.Platform(preset)
        return self

    def close(self):
        if self.session is not None:
            self.session.close(copy_back=False)
            self.session = None

    def kernel(self, name):
        return warptlm.Kernel.from_ptx(self.ptx, name)

    def launch(self, name, grid, block, args, shared_bytes=0, cooperative=False):
        if not self.use_session:
            return self.platform.launch(self.kernel(name), grid, block, args, shared_bytes=shared_bytes,
                                        mode=self.mode, cooperative=cooperative)
        if self.session is None:
            self.session = self.platform.session(mode=self.mode)
        arrays = [a.array if isinstance(a, (warptlm.Texture, warptlm.Surface)) else a for a in args
                  if isinstance(a, (np.ndarray, warptlm.Texture, warptlm.Surface))]
        for a in arrays:
            self.session.write(a)
        result = self.session.launch(self.kernel(name), grid, block, args, shared_bytes=shared_bytes,
                                     cooperative=cooperative)
        for a in arrays:
            if a.flags.writeable:
                self.session.read(a)
        return result


@program("0_Introduction/vectorAdd/vectorAdd.cu")
def vector_add(run):
    n = 50000
    rng = np.random.default_rng(1)
    a, b = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    c = np.zeros(n, np.float32)
    run.launch("vectorAdd", (n + 255) // 256, 256, [a, b, c, n])
    assert (c == a + b).all(), "C != A + B"
    return f"{n} sums exact"


@program("0_Introduction/simpleAtomicIntrinsics/simpleAtomicIntrinsics.cu")
def simple_atomic_intrinsics(run):
    blocks, threads = 64, 256
    n = blocks * threads
    data = np.zeros(11, np.int32)
    data[8] = data[10] = 0xFF
    run.launch("testKernel", blocks, threads, [data])
    inc = dec = 0
    for _ in range(n):
        inc = 0 if inc >= 17 else inc + 1
        dec = 137 if (dec == 0 or dec > 137) else dec - 1
    and_ = 0xFF
    xor = 0xFF
    for i in range(n):
        and_ &= 2 * i + 7
        xor ^= i
    want = {0: 10 * n, 1: -10 * n, 3: n - 1, 4: 0, 5: inc, 6: dec, 8: and_, 9: -1, 10: xor}
    for k, v in want.items():
        assert data[k] == v, f"g_odata[{k}] = {data[k]}, want {v}"
    assert 0 <= data[2] < n and 0 <= data[7] < n, "exch/cas result is no thread id"
    return "11 atomics as computeGold checks them"


@program("0_Introduction/simpleVoteIntrinsics/simpleVoteIntrinsics.cu")
def simple_vote_intrinsics(run):
    # The sample's genVoteTestPattern over 4 warps and its checks: any() is
    # 0 in warp 0 and 1 in warps 1-3, all() is 1 in warp 3 only.
    warp = 32
    size = 4 * warp
    i = np.arange(size)
    pattern = np.zeros(size, np.uint32)
    q = size // 4
    pattern[q:2 * q] = np.where(i[q:2 * q] & 1, i[q:2 * q], 0)
    pattern[2 * q:3 * q] = np.where(i[2 * q:3 * q] & 1, 0, i[2 * q:3 * q])
    pattern[3 * q:] = 0xFFFFFFFF
    warp_of = i // warp
    for kernel, want in (("VoteAnyKernel1", warp_of >= 1), ("VoteAllKernel2", warp_of == 3)):
        res = np.full(size, 7, np.uint32)
        run.launch(kernel, 1, size, [pattern, res, size])
        assert ((res != 0) == want).all(), f"{kernel}: warps {sorted(set(warp_of[(res != 0) != want]))} wrong"
    info = np.zeros(3 * 3 * warp, np.bool_)
    run.launch("VoteAnyKernel3", 1, 3 * warp, [info, warp])
    info = info.reshape(-1, 3)
    tx = np.arange(3 * warp)
    assert (info[:, 0] == (tx >= warp)).all() and (info[:, 1] == (tx >= 3 * warp // 2)).all()
    assert (info[:, 2] == (tx >= 2 * warp)).all()
    return "__any_sync/__all_sync on the sample's patterns, its across-warp test"


@program("0_Introduction/simplePrintf/simplePrintf.cu")
def simple_printf(run):
    r = run.launch("testKernel", (2, 2), (8, 8), [10])
    lines = r.output.splitlines()
    want = {f"[{b}, {t}]:\t\tValue is:10" for b in range(4) for t in range(64)}
    assert len(lines) == 256 and set(lines) == want, f"{len(lines)} lines, not the 256 expected"
    return "256 lines, one per thread"


@program("0_Introduction/simpleAssert/simpleAssert.cu")
def simple_assert(run):
    try:
        run.launch("testKernel", 2, 32, [60])
    except warptlm.KernelError as e:
        assert "gtid < N" in str(e), str(e)
        return "the failed assertion 'gtid < N' for threads 60-63"
    raise AssertionError("no assertion failed")


@program("0_Introduction/fp16ScalarProduct/fp16ScalarProduct.cu")
def fp16_scalar_product(run):
    blocks, threads = 128, 128
    size = blocks * threads * 16
    rng = np.random.default_rng(2)
    # The sample's generateInput: x in 0..3, y in 0..1.
    a = np.stack([rng.integers(0, 4, size), rng.integers(0, 2, size)], axis=1).astype(np.float16)
    b = np.stack([rng.integers(0, 4, size), rng.integers(0, 2, size)], axis=1).astype(np.float16)
    # The kernels' order: each thread's fma chain (its index i starts at
    # threadIdx.x + blockDim.x + blockIdx.x, as the sample writes it), then
    # the shared-memory tree 64, 32, ..., 1, then float(x) + float(y).
    stride = blocks * threads
    want = np.zeros(blocks, np.float32)
    for blk in range(blocks):
        value = np.zeros((threads, 2), np.float16)
        for t in range(threads):
            for i in range(t + threads + blk, size, stride):
                value[t] = (a[i] * b[i] + value[t]).astype(np.float16)  # exact: small integers
        width = threads // 2
        while width >= 1:
            value[:width] = value[:width] + value[width:2 * width]
            width //= 2
        want[blk] = np.float32(value[0, 0]) + np.float32(value[0, 1])
    for kernel in ("scalarProductKernel_intrinsics", "scalarProductKernel_native"):
        results = np.zeros(blocks, np.float32)
        run.launch(kernel, blocks, threads, [a.view(np.uint32), b.view(np.uint32), results, size])
        assert (results == want).all(), f"{kernel}: {np.flatnonzero(results != want)[:4]} differ"
    return f"both kernels, {blocks} half2 dot products bit for bit"


def bilinear(img, x, y):
    """tex2D with linear filtering, wrap addressing and normalised coordinates
    (the CUDA Programming Guide's formula, 9-bit weights)."""
    h, w = img.shape
    xb, yb = x * w - 0.5, y * h - 0.5
    i, j = np.floor(xb).astype(np.int64), np.floor(yb).astype(np.int64)
    fa = np.round((xb - i) * 256) / 256
    fb = np.round((yb - j) * 256) / 256
    t = lambda jj, ii: img[jj % h, ii % w].astype(np.float64)
    return ((1 - fa) * (1 - fb) * t(j, i) + fa * (1 - fb) * t(j, i + 1) + (1 - fa) * fb * t(j + 1, i) +
            fa * fb * t(j + 1, i + 1))


@program("0_Introduction/simpleTexture/simpleTexture.cu")
def simple_texture(run):
    h = w = 64
    theta = np.float32(0.5)
    y, x = np.mgrid[0:h, 0:w]
    img = (((x * 7 + y * 13) % 23) / 23.0).astype(np.float32)
    out = np.zeros((h, w), np.float32)
    tex = warptlm.Texture(img, filter="linear", address="wrap", normalized_coords=True)
    run.launch("transformKernel", (w // 8, h // 8), (8, 8), [out, w, h, float(theta), tex])
    f = np.float32
    c, s = f(math.cos(theta)), f(math.sin(theta))
    u, v = x.astype(f) - f(w / 2), y.astype(f) - f(h / 2)
    want = bilinear(img, (u * c - v * s) / f(w) + f(0.5), (v * c + u * s) / f(h) + f(0.5))
    diff = np.abs(out - want)
    # nvcc contracts the coordinate arithmetic into fmas, which can move a
    # sample point by an ulp across a 1/256 step of the filter weights.
    close = np.count_nonzero(diff < 1e-6)
    assert close >= 0.99 * diff.size and diff.max() <= 1 / 256 + 1e-6, f"{close} of {diff.size} close, largest {diff.max()}"
    return f"{h}x{w} rotated by 0.5 rad: {close} of {diff.size} pixels within 1e-6, all within one 1/256 weight step"


@program("0_Introduction/simpleSurfaceWrite/simpleSurfaceWrite.cu")
def simple_surface_write(run):
    h = w = 64
    rng = np.random.default_rng(3)
    data = rng.random((h, w), dtype=np.float32)
    surf_array = np.zeros((h, w), np.float32)
    run.launch("surfaceWriteKernel", (w // 8, h // 8), (8, 8), [data, w, h, warptlm.Surface(surf_array)])
    assert (surf_array == data).all(), "the surface does not hold the input"
    out = np.zeros((h, w), np.float32)
    tex = warptlm.Texture(surf_array, filter="linear", address="wrap", normalized_coords=True)
    run.launch("transformKernel", (w // 8, h // 8), (8, 8), [out, w, h, 0.0, tex])
    y, x = np.mgrid[0:h, 0:w]
    want = bilinear(surf_array, x / w, y / h)
    err = np.abs(out - want).max()
    assert err < 1e-6, f"largest difference {err}"
    return f"surface copy exact, texture read back within {err:.1e}"


@program("0_Introduction/matrixMul/matrixMul.cu")
def matrix_mul(run):
    # The sample's default 32x32 tiles: 1,024 threads a CTA (volta's SMs
    # hold them; the small preset's do not).
    block = 32
    ha, wa, wb = 5 * block, 10 * block, 5 * block
    rng = np.random.default_rng(4)
    a = rng.random((ha, wa), dtype=np.float32)
    b = rng.random((wa, wb), dtype=np.float32)
    c = np.zeros((ha, wb), np.float32)
    run.on("volta").launch("_Z13MatrixMulCUDAILi32EEvPfS0_S0_ii", (wb // block, ha // block), (block, block), [c, a, b, wa, wb])
    want = a.astype(np.float64) @ b.astype(np.float64)
    rel = np.abs(c - want).max() / np.abs(want).max()
    assert rel < 1e-5, f"relative difference {rel}"
    return f"{ha}x{wa} @ {wa}x{wb}, relative difference {rel:.1e}"


@program("2_Concepts_and_Techniques/shfl_scan/shfl_scan.cu")
def shfl_scan(run):
    # The sample's three launches: a scan per block, a scan of the block
    # sums, and the sums added back.
    n, block = 65536, 256
    grid = n // block
    rng = np.random.default_rng(5)
    data = rng.integers(0, 10, n).astype(np.int32)
    want = np.cumsum(data).astype(np.int32)
    partial = np.zeros(grid, np.int32)
    shared = block // 32 * 4
    run.launch("_Z14shfl_scan_testPiiS_", grid, block, [data, 32, partial], shared_bytes=shared)
    run.launch("_Z14shfl_scan_testPiiS_", 1, grid, [partial, 32, np.zeros(1, np.int32)], shared_bytes=grid // 32 * 4)
    rest = data[block:]
    run.launch("_Z11uniform_addPiS_i", grid - 1, block, [rest, partial, n])
    assert (data == want).all(), f"{np.count_nonzero(data != want)} prefix sums differ"
    return f"inclusive scan of {n} ints over 3 launches"


def wmma_gemm_operands(rng, n, in_type, acc_type):
    """The inputs of the tensor-core samples' init_host_matrices: elements
    rand() % 3 of A (n x k, row-major), B (stored n x k: column-major k x n)
    and C (n x n)."""
    a = rng.integers(0, 3, (n, n)).astype(in_type)
    b = rng.integers(0, 3, (n, n)).astype(in_type)
    c = rng.integers(0, 3, (n, n)).astype(acc_type)
    return a, b, c


@program("3_CUDA_Features/cudaTensorCoreGemm/cudaTensorCoreGemm.cu")
def cuda_tensor_core_gemm(run):
    # The sample's simple_wmma_gemm (its WMMA kernel with run-time sizes;
    # compute_gemm's are compiled in at 4096) on 128 x 128 x 128, its block
    # of 128 x 4 threads (16 warps, one 16 x 16 tile each), alpha 1.1, beta 1.2.
    n = 128
    a, b, c = wmma_gemm_operands(np.random.default_rng(6), n, np.float16, np.float32)
    d = np.zeros((n, n), np.float32)
    alpha, beta = np.float32(1.1), np.float32(1.2)
    grid = ((n + 63) // 64, (n + 63) // 64)
    run.launch("_Z16simple_wmma_gemmP6__halfS0_PfS1_iiiff", grid, (128, 4),
               [a, b, c, d, n, n, n, alpha, beta])
    acc = a.astype(np.float64) @ b.astype(np.float64).T  # exact: small integers
    want = np.float64(alpha) * acc + np.float64(beta) * c
    rel = np.abs(d - want).max() / np.abs(want).max()
    assert rel < 1e-6, f"relative difference {rel}"
    return f"{n}x{n}x{n} wmma.m16n16k16 f16 -> f32, alpha/beta epilogue within {rel:.1e}"


@program("3_CUDA_Features/immaTensorCoreGemm/immaTensorCoreGemm.cu")
def imma_tensor_core_gemm(run):
    # simple_wmma_gemm_imma: u8 inputs, s32 accumulators, alpha = beta = 1.
    n = 128
    a, b, c = wmma_gemm_operands(np.random.default_rng(7), n, np.uint8, np.int32)
    d = np.zeros((n, n), np.int32)
    grid = ((n + 63) // 64, (n + 63) // 64)
    run.launch("_Z21simple_wmma_gemm_immaPKhS0_PKiPiiiiii", grid, (128, 4),
               [a, b, c, d, n, n, n, 1, 1])
    want = a.astype(np.int64) @ b.astype(np.int64).T + c
    assert (d == want).all(), f"{np.count_nonzero(d != want)} of {n * n} elements differ"
    return f"{n}x{n}x{n} wmma.m16n16k16 u8 -> s32, exact"


@program("2_Concepts_and_Techniques/reductionMultiBlockCG/reductionMultiBlockCG.cu")
def reduction_multi_block_cg(run):
    # One cooperative launch: each CTA reduces a grid-strided share (shared
    # doubles, cg::reduce over tiles of 32), grid.sync(), then thread 0 adds
    # the CTAs' partial sums. As the sample's host code, the grid is as many
    # CTAs as the GPU holds at once (small: 2 SMs x 2 CTAs of 256 threads).
    n, threads = 1 << 16, 256
    blocks = 4
    rng = np.random.default_rng(8)
    data = (rng.integers(0, 256, n) / 2147483647.0).astype(np.float32)  # (rand() & 0xFF) / RAND_MAX
    out = np.zeros(blocks, np.float32)
    run.launch("reduceSinglePassMultiBlockCG", blocks, threads, [data, out, n],
               shared_bytes=threads * 8, cooperative=True)
    want = data.astype(np.float64).sum()
    rel = abs(float(out[0]) - want) / want
    assert rel < 1e-6, f"sum {out[0]} against {want}: relative difference {rel}"
    return f"{n} floats over {blocks} CTAs with grid.sync(), relative difference {rel:.1e}"


@program("3_CUDA_Features/globalToShmemAsyncCopy/globalToShmemAsyncCopy.cu", arch="sm_80")
def global_to_shmem_async_copy(run):
    # Three of the sample's kernels (blockSize 16) on 128 x 128 matrices: the
    # four-stage cuda::pipeline of 16-byte cp.async, the cuda::barrier-tracked
    # copies (cp.async.mbarrier.arrive) and the producer/consumer pipeline
    # with shared state (mbarriers). As the sample, A = 1.0 and B = 0.01
    # (its kernels index B as A, so only constant inputs check them), and
    # every element of C must be wA * 0.01.
    n, bs = 128, 16
    a = np.full((n, n), 1.0, np.float32)
    b = np.full((n, n), 0.01, np.float32)
    kernels = [
        ("_Z38MatrixMulAsyncCopyMultiStageLargeChunkILi16EEvPfPKfS2_ii", (bs, bs), (n // bs, n // bs)),
        ("_Z37MatrixMulAsyncCopyLargeChunkAWBarrierILi16EEvPfPKfS2_ii", (bs, bs), (n // bs, n // bs)),
        ("_Z39MatrixMulAsyncCopyMultiStageSharedStateILi16EEvPfPKfS2_ii", (bs, bs + 2), (n // bs, n // bs)),
    ]
    want = n * np.float64(np.float32(0.01))
    worst = 0.0
    run.on("volta")  # 34,912 bytes of shared memory a CTA: more than the small preset's SMs hold
    for name, block, grid in kernels:
        c = np.zeros((n, n), np.float32)
        run.launch(name, grid, block, [c, a, b, n, n])
        rel = float(np.abs(c - want).max() / want)
        assert rel < 1e-5, f"{name}: relative difference {rel}"
        worst = max(worst, rel)
    return f"3 kernels (cp.async pipeline, mbarrier-tracked copies, shared-state pipeline), within {worst:.1e}"


@program("0_Introduction/simpleAWBarrier/simpleAWBarrier.cu", arch="sm_80")
def simple_aw_barrier(run):
    # normVecByDotProductAWBarrier: cuda::barrier arrive/wait inside each
    # CTA's reduction, grid.sync() between the phases (a cooperative launch
    # of 4 CTAs of 256 threads), on 65,536 elements of 2.0 as the sample's.
    size, threads, blocks = 1 << 16, 256, 4
    a = np.full(size, 2.0, np.float32)
    b = np.full(size, 2.0, np.float32)
    partial = np.zeros(blocks, np.float64)
    run.launch("_Z28normVecByDotProductAWBarrierPfS_Pdi", blocks, threads, [a, b, partial, size],
               shared_bytes=(threads // 32 + 1) * 8, cooperative=True)
    expected = np.float32(2.0 / math.sqrt(size * 4.0))
    err = float(np.abs(a - expected).max())
    assert err <= 1e-5, f"largest difference {err} from {expected}"
    return f"{size} elements normalised over {blocks} CTAs with cuda::barrier and grid.sync(), within {err:.1e}"


def compile_ptx(nvcc, source, arch, include):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "k.ptx")
        r = subprocess.run([nvcc, "-ptx", f"-arch={arch}", "-O3", "-w", f"-I{include}", source, "-o", out],
                           capture_output=True, text=True, cwd=os.path.dirname(source))
        if r.returncode != 0:
            raise RuntimeError("nvcc: " + (r.stderr.strip().splitlines() or ["failed"])[-1])
        with open(out) as f:
            return f.read()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("samples", help="a checkout of github.com/NVIDIA/cuda-samples")
    ap.add_argument("--arch", default="sm_75")
    ap.add_argument("--mode", choices=["functional", "timing"], default="functional")
    ap.add_argument("--nvcc", default=os.environ.get("NVCC", "/usr/local/cuda/bin/nvcc"))
    ap.add_argument("--only", nargs="*", help="program names to run")
    ap.add_argument("--session", action="store_true",
                    help="run each program's launches in one launch session (docs/launch-sessions.md)")
    args = ap.parse_args()
    passed = failed = 0
    for name, path, check, arch in PROGRAMS:
        if args.only and name not in args.only:
            continue
        source = os.path.join(args.samples, "Samples", path)
        try:
            target = max(args.arch, arch or args.arch, key=lambda a: int(a[3:]))
            ptx = compile_ptx(args.nvcc, source, target, os.path.join(args.samples, "Common"))
            run = Run(ptx, args.mode, session=args.session)
            try:
                print(f"PASS {name}: {check(run)}", flush=True)
            finally:
                run.close()
            passed += 1
        except Exception as e:  # a failed check, a KernelError, a PtxError: all reported alike
            failed += 1
            detail = str(e) or traceback.format_exc(limit=1)
            print(f"FAIL {name}: {type(e).__name__}: {detail}", flush=True)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
