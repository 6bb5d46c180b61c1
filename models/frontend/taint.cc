#include "frontend/taint.h"

#include <algorithm>
#include <deque>

#include "frontend/taint_frame.h"

namespace warptlm {
namespace {

// A taint is a mask: bit 0 = D (depends on memory data), bit 1 + i = depends
// on formal parameter i of the function being analysed (formals from 62 on
// share bit 63). Kernel parameters are plain P. A value is D in a function
// once bit 0 or the bit of a formal that some call site passes D is set; the
// formal bits let each call site map a callee's return value back through its
// own arguments.
using Mask = uint64_t;
constexpr Mask kP = 0, kD = 1;
constexpr size_t kLastFormalBit = 63;

Mask formal_bit(size_t i) { return Mask(1) << std::min(i + 1, kLastFormalBit); }

// Raises `dst` to include `bits`; true if it grew.
bool raise(Mask& dst, Mask bits) {
  Mask old = dst;
  dst |= bits;
  return dst != old;
}

class Analysis {
 public:
  Analysis(const Module& m, const std::vector<FunctionCfg>& cfgs)
      : m_(m),
        cfgs_(cfgs),
        slots_(m.functions.size()),
        smashed_(m.functions.size(), kP),
        formal_d_(m.functions.size(), kP),
        sym_(m.symbols.size(), kP),
        formal_of_(m.symbols.size(), -1),
        call_slot_(m.symbols.size(), -1),
        guard_(m.code.size(), kP) {
    ModuleFrameFacts facts = compute_frame_facts(m);
    facts_ = std::move(facts.functions);
    global_escape_ = facts.global_escape;
    foreign_d_.assign(m.functions.size(), false);
    // A function whose address is taken has callers no analysis sees: any of
    // its formals may hold data-dependent values.
    for (uint32_t g : m.address_taken)
      for (size_t i = 0; i < m.functions[g].params.size(); ++i) formal_d_[g] |= formal_bit(i);
    for (uint32_t f = 0; f < m.functions.size(); ++f) {
      callees_.push_back(reachable_callees(f));
      const auto& params = m.functions[f].params;
      for (size_t i = 0; i < params.size(); ++i) formal_of_.at(params[i]) = int32_t(i);
      state_size_.push_back(m.functions[f].regs.size());
      assign_call_slots(f);
    }
  }

  std::vector<Taint> run() {
    // Slot, .param and formal taints only grow, so this terminates.
    for (bool changed = true; changed;) {
      changed = false;
      for (uint32_t f = 0; f < m_.functions.size(); ++f) changed |= run_function(f);
    }
    std::vector<Taint> out(guard_.size(), Taint::Programmatic);
    for (size_t i = 0; i < guard_.size(); ++i)
      if (resolve(m_.code[i].function, guard_[i])) out[i] = Taint::DataDependent;
    return out;
  }

 private:
  // The .param symbols a function's calls pass (args and return values) are
  // tracked flow-sensitively like registers, after them in the state vector:
  // every callseq may reuse the names param0 / retval0.
  void assign_call_slots(uint32_t f) {
    const Function& fn = m_.functions[f];
    for (Pc pc = fn.begin; pc < fn.end; pc += kInstrBytes) {
      const Instruction& in = m_.at(pc);
      if (in.op != Opcode::Call) continue;
      for (const Operand& v : in.ops)
        for (const Operand& e : v.elems)
          if (e.kind == Operand::Kind::Symbol && call_slot_.at(e.symbol) < 0 &&
              m_.symbols[e.symbol].function == static_cast<int32_t>(f))
            call_slot_[e.symbol] = static_cast<int32_t>(state_size_[f]++);
    }
  }

  // f and every function it may call, directly or not.
  std::vector<uint32_t> reachable_callees(uint32_t f) const {
    std::vector<bool> seen(m_.functions.size(), false);
    std::vector<uint32_t> out{f}, work{f};
    seen[f] = true;
    while (!work.empty()) {
      const Function& fn = m_.functions[work.back()];
      work.pop_back();
      auto reach = [&](uint32_t g) {
        if (seen.at(g)) return;
        seen[g] = true;
        out.push_back(g);
        work.push_back(g);
      };
      for (Pc pc = fn.begin; pc < fn.end; pc += kInstrBytes) {
        const Instruction& in = m_.at(pc);
        for (const Operand& op : in.ops)
          if (op.kind == Operand::Kind::Function) reach(op.func);
        // An indirect call may reach any function whose address is taken.
        if (in.op == Opcode::Call && in.ops.size() > 1 && in.ops[1].kind == Operand::Kind::Reg)
          for (uint32_t g : m_.address_taken) reach(g);
      }
    }
    return out;
  }

