"""Launch arguments as CUDA users pass them: any order of scalars and arrays,
arrays of several sizes and dtypes, one array passed twice, C ints of either
sign, non-native byte order."""

import itertools
import shutil

import numpy as np
import pytest

import warptlm
from conftest import HEADER

needs_clang = pytest.mark.skipif(not (shutil.which("clang-14") or shutil.which("clang")),
                                 reason="clang not installed")

# name: (CUDA type, numpy dtype, length). Each array x gets x[i] += s + id for
# i < its length, where s is the sum of the scalar arguments.
ARRAYS = {"a": ("int", np.int32, 40), "b": ("double", np.float64, 7), "c": ("short", np.int16, 100),
          "d": ("float", np.float32, 64)}
SCALARS = {"n": ("int", np.int32(3)), "f": ("float", np.float32(0.5)), "k": ("long long", np.int64(-2))}


def _kernel_for(order):
    params = ", ".join(f"{ARRAYS[p][0]} *{p}" if p in ARRAYS else f"{SCALARS[p][0]} {p}" for p in order)
    total = " + ".join(p for p in order if p in SCALARS) or "0"
    body = "".join(f"  if (i < {ARRAYS[p][2]}) {p}[i] = {p}[i] + ({total}) + {ident};\n"
                   for ident, p in enumerate(order) if p in ARRAYS)
    source = (f"__global__ void mixed({params}) {{\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
              f"{body}}}\n")
    return warptlm.Kernel.from_cuda(source, "mixed", opt="-O1")


def _inputs(order):
    rng = np.random.default_rng(7)
    return [(rng.integers(-50, 50, ARRAYS[p][2]).astype(ARRAYS[p][1]) if p in ARRAYS else SCALARS[p][1])
            for p in order]


def _expected(order, inputs):
    total = sum(float(v) for p, v in zip(order, inputs) if p in SCALARS)
    return [(v.astype(np.float64) + total + ident).astype(v.dtype) if p in ARRAYS else None
            for ident, (p, v) in enumerate(zip(order, inputs))]


ORDERS = [("n", "a"), ("n", "f", "d"), ("a", "n", "b", "c"), ("n", "a", "f", "b", "k", "c", "d"),
          ("d", "c", "b", "a"), ("a", "b", "c", "d", "n", "f", "k")]


@needs_clang
@pytest.mark.parametrize("order", ORDERS, ids=["".join(o) for o in ORDERS])
@pytest.mark.parametrize("mode", ["functional", "timing"])
def test_scalars_and_arrays_in_any_order(small, order, mode):
    kernel = _kernel_for(order)
    inputs = _inputs(order)
    expected = _expected(order, inputs)
    small.launch(kernel, 2, 64, inputs, mode=mode)
    for p, got, want in zip(order, inputs, expected):
        if want is not None:
            np.testing.assert_array_equal(got, want, err_msg=f"array {p} of {order}")


@needs_clang
def test_every_position_of_one_scalar_among_three_arrays(small):
    for order in itertools.permutations(("a", "b", "n", "c")):
        inputs = _inputs(order)
        expected = _expected(order, inputs)
        small.launch(_kernel_for(order), 1, 128, inputs)
        for got, want in zip(inputs, expected):
            if want is not None:
                np.testing.assert_array_equal(got, want, err_msg=str(order))


@needs_clang
def test_the_issues_reproducers(small):
    scale = warptlm.Kernel.from_cuda(
        "__global__ void scale(int n, float f, float *a) {\n"
        "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) a[i] *= f;\n}\n", "scale")
    a = np.arange(100, dtype=np.float32)
    scale_args = [np.int32(100), np.float32(2), a]
    small.launch(scale, 4, 32, scale_args)
    np.testing.assert_array_equal(a, 2 * np.arange(100, dtype=np.float32))
    k = warptlm.Kernel.from_cuda(
        "__global__ void k(int *a, int n, int *b, int *c) {\n"
        "  int i = threadIdx.x;\n  if (i < n) { a[i] += 1; b[i] += 2; c[i] += 3; }\n}\n", "k")
    a, b, c = np.zeros(8, np.int32), np.full(16, 10, np.int32), np.full(4, 100, np.int32)
    small.launch(k, 1, 32, [a, 4, b, c])
    assert list(a) == [1] * 4 + [0] * 4
    assert list(b) == [12] * 4 + [10] * 12
    assert list(c) == [103] * 4


