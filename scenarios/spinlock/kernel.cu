// A critical section guarded by a spin lock on global memory: every thread of
// a CTA takes its CTA's lock with atomic compare-and-swap, so lanes of the same
// warp contend for it. Inside the critical section a thread takes the next
// ticket from its CTA's counter, appends its thread index to the CTA's list at
// that ticket and adds its input value to the CTA's total, with plain
// (non-atomic) loads and stores: only the lock keeps them exclusive.
//
// The form matters under a SIMT reconvergence stack. In spin_lock, acquire,
// critical section and release all sit inside the branch taken by the CAS
// winner, and the retry loop goes round only after that branch has
// reconverged with the losers' path:
//
//   done = false;
//   while (!done) {
//     if (atomicCAS(&lock, 0, 1) == 0) { critical; fence; atomicExch(&lock, 0); done = true; }
//   }
//
// So the winner releases the lock before the losers try again, and the warp
// completes under IPDOM. spin_lock_naive is the usual CPU form,
//
//   while (atomicCAS(&lock, 0, 1) != 0) {}   critical; fence; atomicExch(&lock, 0);
//
// which livelocks under an IPDOM stack that runs the spin branch's taken
// (retry) path first: the winner waits at the loop exit (the IPDOM of the spin
// branch) while its warp-mates spin forever on the lock it holds. Which
// traversal order a reconvergence scheme picks decides whether it finishes.
#include "../common/cuda_shim.h"
// After cuda_shim.h, which defines __device__.
#include "../common/atomics.h"

// The critical section: a read-modify-write of count[b] and total[b] and one
// store into the CTA's slice of `order`. count and total are volatile so each
// access is a real load or store, in program order.
__device__ static inline void critical_section(volatile unsigned* count, volatile unsigned* total,
                                               unsigned* order, unsigned* ticket, unsigned b,
                                               unsigned t, unsigned block, unsigned i, unsigned v) {
  unsigned c = count[b];
  order[b * block + c] = t;
  ticket[i] = c;
  total[b] = total[b] + v;
  count[b] = c + 1;
}

// One lock, counter and total per CTA; `order` and `ticket` one entry per thread.
extern "C" __global__ void spin_lock(const unsigned* in, unsigned* locks, volatile unsigned* count,
                                     volatile unsigned* total, unsigned* order, unsigned* ticket,
                                     unsigned n) {
  unsigned b = ctaid_x(), t = tid_x(), block = ntid_x();
  unsigned i = b * block + t;
  if (i >= n) return;
  unsigned v = in[i];
  unsigned done = 0;
  while (!done) {
    if (atomic_cas(&locks[b], 0u, 1u) == 0u) {
      critical_section(count, total, order, ticket, b, t, block, i, v);
      thread_fence();
      atomic_exch(&locks[b], 0u);
      done = 1;
    }
    // Without this clang knows `done` is still 0 on the losers' path, threads
    // that path straight back to the CAS and so turns the loop into the naive
    // form below. The empty asm statement makes `done` opaque; it emits no
    // instruction (only two comment lines in the PTX).
    asm volatile("" : "+r"(done));
  }
}

// The naive form, for studying traversal orders: under the IPDOM stack it
// never finishes when two threads of a warp contend (the run hits the
// executor's instruction budget). Not used by the scenario's check.
extern "C" __global__ void spin_lock_naive(const unsigned* in, unsigned* locks,
                                           volatile unsigned* count, volatile unsigned* total,
                                           unsigned* order, unsigned* ticket, unsigned n) {
  unsigned b = ctaid_x(), t = tid_x(), block = ntid_x();
  unsigned i = b * block + t;
  if (i >= n) return;
  unsigned v = in[i];
  while (atomic_cas(&locks[b], 0u, 1u) != 0u) {
  }
  critical_section(count, total, order, ticket, b, t, block, i, v);
  thread_fence();
  atomic_exch(&locks[b], 0u);
}