  // Can data have been written into f's frame through a pointer to it held
  // elsewhere? Only if the frame escaped and a function that may hold the
  // pointer (a callee, or anyone once frame addresses reached memory) stored
  // D through a foreign pointer.
  bool foreign_write(uint32_t f) const {
    if (!facts_[f].escaped) return false;
    if (global_escape_)
      return std::find(foreign_d_.begin(), foreign_d_.end(), true) != foreign_d_.end();
    for (uint32_t g : callees_[f])
      if (foreign_d_[g]) return true;
    return false;
  }

  // The state index of call-site .param symbol `sym` in function f, or -1.
  int32_t slot_of(uint32_t f, uint64_t sym) const {
    return m_.symbols.at(sym).function == static_cast<int32_t>(f) ? call_slot_[sym] : -1;
  }

  // Is a mask of function f data-dependent in at least one calling context?
  bool resolve(uint32_t f, Mask mask) const { return (mask & (kD | formal_d_.at(f))) != 0; }

  // A callee's return mask in the terms of one call site's argument masks.
  static Mask substitute(Mask summary, const std::vector<Mask>& args) {
    Mask out = summary & kD;
    for (size_t i = 0; i < args.size(); ++i)
      if (summary & formal_bit(i)) out |= args[i];
    return out;
  }

  Mask operand_mask(const Operand& op, const std::vector<Mask>& state) const {
    switch (op.kind) {
      case Operand::Kind::Reg:
        return op.reg < state.size() ? state[op.reg] : kP;
      case Operand::Kind::Address:
        return op.has_reg && op.reg < state.size() ? state[op.reg] : kP;
      case Operand::Kind::Special:
        return special_taint(op.sreg) == Taint::DataDependent ? kD : kP;
      case Operand::Kind::Vector: {
        Mask t = kP;
        for (const Operand& e : op.elems) t |= operand_mask(e, state);
        return t;
      }
      default:
        return kP;  // immediates, symbol addresses, labels
    }
  }

  // The .param symbols that an access through an unknown address in f may touch.
  std::vector<uint32_t> param_symbols(uint32_t f) const {
    const Function& fn = m_.functions[f];
    std::vector<uint32_t> out(fn.params.begin(), fn.params.end());
    out.insert(out.end(), fn.rets.begin(), fn.rets.end());
    for (uint32_t s = 0; s < m_.symbols.size(); ++s)
      if (m_.symbols[s].space == Space::Param && m_.symbols[s].function == int32_t(f))
        out.push_back(s);
    return out;
  }

  Mask param_load(uint32_t f, const Operand& addr, const std::vector<Mask>& state) const {
    const Function& fn = m_.functions[f];
    AddressFact a = operand_fact(m_, facts_[f], addr);
    if (a.kind == AddressFact::Param) {
      if (int32_t slot = slot_of(f, a.value); slot >= 0) return state[slot];
      Mask t = sym_[a.value];
      int32_t formal = formal_of_[a.value];
      if (!fn.is_entry && formal >= 0 && fn.params[formal] == a.value) t |= formal_bit(formal);
      return t;
    }
    if (fn.is_entry) return kP;  // some kernel parameter
    Mask t = kP;
    for (size_t i = 0; i < fn.params.size(); ++i) t |= formal_bit(i);
    for (uint32_t s : param_symbols(f)) t |= slot_of(f, s) >= 0 ? state[slot_of(f, s)] : sym_[s];
    return t;
  }

  // The own frame's bytes [from, to) of an access through `a`, if `a` is
  // surely into the frame: one slot, one object (FrameObj), or all of it.
  bool frame_range(uint32_t f, const AddressFact& a, unsigned bytes, int64_t& from,
                   int64_t& to) const {
    const FrameFacts& ff = facts_[f];
    switch (a.kind) {
      case AddressFact::Frame:
        from = a.value, to = a.value + bytes;
        break;
      case AddressFact::FrameObj:
        from = a.value, to = object_end(ff, a.value);
        break;
      case AddressFact::FrameAny:
        from = 0, to = std::max<int64_t>(ff.frame_bytes, 1);
        break;
      default:
        return false;
    }
    return from >= 0 && to <= kMaxFrameBytes;
  }

  Mask frame_load(uint32_t f, int64_t from, int64_t to) const {
    // An escaped frame may have been written through a pointer elsewhere.
    if (foreign_write(f)) return kD;
    Mask t = smashed_[f];
    const auto& slots = slots_[f];
    for (int64_t b = from; b < to && size_t(b) < slots.size(); ++b) t |= slots[b];
    return t;
  }

