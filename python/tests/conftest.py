"""Shared fixtures: a quick platform and small hand-written PTX kernels."""

import os

import pytest

import warptlm

SOURCE_DIR = os.environ.get("WARPTLM_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))

HEADER = ".version 7.0\n.target sm_70\n.address_size 64\n"

# out[i] = i < 12 ? i * 3 : -i for the global thread index i. PCs in comments.
DIVERGE_PTX = HEADER + r"""
.visible .entry diverge(.param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];         // 0
  cvta.to.global.u64 %rd2, %rd1;    // 8
  mov.u32 %r1, %tid.x;              // 16
  mov.u32 %r2, %ctaid.x;            // 24
  mov.u32 %r3, %ntid.x;             // 32
  mad.lo.s32 %r4, %r2, %r3, %r1;    // 40
  setp.lt.s32 %p1, %r4, 12;         // 48
  @%p1 bra THEN;                    // 56
  neg.s32 %r5, %r4;                 // 64
  bra.uni JOIN;                     // 72
THEN:
  mul.lo.s32 %r5, %r4, 3;           // 80
JOIN:
  mul.wide.s32 %rd3, %r4, 4;        // 88
  add.s64 %rd3, %rd2, %rd3;         // 96
  st.global.u32 [%rd3], %r5;        // 104
  ret;                              // 112
}
"""

# y[i] = a * x[i] + y[i] for i < n (mul then add: no fused rounding).
AXPY_PTX = HEADER + r"""
.visible .entry axpy(.param .u64 x, .param .u64 y, .param .f32 a, .param .u32 n)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .f32 %f<5>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [x];
  ld.param.u64 %rd2, [y];
  ld.param.f32 %f1, [a];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %ntid.x;
  mad.lo.s32 %r5, %r3, %r4, %r2;
  setp.ge.u32 %p1, %r5, %r1;
  @%p1 bra DONE;
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  mul.wide.u32 %rd3, %r5, 4;
  add.s64 %rd4, %rd1, %rd3;
  add.s64 %rd5, %rd2, %rd3;
  ld.global.f32 %f2, [%rd4];
  ld.global.f32 %f3, [%rd5];
  mul.rn.f32 %f4, %f1, %f2;
  add.rn.f32 %f3, %f4, %f3;
  st.global.f32 [%rd5], %f3;
DONE:
  ret;
}
"""


@pytest.fixture(scope="session")
def small():
    return warptlm.Platform("small")


@pytest.fixture(scope="session")
def diverge():
    return warptlm.Kernel.from_ptx(DIVERGE_PTX, "diverge")


@pytest.fixture(scope="session")
def axpy():
    return warptlm.Kernel.from_ptx(AXPY_PTX, "axpy")
