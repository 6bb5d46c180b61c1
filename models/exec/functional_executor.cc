#include "exec/functional_executor.h"

#include <algorithm>
#include <bitset>
#include <cstring>
#include <sstream>

#include "exec/cta_memory.h"
#include "exec/kernel_args.h"
#include "exec/warp.h"
#include "exec/warp_environment.h"

namespace warptlm {
namespace {

// Per-thread local memory may grow to this many bytes (CUDA's own limit), so
// runaway recursion ends in a fault rather than exhausting the host.
constexpr uint64_t kLocalLimit = 512 * 1024;

std::string hex(uint64_t v) {
  std::ostringstream os;
  os << "0x" << std::hex << v;
  return os.str();
}

std::string dim(const Dim3& d) {
  return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
}

unsigned popcount(LaneMask m) { return static_cast<unsigned>(std::bitset<64>(m).count()); }

unsigned lowest_lane(LaneMask m) {
  unsigned l = 0;
  while (m && !(m & 1)) m >>= 1, ++l;
  return l;
}

class GridRunner {
 public:
  GridRunner(const Program& program, const Function& kernel, KernelMemory& mem,
             const LaunchSpec& launch, const ExecConfig& config, TraceSink* trace)
      : program_(program),
        module_(program.module),
        kernel_(kernel),
        mem_(mem),
        launch_(launch),
        config_(config),
        trace_(trace) {}

  RunStats run() {
    stats_.warp_size = config_.warp_size;
    const Dim3& g = launch_.grid;
    for (uint32_t z = 0; z < g.z; ++z)
      for (uint32_t y = 0; y < g.y; ++y)
        for (uint32_t x = 0; x < g.x; ++x) run_cta({x, y, z});
    return stats_;
  }

 private:
  void run_cta(const Dim3& ctaid);
  void step(Warp& w);
  void push_frame(Warp& w, uint32_t function, Pc call_pc, LaneMask lanes);
  void pop_frame(Warp& w);
  void arrive(Warp& w, const Outcome& o, Pc pc);
  [[noreturn]] void fault(const Warp& w, Pc pc, unsigned lane, const std::string& what,
                          const MemoryFault* memory = nullptr) const;