  Mask load_mask(uint32_t f, const Instruction& in, const std::vector<Mask>& state) const {
    const Operand& addr = in.ops.at(1);
    const Mask base = operand_mask(addr, state);  // a table indexed by a D value is D
    switch (in.space) {
      case Space::Const:
        return base;
      case Space::Param:
        return base | param_load(f, addr, state);
      case Space::Local:
      case Space::Generic: {
        // The value read, and which element was picked (the address).
        int64_t from = 0, to = 0;
        AddressFact a = operand_fact(m_, facts_[f], addr);
        return frame_range(f, a, access_bytes(in), from, to) ? base | frame_load(f, from, to) : kD;
      }
      default:
        return kD;  // global and shared memory hold data
    }
  }

  bool store(uint32_t f, const Instruction& in, const Operand& addr, Mask value,
             std::vector<Mask>& state) {
    AddressFact a = operand_fact(m_, facts_[f], addr);
    if (in.space == Space::Param) {
      if (a.kind == AddressFact::Param && slot_of(f, a.value) >= 0) {
        // A store of the whole symbol replaces its taint; a partial one adds.
        Mask& slot = state[slot_of(f, a.value)];
        bool whole =
            !in.has_guard && addr.offset == 0 && access_bytes(in) >= m_.symbols[a.value].size;
        slot = whole ? value : (slot | value);
        return false;
      }
      if (a.kind == AddressFact::Param) return raise(sym_[a.value], value);
      bool changed = false;
      for (uint32_t s : param_symbols(f)) {
        if (slot_of(f, s) >= 0)
          state[slot_of(f, s)] |= value;
        else
          changed |= raise(sym_[s], value);
      }
      return changed;
    }
    if (value == kP || (in.space != Space::Local && in.space != Space::Generic)) return false;
    int64_t from = 0, to = 0;
    if (a.kind != AddressFact::FrameAny && frame_range(f, a, access_bytes(in), from, to)) {
      auto& slots = slots_[f];
      if (slots.size() < size_t(to)) slots.resize(to, kP);
      bool changed = false;
      for (int64_t b = from; b < to; ++b) changed |= raise(slots[b], value);
      return changed;
    }
    // An unknown own-frame address may hit any slot; a pointer that may lead
    // into another function's frame may hit any escaped frame.
    bool changed = a.may_be_frame() && raise(smashed_[f], value);
    if ((a.kind == AddressFact::Foreign || a.kind == AddressFact::Top) && !foreign_d_[f] &&
        resolve(f, value))
      foreign_d_[f] = changed = true;
    return changed;
  }

  // Arguments flow into the callee's formals (joined over all call sites);
  // return values come back through the callee's summary, per call site.
  bool call(uint32_t f, const Instruction& in, std::vector<Mask>& state) {
    // call: Vector(rets), Function or Reg (indirect), Vector(args).
    if (in.ops.size() < 3) return false;
    const Operand* rets = &in.ops[0];
    const Operand* callee = in.ops[1].kind == Operand::Kind::Function ? &in.ops[1] : nullptr;
    const Operand* args = &in.ops[2];
    bool changed = false;
    auto set_ret = [&](const Operand& r, Mask t) {
      if (r.kind == Operand::Kind::Symbol && slot_of(f, r.symbol) >= 0)
        state[slot_of(f, r.symbol)] = t;
      else if (r.kind == Operand::Kind::Symbol)
        changed |= raise(sym_.at(r.symbol), t);
      if (r.kind == Operand::Kind::Reg && r.reg < state.size()) state[r.reg] = t;
    };
    if (!callee) {  // an indirect call: its results are unknown
      if (rets)
        for (const Operand& r : rets->elems) set_ret(r, kD);
      return changed;
    }
    const uint32_t g = callee->func;
    const Function& fn = m_.functions.at(g);
    std::vector<Mask> arg_masks;
    for (size_t i = 0; args && i < args->elems.size() && i < fn.params.size(); ++i) {
      const Operand& a = args->elems[i];
      Mask t = operand_mask(a, state);
      if (a.kind == Operand::Kind::Symbol)
        t = slot_of(f, a.symbol) >= 0 ? state[slot_of(f, a.symbol)] : sym_.at(a.symbol);
      arg_masks.push_back(t);
      if (resolve(f, t)) changed |= raise(formal_d_[g], formal_bit(i));
    }
    for (size_t j = 0; rets && j < rets->elems.size() && j < fn.rets.size(); ++j)
      set_ret(rets->elems[j], substitute(sym_.at(fn.rets[j]), arg_masks));
    return changed;
  }

