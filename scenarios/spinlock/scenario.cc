// spinlock: a critical section guarded by an atomicCAS spin lock on global
// memory, one lock per CTA, every thread of the CTA contending (lanes of the
// same warp included). Written in the form that completes under the IPDOM
// stack (acquire, critical section and release inside the CAS winner's
// branch); kernel.cu explains why the naive form (spin, then the critical
// section after the loop) livelocks. Size n = number of threads (any n; the
// last CTA is partly idle when n is not a multiple of the block size).
//
// The order in which threads get the lock depends on the reconvergence
// scheme and the warp interleaving, so the check accepts any order: each
// CTA's count and total exact, every lock released, the `order` list a
// permutation of the CTA's thread indices, and each thread's ticket pointing
// at its own entry. expected() gives one valid outcome: ascending order.
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "builtin.h"
#include "common/buffers.h"
#include "common/compare.h"
#include "common/draw.h"
#include "common/size_rules.h"

namespace warptlm::scenarios {
namespace {

constexpr const char* kName = "spinlock";
constexpr uint32_t kBlock = 256;
constexpr uint64_t kMaxN = uint64_t(1) << 20;
// Inputs below 2^20: a CTA's total (at most 256 of them) stays below 2^28.
constexpr uint64_t kMaxValue = uint64_t(1) << 20;
constexpr size_t kIn = 0, kLocks = 1, kCount = 2, kTotal = 3, kOrder = 4,
                 kTicket = 5;  // buffer indices
constexpr size_t kArgN = 6;

LaunchSpec make_launch(uint64_t n, uint64_t seed) {
  require_size(kName, n, 1, kMaxN);
  std::mt19937_64 rng(seed);
  std::vector<uint32_t> in(n);
  for (auto& v : in) v = uint32_t(draw_below(rng, kMaxValue));
  LaunchSpec l = launch_covering(n, kBlock);
  uint32_t ctas = l.grid.x;
  l.buffers.push_back(make_buffer("in", in));
  // Locks, counters and totals start at 0 (free, empty); order and ticket
  // start poisoned so a missing store shows.
  l.buffers.push_back(make_buffer("locks", std::vector<uint32_t>(ctas, 0)));
  l.buffers.push_back(make_buffer("count", std::vector<uint32_t>(ctas, 0)));
  l.buffers.push_back(make_buffer("total", std::vector<uint32_t>(ctas, 0)));
  l.buffers.push_back(poisoned_buffer("order", n));
  l.buffers.push_back(poisoned_buffer("ticket", n));
  l.args = {KernelArg::buffer_arg(kIn),     KernelArg::buffer_arg(kLocks),
            KernelArg::buffer_arg(kCount),  KernelArg::buffer_arg(kTotal),
            KernelArg::buffer_arg(kOrder),  KernelArg::buffer_arg(kTicket),
            KernelArg::scalar(Type::U32, n)};
  return l;
}

// The inputs of a launch, validated.
struct Inputs {
  std::vector<uint32_t> in;
  uint64_t n = 0;
  size_t ctas = 0;
};

Inputs read_inputs(const LaunchSpec& in) {
  buffer_at(kName, in, kTicket);  // throws unless the launch is one make_launch built
  require_arg_count(kName, in, kArgN + 1);
  Inputs r;
  r.in = read_buffer<uint32_t>(in.buffers[kIn]);
  r.n = in.args[kArgN].bits;
  r.ctas = size_t(ceil_div(r.n, kBlock));
  if (r.in.size() != r.n || in.block.x != kBlock ||
      read_buffer<uint32_t>(in.buffers[kCount]).size() != r.ctas)
    throw std::invalid_argument(std::string(kName) + ": buffers and n do not match");
  return r;
}

// Threads of CTA b that run (the last CTA may be partly idle).
uint32_t active_in(uint64_t n, size_t b) {
  uint64_t first = uint64_t(b) * kBlock;
  return uint32_t(n - first < kBlock ? n - first : kBlock);
}

// The host reference, in one valid order: every CTA's threads in ascending
// index order.
LaunchSpec expected(const LaunchSpec& in) {
  Inputs x = read_inputs(in);
  std::vector<uint32_t> count(x.ctas), total(x.ctas, 0), order(x.n), ticket(x.n);
  for (size_t b = 0; b < x.ctas; ++b) count[b] = active_in(x.n, b);
  for (uint64_t i = 0; i < x.n; ++i) {
    total[i / kBlock] += x.in[i];
    order[i] = uint32_t(i % kBlock);
    ticket[i] = uint32_t(i % kBlock);
  }
  LaunchSpec e = in;
  e.buffers[kLocks] = make_buffer("locks", std::vector<uint32_t>(x.ctas, 0));
  e.buffers[kCount] = make_buffer("count", count);
  e.buffers[kTotal] = make_buffer("total", total);
  e.buffers[kOrder] = make_buffer("order", order);
  e.buffers[kTicket] = make_buffer("ticket", ticket);
  return e;
}

CheckResult fail(std::string message) {
  CheckResult r;
  r.message = std::move(message);
  return r;
}

// `order` holds, for each CTA, a permutation of its active thread indices,
// and ticket[i] is the position of thread i in its CTA's list.
CheckResult check_order(const Inputs& x, const std::vector<uint32_t>& order,
                        const std::vector<uint32_t>& ticket) {
  if (order.size() != x.n || ticket.size() != x.n)
    return fail("order/ticket: expected " + std::to_string(x.n) + " values each");
  for (size_t b = 0; b < x.ctas; ++b) {
    uint32_t active = active_in(x.n, b);
    size_t base = b * kBlock;
    std::vector<bool> seen(active, false);
    for (uint32_t k = 0; k < active; ++k) {
      uint32_t t = order[base + k];
      std::string at = "order[" + std::to_string(base + k) + "]";
      if (t >= active)
        return fail(at + ": thread index " + std::to_string(t) + " is not a thread of CTA " +
                    std::to_string(b) + " (it has " + std::to_string(active) + ")");
      if (seen[t])
        return fail(at + ": thread " + std::to_string(t) + " of CTA " + std::to_string(b) +
                    " appears twice (mutual exclusion broken or an entry lost)");
      seen[t] = true;
    }
    for (uint32_t t = 0; t < active; ++t) {
      uint32_t c = ticket[base + t];
      std::string at = "ticket[" + std::to_string(base + t) + "]";
      if (c >= active)
        return fail(at + ": expected a ticket below " + std::to_string(active) + ", got " +
                    std::to_string(c));
      if (order[base + c] != t)
        return fail(at + ": ticket " + std::to_string(c) + " but order[" +
                    std::to_string(base + c) + "] is thread " + std::to_string(order[base + c]) +
                    ", not " + std::to_string(t));
    }
  }
  CheckResult r;
  r.passed = true;
  r.message = "order: a permutation of each CTA's threads, matching every ticket";
  return r;
}

CheckResult check(const LaunchSpec& in, const LaunchSpec& out) {
  Inputs x = read_inputs(in);
  LaunchSpec want = expected(in);
  std::string summary;
  for (size_t buf : {kCount, kTotal, kLocks}) {
    CheckResult r = check_buffer<uint32_t>(kName, want, out, buf);
    if (!r.passed) return r;
    summary += r.message + "; ";
  }
  CheckResult r = check_order(x, read_buffer<uint32_t>(buffer_at(kName, out, kOrder)),
                              read_buffer<uint32_t>(buffer_at(kName, out, kTicket)));
  if (r.passed) r.message = summary + r.message;
  return r;
}

}  // namespace

Scenario make_spinlock() {
  Scenario s = builtin_scenario(kName, make_launch, check, expected);
  s.title =
      "atomicCAS spin lock per CTA, lanes of a warp contending; IPDOM-safe form (the naive "
      "spin-then-enter form livelocks under IPDOM)";
  s.mirrors =
      "spin-lock critical section with atomicCAS: the lock case where depth-first path "
      "traversal never ends (Collange & Brunie, CompAS 2017, Sec. 2.3; seed 002); synthetic "
      "kernel";
  s.divergence = {Divergence::Data, Divergence::LoopTrip};
  s.entry = "spin_lock";
  s.sizes = {{"test", 1024}, {"study", uint64_t(1) << 16}};
  s.min_n = 1;
  s.max_n = kMaxN;
  // Min-PC orders: clang places the loop latch before the CAS block, so the
  // losers' retry path has the lower PC and always runs first; the winner
  // waits at the higher PC and never releases the lock.
  s.livelocks_under = {"min_pc", "sorted_list"};
  return s;
}

}  // namespace warptlm::scenarios