  const Program& program_;
  const Module& module_;
  const Function& kernel_;
  KernelMemory& mem_;
  const LaunchSpec& launch_;
  const ExecConfig& config_;
  TraceSink* trace_;
  uint32_t warp_base_ = 0;  // global id of the current CTA's warp 0, for the trace
  RunStats stats_;
  CtaContext cta_;
  std::vector<Warp> warps_;
  std::vector<uint64_t> barrier_arrived_;
  std::vector<Path> paths_;
};

void GridRunner::fault(const Warp& w, Pc pc, unsigned lane, const std::string& what,
                       const MemoryFault* memory) const {
  FaultSite site;
  site.kernel = kernel_.name;
  site.pc = pc;
  if (lane < w.tid.size()) {
    site.has_thread = true;
    site.tid = w.tid[lane];
    site.ctaid = cta_.ctaid;
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
    os << "PC " << hex(pc) << " (" << module_.source_name << ":" << in.loc.line << ": `" << in.text
       << "`)";
  } else {
    os << "PC " << hex(pc);
  }
  if (lane < w.tid.size())
    os << ", thread " << dim(w.tid[lane]) << " of CTA " << dim(cta_.ctaid) << " (warp " << w.index
       << ", lane " << lane << ")";
  os << ": " << what;
  throw KernelFault(os.str(), std::move(site));
}

void GridRunner::push_frame(Warp& w, uint32_t function, Pc call_pc, LaneMask lanes) {
  const Function& f = module_.functions[function];
  Frame fr;
  fr.function = function;
  fr.regs.assign(f.regs.size() * w.size, 0);
  fr.param_frame_size = f.param_frame_size;
  fr.params.assign(f.param_frame_size * w.size, 0);
  fr.call_pc = call_pc;
  if (!w.frames.empty()) {
    const Frame& caller = w.frames.back();
    uint64_t end = caller.local_base + module_.functions[caller.function].local_size;
    fr.local_base = (end + 15) / 16 * 16;
  }
  uint64_t need = fr.local_base + f.local_size;
  if (need > kLocalLimit)
    fault(w, call_pc, lowest_lane(lanes),
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

void GridRunner::pop_frame(Warp& w) {
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

void GridRunner::arrive(Warp& w, const Outcome& o, Pc pc) {
  uint32_t id = o.barrier_id;
  if (id >= 16)
    fault(w, pc, lowest_lane(o.executed),
          "barrier id " + std::to_string(id) + " out of range 0..15");
  if (barrier_arrived_.size() <= id) barrier_arrived_.resize(id + 1, 0);
  if (w.barrier_lanes && w.barrier_id != id)
    fault(w, pc, lowest_lane(o.executed),
          "lanes of one warp wait at barriers " + std::to_string(w.barrier_id) + " and " +
              std::to_string(id) + " at once");
  // Per-thread barriers: the warp stops in step() when its next path would run
  // a waiting lane; until then its other lanes may still arrive.
  w.barrier_lanes |= o.executed;
  if (!w.simt->per_thread_barriers()) w.at_barrier = true;
  w.barrier_id = id;
  w.barrier_pc = pc;
  barrier_arrived_[id] += popcount(o.executed);
  uint64_t expected = o.barrier_count ? o.barrier_count : launch_.block.count();
  if (barrier_arrived_[id] < expected) return;
  barrier_arrived_[id] = 0;
  for (Warp& other : warps_)
    if (other.barrier_lanes && other.barrier_id == id) {
      other.barrier_lanes = 0;
      other.at_barrier = false;
    }
}

void GridRunner::step(Warp& w) {
  paths_.clear();
  w.simt->issuable(paths_);
  // The functional executor issues the scheme's first issuable path: a scheme
  // lists its paths in the order it prefers them (the timing model's
  // schedulers may pick others).
  const Path p = paths_.front();
  if (p.mask & w.barrier_lanes) {
    w.at_barrier = true;  // released when the barrier completes
    return;
  }
  const Frame& frame = w.frames.back();
  const Function& fn = module_.functions[frame.function];
  if (p.pc < fn.begin || p.pc >= fn.end) {
    if (p.pc == fn.end || p.pc / kInstrBytes >= module_.code.size())
      fault(w, p.pc, lowest_lane(p.mask),
            "control reached PC " + hex(p.pc) + " past the end of function '" + fn.name +
                "' (fell off its end without ret/exit?)");
    // Frames are per warp: a scheme that interleaves paths living in different
    // call frames needs per-path frames, which the executor does not have yet.
    fault(w, p.pc, lowest_lane(p.mask),
          "reconvergence scheme '" + config_.reconvergence + "' issued a path in function '" +
              module_.function_at(p.pc).name + "' while the warp's current call frame is '" +
              fn.name +
              "': interleaving paths across device-function calls is not supported by the "
              "functional executor yet");
  }
  const Instruction& in = module_.at(p.pc);

  FunctionalWarpEnvironment env(module_, mem_, cta_);
  env.bind(&w);
  Outcome o;
  try {
    o = execute(module_, in, WarpRegisters{w.frames.back().regs.data(), w.size}, p.mask, env);
  } catch (const MemoryFault& mf) {
    fault(w, p.pc, mf.lane,
          std::string(mf.reason == MemoryFault::Reason::Misaligned ? "misaligned " : "") +
              "memory fault: " + mf.what(),
          &mf);
  } catch (const std::runtime_error& e) {
    fault(w, p.pc, lowest_lane(p.mask), e.what());
  }
  // `trap` aborts the whole kernel, as on the device (cudaErrorLaunchFailure).
  if (o.control == Control::Trap) fault(w, p.pc, lowest_lane(o.executed), "trap executed");
  if (trace_)
    trace_->issued(
        TraceRecord{stats_.warp_instructions, 0, warp_base_ + w.index, p.split, p.pc, p.mask});
  ++stats_.warp_instructions;
  stats_.thread_instructions += popcount(p.mask);
  ++w.issued;
  if (stats_.warp_instructions > config_.instruction_budget)
    fault(w, p.pc, lowest_lane(p.mask),
          "runaway kernel: more than " + std::to_string(config_.instruction_budget) +
              " warp instructions (ExecConfig::instruction_budget); an infinite loop or a "
              "livelocked spin?");

  ControlEvent ev;
  ev.kind = o.control;
  ev.active = p.mask;
  ev.executed = o.executed;
  ev.next = p.pc + kInstrBytes;
  ev.target = o.target;
  ev.marker = in.op == Opcode::Reconverge;
  switch (o.control) {
    case Control::Branch: {
      const BranchInfo* bi = program_.branch_at(p.pc);
      ev.reconv = bi ? bi->reconv : kExitPc;
      if (bi && bi->conditional) {
        ++stats_.branches;
        if (o.executed != 0 && o.executed != p.mask) ++stats_.divergent_branches;
      }
      break;
    }
    case Control::Call:
      if (o.executed) push_frame(w, o.callee, p.pc, o.executed);
      break;
    case Control::Ret:
      if (w.frames.size() == 1) ev.kind = Control::Exit;  // ret from the kernel itself
      break;
    default:
      break;
  }
  if (ev.kind == Control::Exit) w.exited |= o.executed;
  unsigned returned = w.simt->advance(p.split, ev);
  for (unsigned i = 0; i < returned && w.frames.size() > 1; ++i) pop_frame(w);
  if (o.control == Control::Barrier && o.executed) arrive(w, o, p.pc);
}

void GridRunner::run_cta(const Dim3& ctaid) {
  const unsigned ws = config_.warp_size;
  const Dim3& b = launch_.block;
  const uint64_t threads = b.count();
  cta_.ctaid = ctaid;
  cta_.ntid = b;
  cta_.nctaid = launch_.grid;
  cta_.warps = static_cast<unsigned>((threads + ws - 1) / ws);
  const Dim3& g = launch_.grid;
  warp_base_ = static_cast<uint32_t>(
      (ctaid.x + uint64_t(ctaid.y) * g.x + uint64_t(ctaid.z) * g.x * g.y) * cta_.warps);
  cta_.shared.assign(module_.shared_static_size + launch_.shared_bytes, 0);
  barrier_arrived_.assign(1, 0);
  warps_.clear();
  warps_.resize(cta_.warps);
  for (unsigned wi = 0; wi < cta_.warps; ++wi) {
    Warp& w = warps_[wi];
    w.index = wi;
    w.size = ws;
    w.tid.assign(ws, Dim3{0, 0, 0});
    w.local.assign(ws, {});
    for (unsigned l = 0; l < ws; ++l) {
      uint64_t t = uint64_t(wi) * ws + l;
      if (t >= threads) break;
      w.valid |= LaneMask(1) << l;
      w.tid[l] = Dim3{static_cast<uint32_t>(t % b.x), static_cast<uint32_t>((t / b.x) % b.y),
                      static_cast<uint32_t>(t / (uint64_t(b.x) * b.y))};
    }
    w.simt = make_reconvergence_unit(config_.reconvergence, ws);
    push_frame(w, static_cast<uint32_t>(&kernel_ - module_.functions.data()), 0, w.valid);
    w.simt->reset(kernel_.begin, w.valid);
  }
  ++stats_.ctas;
  stats_.warps += cta_.warps;

  for (;;) {
    bool progress = false, all_done = true;
    for (Warp& w : warps_) {
      if (w.finished()) continue;
      all_done = false;
      for (unsigned q = 0; q < config_.quantum && !w.at_barrier && !w.finished(); ++q) {
        step(w);
        progress = true;
      }
    }
    if (all_done) return;
    if (!progress) {
      // Every live warp waits at a barrier that cannot complete.
      uint64_t exited = 0;
      for (const Warp& w : warps_) exited += popcount(w.exited);
      const Warp* first = nullptr;
      std::string waiting;
      for (const Warp& w : warps_) {
        if (!w.at_barrier) continue;
        if (!first) first = &w;
        waiting += (waiting.empty() ? "" : ", ") + std::string("warp ") + std::to_string(w.index) +
                   " at barrier " + std::to_string(w.barrier_id) + " (PC " + hex(w.barrier_pc) +
                   ")";
      }
      fault(*first, first->barrier_pc, lowest_lane(first->valid),
            "barrier deadlock: it can never complete (" + waiting + "; " + std::to_string(exited) +
                " of the CTA's " + std::to_string(threads) +
                " threads have exited; threads of one warp may also wait on another path)");
    }
  }
}

// A scheme that compares paths only at Reconverge markers never reconverges on
// a program finalized without them (right values, meaningless statistics).
void check_markers(const Program& program, const ExecConfig& config) {
  for (const BranchInfo& b : program.branches) {
    if (!b.conditional || b.reconv == kExitPc ||
        program.module.at(b.reconv).op == Opcode::Reconverge)
      continue;
    throw std::invalid_argument(
        "reconvergence scheme '" + config.reconvergence +
        "' needs the finalizer's reconvergence markers, but the program has none (the branch at " +
        hex(b.pc) + " reconverges at " + hex(b.reconv) +
        ", which is not a marker): finalize with FinalizeOptions::insert_reconvergence_markers "
        "when reconvergence_needs_markers() says so");
  }
}

}  // namespace

void ExecConfig::validate() const {
  if (warp_size < 4 || warp_size > 64 || (warp_size & (warp_size - 1)) != 0)
    throw std::invalid_argument("warp_size: must be a power of two from 4 to 64, got " +
                                std::to_string(warp_size));
  if (instruction_budget == 0) throw std::invalid_argument("instruction_budget: must be positive");
  if (quantum == 0) throw std::invalid_argument("quantum: must be positive");
  make_reconvergence_unit(reconvergence, warp_size);  // throws listing the known schemes
}

RunStats run_functional(const Program& program, const std::string& entry, LaunchSpec& launch,
                        const ExecConfig& config, TraceSink* trace) {
  config.validate();
  const Module& module = program.module;
  const Function* kernel = module.find_function(entry);
  if (!kernel || !kernel->is_entry) {
    std::string known;
    for (const auto& f : module.functions)
      if (f.is_entry) known += (known.empty() ? "" : ", ") + f.name;
    throw std::invalid_argument("launch: no kernel named '" + entry + "' in " + module.source_name +
                                " (kernels: " + known + ")");
  }
  check_launch(module, *kernel, launch, config.warp_size);
  if (reconvergence_needs_markers(config.reconvergence)) check_markers(program, config);

  KernelMemory mem;
  if (module.global_data_size) {
    mem.globals_base = mem.global.allocate(module.global_data_size, "module .global variables");
  }
  mem.constants.assign(module.const_data_size, 0);
  for (const Symbol& s : module.symbols) {
    if (s.init.empty()) continue;
    if (s.space == Space::Global)
      mem.global.write(mem.globals_base + s.offset, s.init.data(), s.init.size());
    else if (s.space == Space::Const)
      std::memcpy(mem.constants.data() + s.offset, s.init.data(), s.init.size());
  }
  std::vector<uint64_t> addresses;
  for (const HostBuffer& b : launch.buffers) {
    uint64_t a = mem.global.allocate(b.bytes.size(), b.name);
    mem.global.write(a, b.bytes.data(), b.bytes.size());
    addresses.push_back(a);
  }
  mem.params = build_param_buffer(module, *kernel, launch, addresses);

  GridRunner runner(program, *kernel, mem, launch, config, trace);
  RunStats stats = runner.run();
  for (size_t i = 0; i < launch.buffers.size(); ++i)
    mem.global.read(addresses[i], launch.buffers[i].bytes.data(), launch.buffers[i].bytes.size());
  return stats;
}

}  // namespace warptlm