  // Transfer of one instruction on `state` (register and call .param masks). Returns true if
  // it raised frame-slot, .param or formal taints.
  bool transfer(uint32_t f, const Instruction& in, std::vector<Mask>& state) {
    const size_t nd = destination_count(in);
    Mask value = kP;
    for (size_t i = nd; i < in.ops.size(); ++i) value |= operand_mask(in.ops[i], state);
    bool changed = false;
    switch (in.op) {
      case Opcode::St:
        return in.ops.size() > 1 && store(f, in, in.ops[0], operand_mask(in.ops[1], state), state);
      case Opcode::Red:
        return !in.ops.empty() && store(f, in, in.ops[0], kD, state);
      case Opcode::Call:
        return call(f, in, state);
      case Opcode::Ld:
        value = load_mask(f, in, state);
        break;
      case Opcode::Atom:  // the old value, racing with other threads
        value = kD;
        changed = in.ops.size() > 1 && store(f, in, in.ops[1], kD, state);
        break;
      case Opcode::Mbarrier:  // tokens and phase tests race with the other threads
        value = kD;
        break;
      default:
        break;
    }
    for (size_t i = 0; i < nd; ++i) write(in.ops[i], value, in.has_guard, state);
    return changed;
  }

  // A guarded write may not happen: the old taint survives (join). The guard
  // itself does not taint: that would be control dependence.
  static void write(const Operand& dst, Mask t, bool guarded, std::vector<Mask>& state) {
    if (dst.kind == Operand::Kind::Reg && dst.reg < state.size())
      state[dst.reg] = guarded ? (state[dst.reg] | t) : t;
    else if (dst.kind == Operand::Kind::Vector)
      for (const Operand& e : dst.elems) write(e, t, guarded, state);
  }

  // Forward, flow-sensitive register taints over f's CFG (join: bitwise or),
  // from scratch; records guard masks. True if shared taints were raised.
  bool run_function(uint32_t f) {
    const FunctionCfg& cfg = cfgs_.at(f);
    const size_t nb = cfg.blocks.size();
    std::vector<std::vector<Mask>> in(nb, std::vector<Mask>(state_size_[f], kP));
    std::vector<bool> queued(nb, true);
    std::deque<uint32_t> work;
    for (uint32_t b = 0; b < nb; ++b) work.push_back(b);  // unreachable blocks too
    bool changed = false;
    while (!work.empty()) {
      const uint32_t b = work.front();
      work.pop_front();
      queued[b] = false;
      std::vector<Mask> state = in[b];
      for (Pc pc = cfg.blocks[b].begin; pc < cfg.blocks[b].end; pc += kInstrBytes) {
        const Instruction& ins = m_.at(pc);
        if (ins.has_guard && ins.guard_reg < state.size())
          guard_[pc / kInstrBytes] = state[ins.guard_reg];
        changed |= transfer(f, ins, state);
      }
      for (uint32_t s : cfg.blocks[b].succs) {
        bool grew = false;
        for (size_t r = 0; r < state.size(); ++r) grew |= raise(in[s][r], state[r]);
        if (grew && !queued[s]) {
          queued[s] = true;
          work.push_back(s);
        }
      }
    }
    return changed;
  }

  const Module& m_;
  const std::vector<FunctionCfg>& cfgs_;
  std::vector<FrameFacts> facts_;               // per function
  std::vector<std::vector<Mask>> slots_;        // per function, per frame byte
  std::vector<Mask> smashed_;                   // per function: stored at unknown frame addresses
  std::vector<bool> foreign_d_;                 // per function: stored D through a foreign pointer
  bool global_escape_ = false;                  // frame addresses were stored to memory
  std::vector<std::vector<uint32_t>> callees_;  // per function: itself and what it may call
  std::vector<Mask> formal_d_;                  // per function: formal bits some caller passes D
  std::vector<Mask> sym_;                       // per symbol: stored into it (.param)
  std::vector<int32_t> formal_of_;              // per symbol: formal index in its function, or -1
  std::vector<int32_t> call_slot_;              // per symbol: its state index if a call passes it
  std::vector<size_t> state_size_;              // per function: registers + call .param slots
  std::vector<Mask> guard_;                     // per instruction: its guard's mask
};

}  // namespace

Taint special_taint(SpecialReg s) {
  switch (s) {
    case SpecialReg::Clock:
    case SpecialReg::Clock64:
    case SpecialReg::GlobalTimer:
    case SpecialReg::GlobalTimerLo:
    case SpecialReg::GlobalTimerHi:
    case SpecialReg::Smid:
    case SpecialReg::Warpid:
      return Taint::DataDependent;
    default:
      return Taint::Programmatic;
  }
}

std::vector<Taint> guard_taints(const Module& module, const std::vector<FunctionCfg>& cfgs) {
  return Analysis(module, cfgs).run();
}

}  // namespace warptlm