INPLACE_PTX = HEADER + r"""
.visible .entry inplace(.param .u64 src, .param .u64 dst)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [src];
  ld.param.u64 %rd2, [dst];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd1, %rd3;
  add.s64 %rd5, %rd2, %rd3;
  ld.global.u32 %r2, [%rd4];
  add.s32 %r3, %r2, 1;
  st.global.u32 [%rd5], %r3;
  ret;
}
"""


@pytest.mark.parametrize("mode", ["functional", "timing"])
def test_one_array_passed_twice_is_one_device_buffer(small, mode):
    kernel = warptlm.Kernel.from_ptx(INPLACE_PTX, "inplace")
    a = np.arange(3, dtype=np.int32)
    small.launch(kernel, 1, 3, [a, a], mode=mode)
    assert list(a) == [1, 2, 3]  # a[i] = a[i] + 1 through two parameters, as in CUDA
    b = np.arange(3, dtype=np.int32)
    small.launch(kernel, 1, 3, [b, b[:]])  # a view of the same bytes is the same buffer
    assert list(b) == [1, 2, 3]


def test_overlapping_distinct_arrays_are_refused(small):
    kernel = warptlm.Kernel.from_ptx(INPLACE_PTX, "inplace")
    a = np.arange(8, dtype=np.int32)
    with pytest.raises(ValueError, match=r"argument 1 \('dst'\) overlaps the array of argument 0"):
        small.launch(kernel, 1, 3, [a[:4], a[2:6]])
    assert list(a) == list(range(8))  # nothing changed


def test_c_int_parameters_take_negative_values(small):
    kernel = warptlm.Kernel.from_ptx(HEADER + r"""
.visible .entry store(.param .u64 out, .param .u32 v, .param .s16 h)
{
  .reg .b16 %h<2>;
  .reg .b32 %r<3>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [v];
  st.global.u32 [%rd1], %r1;
  ld.param.s16 %h1, [h];
  cvt.s32.s16 %r2, %h1;
  st.global.u32 [%rd1+4], %r2;
  ret;
}
""", "store")
    out = np.zeros(2, np.int32)
    small.launch(kernel, 1, 1, [out, -1, 65535])
    assert list(out) == [-1, -1]  # -1 as .u32, 65535 as .s16: both the bit pattern 0xff..
    with pytest.raises(OverflowError, match=r"\.u32; -2147483649 is outside \[-2147483648, 4294967295\]"):
        small.launch(kernel, 1, 1, [out, -2**31 - 1, 0])
    with pytest.raises(OverflowError, match=r"\.s16; 65536 is outside"):
        small.launch(kernel, 1, 1, [out, 0, 65536])


@pytest.mark.parametrize("mode", ["functional", "timing"])
def test_big_endian_arrays_are_converted_not_reinterpreted(small, mode):
    kernel = warptlm.Kernel.from_ptx(INPLACE_PTX, "inplace")
    src = np.array([1, 2, 256], dtype=">i4")
    dst = np.zeros(3, dtype=">i4")
    small.launch(kernel, 1, 3, [src, dst], mode=mode)
    assert dst.dtype == np.dtype(">i4") and list(dst) == [2, 3, 257]
    assert list(src) == [1, 2, 256]


def test_object_arrays_are_refused(small):
    kernel = warptlm.Kernel.from_ptx(INPLACE_PTX, "inplace")
    with pytest.raises(TypeError, match=r"argument 0 \('src'\): a numpy object array holds Python objects"):
        small.launch(kernel, 1, 1, [np.array([1, "x"], dtype=object), np.zeros(2, np.int32)])
