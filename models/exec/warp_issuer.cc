#include "exec/warp_issuer.h"

#include <algorithm>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <string>

#include "exec/device_printf.h"

namespace warptlm {
namespace {

// The fault of a `trap`. Cooperative groups' grid.sync() traps when the grid
// workspace (%envreg1:%envreg2) is 0, that is in a launch that is not
// cooperative: a kernel that reads it gets a hint.
std::string trap_message(const Module& m, const CtaContext& cta) {
  const std::string what = "trap executed";
  if (cta.grid_workspace != 0) return what;
  for (const Instruction& in : m.code)
    for (const Operand& op : in.ops)
      if (op.kind == Operand::Kind::Special && op.sreg == SpecialReg::EnvReg &&
          (op.comp == 1 || op.comp == 2))
        return what +
               " (the kernel reads the grid workspace %envreg1:%envreg2, which is 0 unless the "
               "launch is cooperative, and cooperative groups' grid.sync() traps on 0: launch it "
               "cooperatively, exec --cooperative or launch(..., cooperative=True))";
  return what;
}

// An mbarrier operation that changes the object (what another thread's wait
// can see); test_wait, try_wait and pending_count only look.
bool mbarrier_update(const Instruction& in) {
  return in.op == Opcode::Mbarrier && in.mbarrier != MbarrierOp::TestWait &&
         in.mbarrier != MbarrierOp::TryWait && in.mbarrier != MbarrierOp::PendingCount;
}

// What another thread could see: the watchdog's progress (besides exits,
// barriers and runtime calls).
bool visible_to_others(const Instruction& in) {
  return in.op == Opcode::Atom || in.op == Opcode::Red || in.op == Opcode::Sust ||
         in.op == Opcode::CpAsync || mbarrier_update(in) ||
         (in.op == Opcode::St && in.space != Space::Local && in.space != Space::Param);
}

// Per-thread local memory may grow to this many bytes (CUDA's own limit), so
// runaway recursion ends in a fault rather than exhausting the host.
constexpr uint64_t kLocalLimit = 512 * 1024;

}  // namespace

std::string dim_string(const Dim3& d) {
  return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
}

unsigned lowest_lane(LaneMask m) {
  unsigned l = 0;
  while (m && !(m & 1)) m >>= 1, ++l;
  return l;
}

WarpIssuer::WarpIssuer(const Program& program, const Function& kernel, KernelMemory& memory,
                       const RegisterLayouts& layouts, const std::string& reconvergence,
                       uint64_t instruction_budget, uint64_t watchdog, const OptionValues& options)
    : program_(program),
      module_(program.module),
      kernel_(kernel),
      memory_(memory),
      layouts_(layouts),
      reconvergence_(reconvergence),
      scheme_options_(reconvergence_options(reconvergence, options)),
      instruction_budget_(instruction_budget),
      watchdog_(watchdog) {
  // Layouts of another program (or none: a KernelLaunch filled by hand
  // without them) would index past their tables at the first operand.
  if (layouts.functions.size() != module_.functions.size() || layouts.warp_size == 0)
    throw std::invalid_argument("WarpIssuer: the register layouts cover " +
                                std::to_string(layouts.functions.size()) +
                                " functions (warp size " + std::to_string(layouts.warp_size) +
                                "), the program has " + std::to_string(module_.functions.size()) +
                                "; build them with RegisterLayouts(module, warp_size)");
  straight_.assign(layouts.predecoded.size(), Straight::No);
  for (size_t i = 0; i < straight_.size() && i < module_.code.size(); ++i) {
    const PredecodedInstruction& d = layouts.predecoded[i];
    const Instruction& in = module_.code[i];
    if (in.lowered || in.op == Opcode::Reconverge) continue;  // issue() counts those
    if ((d.run && !d.memory) || d.branch)
      straight_[i] = Straight::Predecoded;
    else if (!reports_control(in.op))
      straight_[i] = visible_to_others(in) ? Straight::Visible : Straight::Executed;
  }
}

unsigned WarpIssuer::issue_straight(Warp& w, const Path& p, Pc stop, unsigned max, size_t issuable,
                                    CtaContext& cta, WarpEnvironment& env, RunStats& stats,
                                    Pc* pc) const {
  Frame& frame = w.frames.back();
  const Function& fn = module_.functions[frame.function];
  uint8_t* regs = frame.regs.data();
  const LaneMask active = p.mask;
  const LaneMask lanes = active & full_mask(w.size);
  const unsigned threads = lane_count(active);
  Pc at = p.pc;
  unsigned n = 0;
  // What issue() and execute_path() do for these instructions, in their
  // order; a pc outside the function is left to them (they fault).
  while (n < max && at >= fn.begin && at < fn.end) {
    const size_t index = at / kInstrBytes;
    const Straight kind = index < straight_.size() ? straight_[index] : Straight::No;
    if (kind == Straight::No) break;
    const PredecodedInstruction& d = layouts_.predecoded[index];
    Pc next = at + kInstrBytes;
    bool progress = false;
    if (kind == Straight::Predecoded) {
      LaneMask m = lanes;
      if (d.has_guard) m &= *reinterpret_cast<const LaneMask*>(regs + d.guard) ^ d.guard_flip;
      if (d.branch) {
        if (m != 0 && m != active) break;  // divergent: the scheme's business
        if (m) next = d.target;
      } else {
        d.run(d, regs, m, w.size, env);
      }
    } else {
      const Outcome o = execute_at(w, frame, module_.code[index], at, active, cta, env, &d);
      progress = kind == Straight::Visible && o.executed;
    }
    ++w.issued;
    if (progress)
      w.progress_mark = w.issued;
    else if (watchdog_ && w.issued - w.progress_mark > watchdog_)
      watchdog_fault(w, cta, at, active);
    stats.note_issuable(issuable);
    ++stats.warp_instructions;
    stats.thread_instructions += threads;
    check_budget(w, cta, at, active, stats);
    if (d.branch) {
      const BranchInfo* b = program_.branch_at(at);
      if (b && b->conditional) ++stats.branches;  // uniform: never divergent
    }
    ++n;
    at = next;
    if (at == stop) break;
  }
  *pc = at;
  return n;
}

void WarpIssuer::fault(const Warp& w, const CtaContext& cta, Pc pc, unsigned lane,
                       const std::string& what, const MemoryFault* memory) const {
  FaultSite site;
  site.kernel = kernel_.name;
  site.pc = pc;
  if (lane < w.tid.size()) {
    site.has_thread = true;
    site.tid = w.tid[lane];
    site.ctaid = cta.ctaid;
    site.warp = w.index;
    site.lane = lane;
  }
  if (memory) {
    site.has_address = true;
    site.space = memory->space;
    site.address = memory->address;
  }
  std::ostringstream os;
  os << "kernel '" << kernel_.name << "': ";
  if (pc / kInstrBytes < module_.code.size()) {
    const Instruction& in = module_.at(pc);
    os << "PC " << hex_string(pc) << " (" << module_.source_name << ":" << in.loc.line << ": `"
       << in.text << "`)";
  } else {
    os << "PC " << hex_string(pc);
  }
  if (lane < w.tid.size())
    os << ", thread " << dim_string(w.tid[lane]) << " of CTA " << dim_string(cta.ctaid) << " (warp "
       << w.index << ", lane " << lane << ")";
  os << ": " << what;
  throw KernelFault(os.str(), std::move(site));
}

void WarpIssuer::start_warp(Warp& w, uint32_t index, const Dim3& b) const {
  const unsigned ws = layouts_.warp_size;
  const uint64_t threads = b.count();
  w.index = index;
  w.size = ws;
  w.valid = 0;
  w.exited = 0;
  w.at_barrier = false;
  w.barrier_lanes = 0;
  w.barrier_id = 0;
  w.barrier_pc = 0;
  w.issued = 0;
  w.progress_mark = 0;
  w.tid.assign(ws, Dim3{0, 0, 0});
  // The lanes' vectors keep their storage. (assign(ws, {}) copies an empty
  // vector into each: 2.4 K host instructions per warp.)
  w.local.resize(ws);
  for (std::vector<uint8_t>& l : w.local) l.clear();
  // A warp reused for the next one (an SM's warp slot, the functional
  // executor's warps of the next CTA) keeps its kernel frame's storage.
  Frame storage;
  if (!w.frames.empty()) storage = std::move(w.frames.front());
  w.frames.clear();
  for (unsigned l = 0; l < ws; ++l) {
    uint64_t t = uint64_t(index) * ws + l;
    if (t >= threads) break;
    w.valid |= LaneMask(1) << l;
    w.tid[l] = Dim3{static_cast<uint32_t>(t % b.x), static_cast<uint32_t>((t / b.x) % b.y),
                    static_cast<uint32_t>(t / (uint64_t(b.x) * b.y))};
  }
  w.simt = make_reconvergence_unit(reconvergence_, ws, scheme_options_);
  w.counters_pending = false;
  w.simt->set_layout_ranks(&program_.layout_rank);  // ppc_implicit compares ranks
  CtaContext none;
  push_frame(w, none, static_cast<uint32_t>(&kernel_ - module_.functions.data()), 0, w.valid,
             std::move(storage));
  w.simt->reset(kernel_.begin, w.valid);
}

void WarpIssuer::push_frame(Warp& w, const CtaContext& cta, uint32_t function, Pc call_pc,
                            LaneMask lanes, Frame&& storage) const {
  const Function& f = module_.functions[function];
  Frame fr = std::move(storage);
  fr.function = function;
  // Every parameter, and every register a thread may read before writing
  // it, starts at 0 (the others are never read first: zeroing them cost
  // 14% of nested3's functional run): reset() and clear() plus resize()
  // zero with memset; assign() on reused storage would store element by
  // element.
  const RegisterLayout& layout = layouts_.functions[function];
  fr.regs.reset(layout);
  fr.slots = layout.slots.data();
  fr.param_frame_size = f.param_frame_size;
  fr.params.clear();
  fr.params.resize(f.param_frame_size * w.size);
  fr.call_pc = call_pc;
  fr.local_base = 0;
  if (!w.frames.empty()) {
    const Frame& caller = w.frames.back();
    uint64_t end = caller.local_base + module_.functions[caller.function].local_size;
    fr.local_base = (end + 15) / 16 * 16;
  }
  uint64_t need = fr.local_base + f.local_size;
  if (need > kLocalLimit)
    fault(w, cta, call_pc, lowest_lane(lanes),
          "local memory stack overflow calling '" + f.name + "' (needs " + std::to_string(need) +
              " bytes per thread, limit " + std::to_string(kLocalLimit) + "; runaway recursion?)");
  for (unsigned l = 0; l < w.size; ++l)
    if ((w.valid >> l) & 1 && w.local[l].size() < need) w.local[l].resize(need, 0);

  if (!w.frames.empty()) {
    // Copy-in: the caller's call-site .params become the callee's formals.
    const Frame& caller = w.frames.back();
    const Instruction& call = module_.at(call_pc);
    const auto& args = call.ops[2].elems;
    for (size_t i = 0; i < args.size() && i < f.params.size(); ++i) {
      const Symbol& actual = module_.symbols[args[i].symbol];
      const Symbol& formal = module_.symbols[f.params[i]];
      uint64_t n = std::min(actual.size, formal.size);
      for (unsigned l = 0; l < w.size; ++l)
        if ((lanes >> l) & 1)
          std::memcpy(fr.params.data() + l * fr.param_frame_size + formal.offset,
                      caller.params.data() + l * caller.param_frame_size + actual.offset, n);
    }
  }
  w.frames.push_back(std::move(fr));
}

void WarpIssuer::system_call(Warp& w, const CtaContext& cta, Pc pc, const Instruction& call,
                             const Function& callee, LaneMask lanes, WarpEnvironment& env) const {
  Frame& frame = w.frames.back();
  const auto& args = call.ops[2].elems;
  // A call-site .param of lane l (the arguments are b32 or b64).
  auto param = [&](unsigned l, const Operand& op) -> uint8_t* {
    return frame.params.data() + l * frame.param_frame_size + module_.symbols[op.symbol].offset;
  };
  auto arg = [&](unsigned l, size_t i) {
    uint64_t v = 0;
    std::memcpy(&v, param(l, args[i]), std::min<uint64_t>(module_.symbols[args[i].symbol].size, 8));
    return v;
  };
  for (unsigned l = 0; l < w.size; ++l) {
    if (!((lanes >> l) & 1)) continue;
    const DeviceRead read = [&](uint64_t a, void* dst, unsigned n) {
      env.peek(Space::Generic, l, a, dst, n);
    };
    try {
      if (callee.system == SystemFunction::Vprintf) {
        const DevicePrintf out = format_device_printf(read, arg(l, 0), arg(l, 1));
        append_console(memory_.console, out.text);
        if (!call.ops[0].elems.empty())
          std::memcpy(param(l, call.ops[0].elems[0]), &out.arguments, 4);
      } else {
        // As the CUDA runtime reports a failed assert; the launch ends.
        fault(w, cta, pc, l,
              "assertion `" + read_device_string(read, arg(l, 0)) + "` failed (" +
                  read_device_string(read, arg(l, 1)) + ":" +
                  std::to_string(static_cast<uint32_t>(arg(l, 2))) + ", in " +
                  read_device_string(read, arg(l, 3)) + ")");
      }
    } catch (const MemoryFault& mf) {
      fault(w, cta, pc, l, callee.name + ": memory fault reading its arguments: " + mf.what(), &mf);
    }
  }
}

void WarpIssuer::pop_frame(Warp& w) const {
  Frame callee = std::move(w.frames.back());
  w.frames.pop_back();
  Frame& caller = w.frames.back();
  // Copy-out: the callee's return values land in the call site's .params.
  const Function& f = module_.functions[callee.function];
  const auto& rets = module_.at(callee.call_pc).ops[0].elems;
  for (size_t i = 0; i < rets.size() && i < f.rets.size(); ++i) {
    const Symbol& actual = module_.symbols[rets[i].symbol];
    const Symbol& formal = module_.symbols[f.rets[i]];
    uint64_t n = std::min(actual.size, formal.size);
    for (unsigned l = 0; l < w.size; ++l)
      std::memcpy(caller.params.data() + l * caller.param_frame_size + actual.offset,
                  callee.params.data() + l * callee.param_frame_size + formal.offset, n);
  }
}

Outcome WarpIssuer::execute_at(const Warp& w, const Frame& frame, const Instruction& in, Pc pc,
                               LaneMask mask, CtaContext& cta, WarpEnvironment& env,
                               const PredecodedInstruction* d) const {
  try {
    Outcome o;
    if (d && run_predecoded(*d, frame.regs.data(), mask, w.size, env, o)) return o;
    const WarpRegisters regs{frame.regs.data(), frame.slots, w.size};
    return execute(module_, in, regs, mask, env);
  } catch (const MemoryFault& mf) {
    fault(w, cta, pc, mf.lane,
          std::string(mf.reason == MemoryFault::Reason::Misaligned ? "misaligned " : "") +
              "memory fault: " + mf.what(),
          &mf);
  } catch (const LaneError& e) {
    fault(w, cta, pc, e.lane, e.what());
  } catch (const std::runtime_error& e) {
    fault(w, cta, pc, lowest_lane(mask), e.what());
  }
}

IssueResult WarpIssuer::execute_path(Warp& w, const Path& p, CtaContext& cta, WarpEnvironment& env,
                                     ControlEvent& ev) const {
  const Frame& frame = w.frames.back();
  const Function& fn = module_.functions[frame.function];
  if (p.pc < fn.begin || p.pc >= fn.end) {
    if (p.pc == fn.end || p.pc / kInstrBytes >= module_.code.size())
      fault(w, cta, p.pc, lowest_lane(p.mask),
            "control reached PC " + hex_string(p.pc) + " past the end of function '" + fn.name +
                "' (fell off its end without ret/exit?)");
    // Frames are per warp: a scheme that interleaves paths living in different
    // call frames needs per-path frames, which the executors do not have yet.
    fault(w, cta, p.pc, lowest_lane(p.mask),
          "reconvergence scheme '" + reconvergence_ + "' issued a path in function '" +
              module_.function_at(p.pc).name + "' while the warp's current call frame is '" +
              fn.name +
              "': interleaving paths across device-function calls is not supported by the "
              "executors yet");
  }
  IssueResult r;
  const Instruction& in = module_.at(p.pc);
  r.instruction = &in;
  Outcome& o = r.outcome;
  const size_t index = p.pc / kInstrBytes;
  // The common simple forms run pre-decoded; only loads and stores among
  // them can fault, so they run where faults are caught.
  const PredecodedInstruction* d =
      index < layouts_.predecoded.size() ? &layouts_.predecoded[index] : nullptr;
  if (!d || d->memory || !run_predecoded(*d, frame.regs.data(), p.mask, w.size, env, o))
    o = execute_at(w, frame, in, p.pc, p.mask, cta, env, d);
  // `trap` aborts the whole kernel, as on the device (cudaErrorLaunchFailure).
  if (o.control == Control::Trap)
    fault(w, cta, p.pc, lowest_lane(o.executed), trap_message(module_, cta));
  ++w.issued;

  ev = ControlEvent{};
  ev.kind = o.control;
  ev.active = p.mask;
  ev.executed = o.executed;
  ev.next = p.pc + kInstrBytes;
  ev.target = o.target;
  ev.marker = in.op == Opcode::Reconverge;
  ev.lowered = in.lowered;
  switch (o.control) {
    case Control::Branch: {
      r.branch = program_.branch_at(p.pc);
      ev.reconv = r.branch ? r.branch->reconv : kExitPc;
      break;
    }
    case Control::Call:
      if (module_.functions[o.callee].system != SystemFunction::None) {
        // The runtime's function runs at the call: no frame, no control effect.
        if (o.executed) system_call(w, cta, p.pc, in, module_.functions[o.callee], o.executed, env);
        o.control = ev.kind = Control::None;
      } else if (o.executed) {
        push_frame(w, cta, o.callee, p.pc, o.executed, Frame{});
        r.called = true;
      }
      break;
    case Control::Ret:
      if (w.frames.size() == 1) ev.kind = Control::Exit;  // ret from the kernel itself
      break;
    default:
      break;
  }
  if (ev.kind == Control::Exit) w.exited |= o.executed;

  // The no-progress watchdog: what another thread could see, or what ends
  // a wait, is progress; a warp that only computes and loads is spinning.
  bool progress = ev.kind == Control::Exit || ev.kind == Control::Barrier ||
                  (in.op == Opcode::Call && o.executed && o.control == Control::None);
  if (o.executed && visible_to_others(in)) progress = true;
  if (progress)
    w.progress_mark = w.issued;
  else if (watchdog_ && w.issued - w.progress_mark > watchdog_)
    watchdog_fault(w, cta, p.pc, p.mask);
  return r;
}

void WarpIssuer::watchdog_fault(const Warp& w, const CtaContext& cta, Pc pc, LaneMask mask) const {
  fault(w, cta, pc, lowest_lane(mask),
        "no progress: the warp issued " + std::to_string(w.issued - w.progress_mark) +
            " warp instructions in a row without a store to global or shared memory, an atomic, "
            "a barrier or an exit (a spin loop that never ends?); set watchdog (--set "
            "watchdog=N) higher for a longer computation, or 0 to turn it off");
}

void WarpIssuer::budget_fault(const Warp& w, const CtaContext& cta, Pc pc, LaneMask mask) const {
  fault(w, cta, pc, lowest_lane(mask),
        "runaway kernel: more than " + std::to_string(instruction_budget_) +
            " warp instructions in the launch (instruction_budget; an infinite loop?); set "
            "instruction_budget (--budget N) higher for a longer kernel");
}

void WarpIssuer::count_branch(const IssueResult& r, LaneMask active, RunStats& stats) {
  // exec_mask: a guarded emask.defer is what the lowering made of a divergent
  // branch (the lanes it defers go the other way), so it counts as one.
  const bool conditional = r.branch ? r.branch->conditional
                                    : r.outcome.control == Control::MaskDefer && r.instruction &&
                                          r.instruction->has_guard;
  if (!conditional) return;
  ++stats.branches;
  const LaneMask taken = r.outcome.executed;
  if (taken != 0 && taken != active) ++stats.divergent_branches;
}

void WarpIssuer::add_counters(Warp& w, RunStats& stats) {
  if (!w.counters_pending) return;
  w.counters_pending = false;
  const ReconvergenceCounters& rc = w.simt->counters();
  stats.reconvergences += rc.reconvergences;
  stats.early_reconvergences += rc.early_reconvergences;
  stats.table_cycles += rc.table_cycles;
  stats.peak_entries = std::max(stats.peak_entries, rc.peak_entries);
  if (const auto& own = w.simt->own_stats()) {
    uint64_t values[kMaxOwnStats];
    w.simt->own_counters(values);
    stats.add_own(own, values);
  }
}

void WarpIssuer::complete_frames(Warp& w, unsigned frames) const {
  for (unsigned i = 0; i < frames && w.frames.size() > 1; ++i) pop_frame(w);
}

IssueResult WarpIssuer::issue(Warp& w, const Path& p, CtaContext& cta, WarpEnvironment& env,
                              RunStats& stats) const {
  ControlEvent ev;
  IssueResult r = execute_path(w, p, cta, env, ev);
  ++stats.warp_instructions;
  stats.thread_instructions += lane_count(p.mask);
  check_budget(w, cta, p.pc, p.mask, stats);
  count_branch(r, p.mask, stats);
  if (ev.marker) ++stats.marker_instructions;
  if (ev.lowered) ++stats.mask_instructions;
  // The scheme's counters stay in the unit until add_counters() (a diff per
  // issue cost about 2% of a run's instructions).
  unsigned returned = 0;
  try {
    returned = w.simt->advance(p.split, ev);
  } catch (const ControlFault& e) {
    fault(w, cta, p.pc, lowest_lane(p.mask), e.what());
  }
  w.counters_pending = true;
  complete_frames(w, returned);
  r.returned = returned;
  return r;
}

}  // namespace warptlm
