// The one definition of what every PTX instruction does to the lanes of a
// warp. The functional executor and the timing model both call execute(), so
// they cannot disagree.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "frontend/ir.h"

namespace warptlm {

using LaneMask = uint64_t;  // bit i = lane i; warps are at most 64 lanes wide
constexpr unsigned kMaxWarpSize = 64;

inline LaneMask full_mask(unsigned warp_size) {
  return warp_size >= 64 ? ~LaneMask(0) : ((LaneMask(1) << warp_size) - 1);
}
// The lanes of m below `lane`: those a lane-ordered loop visits before it.
inline LaneMask lanes_below(LaneMask m, unsigned lane) { return m & full_mask(lane); }

// A bad memory access found while executing. The executor turns it into a
// KernelFault naming the kernel, PC, thread and address.
class MemoryFault : public std::runtime_error {
 public:
  enum class Reason { OutOfBounds, Misaligned, ReadOnly };
  MemoryFault(Reason reason, Space space, uint64_t address, unsigned size, unsigned lane,
              const std::string& what)
      : std::runtime_error(what),
        reason(reason),
        space(space),
        address(address),
        size(size),
        lane(lane) {}
  Reason reason;
  Space space;
  uint64_t address;
  unsigned size;
  unsigned lane;
};

// An instruction whose opcode/type/modifier combination (or operand layout)
// the semantics does not implement. what() names the opcode and the source
// text of the instruction; the executor reports it as a KernelFault.
class UnsupportedInstruction : public std::runtime_error {
 public:
  explicit UnsupportedInstruction(const std::string& what) : std::runtime_error(what) {}
};

// An instruction that cannot complete for one lane for a reason other than
// a memory access (a texture handle that names no texture object, a surface
// access outside the surface under .trap): the executor's KernelFault names
// that lane.
class LaneError : public std::runtime_error {
 public:
  LaneError(unsigned lane, const std::string& what) : std::runtime_error(what), lane(lane) {}
  unsigned lane;
};

// What an instruction sees of the world outside its registers. Implemented by
// the functional executor (and later by the timing model's SM).
class WarpEnvironment {
 public:
  virtual ~WarpEnvironment() = default;
  // Address of a variable in its own state space (not generic): a global or
  // const variable's address, a shared variable's offset in the CTA's shared
  // memory, a local variable's offset in the lane's local memory (frame base
  // included), a param's offset in the param buffer / frame. The same for
  // every lane of the warp (a frame starts at one offset in every lane's local
  // memory), so the semantics ask once per instruction.
  virtual uint64_t symbol_address(uint32_t symbol) = 0;
  virtual uint64_t special(SpecialReg sreg, unsigned comp, unsigned lane) = 0;
  // special() for each lane of `lanes`, into out[lane] (the other entries
  // untouched): one call per warp. The default asks lane by lane.
  virtual void special_lanes(SpecialReg sreg, unsigned comp, LaneMask lanes, uint64_t* out);
  // Byte accesses in a state space (Generic is resolved by the environment
  // through address_map). Bounds are checked here; alignment is checked by the
  // semantics before calling. Throw MemoryFault.
  virtual void load(Space space, unsigned lane, uint64_t addr, void* dst, unsigned size) = 0;
  // A read that is not one of the instruction's own accesses (the runtime's
  // printf reading its format string and arguments): checked like load, but
  // not timed.
  virtual void peek(Space space, unsigned lane, uint64_t addr, void* dst, unsigned size) {
    load(space, lane, addr, dst, size);
  }
  virtual void store(Space space, unsigned lane, uint64_t addr, const void* src, unsigned size) = 0;
  // The accesses of one warp instruction in one call: for each lane l of
  // `lanes`, in increasing lane order, load(space, l, addrs[l], data + l * size,
  // size) / store(..., data + l * size, size). The first fault ends it, so the
  // lanes below the faulting one have completed and the others are untouched.
  // The defaults call load/store lane by lane; an environment overrides them to
  // find the memory once for lanes that fall in the same block.
  virtual void load_lanes(Space space, LaneMask lanes, const uint64_t* addrs, uint8_t* data,
                          unsigned size);
  virtual void store_lanes(Space space, LaneMask lanes, const uint64_t* addrs, const uint8_t* data,
                           unsigned size);
  // An atomic read-modify-write per lane: for each lane l of `lanes`, in
  // increasing lane order, the `size` (at most 8) bytes at addrs[l] are read, update(ctx,
  // l, bytes) rewrites them in place, and they are written back. The first
  // fault ends it as in load_lanes. The default is load, update and store lane
  // by lane (what an environment that records each access keeps).
  using LaneUpdate = void (*)(void* ctx, unsigned lane, uint8_t* bytes);
  virtual void update_lanes(Space space, LaneMask lanes, const uint64_t* addrs, unsigned size,
                            LaneUpdate update, void* ctx);
};

// How a register is stored, chosen by its declared type: a 64-bit type in 8
// bytes per lane, every narrower type in 4 bytes per lane, a predicate as one
// LaneMask (bit l = lane l). A register holds its value zero-extended from its
// declared width (predicates 0/1), so storage of at least that width loses
// nothing, and the smaller footprint means fewer host cache misses.
enum class RegKind : uint8_t { Wide, Narrow, Pred };
inline RegKind reg_kind(Type t) {
  if (t == Type::Pred) return RegKind::Pred;
  return type_bits(t) > 32 ? RegKind::Wide : RegKind::Narrow;
}
// Where a register lives: a byte offset in its frame's storage, and how.
struct RegSlot {
  uint32_t offset = 0;
  RegKind kind = RegKind::Wide;
};

// The registers of the warp's current frame (semantics/register_file.h lays
// them out): at data + the register's slot offset, a wide register's lanes
// are uint64_t[warp_size], a narrow one's uint32_t[warp_size], a predicate's
// one LaneMask.
struct WarpRegisters {
  uint8_t* data = nullptr;
  const RegSlot* slots = nullptr;  // per register of the frame's function
  unsigned warp_size = 0;

  uint8_t* at(uint32_t reg) const { return data + slots[reg].offset; }
  uint64_t* wide(uint32_t reg) const { return reinterpret_cast<uint64_t*>(at(reg)); }
  uint32_t* narrow(uint32_t reg) const { return reinterpret_cast<uint32_t*>(at(reg)); }
  LaneMask* pred(uint32_t reg) const { return reinterpret_cast<LaneMask*>(at(reg)); }
  // Lane `lane`'s value, zero-extended to 64 bits.
  uint64_t get(uint32_t reg, unsigned lane) const {
    switch (slots[reg].kind) {
      case RegKind::Wide:
        return wide(reg)[lane];
      case RegKind::Narrow:
        return narrow(reg)[lane];
      default:
        return (*pred(reg) >> lane) & 1;
    }
  }
  // Stores v truncated to the register's storage (the semantics have already
  // truncated it to the declared width).
  void set(uint32_t reg, unsigned lane, uint64_t v) const {
    switch (slots[reg].kind) {
      case RegKind::Wide:
        wide(reg)[lane] = v;
        return;
      case RegKind::Narrow:
        narrow(reg)[lane] = static_cast<uint32_t>(v);
        return;
      default: {
        const LaneMask bit = LaneMask(1) << lane;
        *pred(reg) = (*pred(reg) & ~bit) | ((v & 1) ? bit : 0);
      }
    }
  }
};

// Trap: `trap` executed by some lane; the executor ends the run with a fault.
// MaskDefer, MaskBranchZ, MaskJoin: the exec-mask instructions (Opcode::Emask*),
// target = the mask number (defer, join) or the label (branchz).
enum class Control : uint8_t {
  None,
  Branch,
  Call,
  Ret,
  Exit,
  Barrier,
  Trap,
  MaskDefer,
  MaskBranchZ,
  MaskJoin
};

// What the instruction asks of the SIMT control (the semantics never changes
// PCs itself).
struct Outcome {
  Control control = Control::None;
  LaneMask executed = 0;  // lanes that executed it (active and guard true)
  // Branch: lanes that take it (== executed); the others fall through.
  // Call: lanes that call; Ret/Exit: lanes that return / exit; Trap: lanes
  // that trapped.
  Pc target = 0;               // Branch target / Call: callee entry pc
  uint32_t callee = 0;         // Call: function index
  uint32_t barrier_id = 0;     // Barrier
  uint32_t barrier_count = 0;  // Barrier: expected threads, 0 = whole CTA
  // bar.red: the executed lanes whose predicate holds (the barrier reduces
  // them over the arriving threads and writes every one's destination).
  LaneMask barrier_votes = 0;
  // nanosleep: the longest duration its lanes asked for, in ns, at most
  // PTX's 1 ms (the timing model holds the warp that long; None control).
  uint32_t sleep_ns = 0;
};

// Executes `inst` on the lanes of `active` whose guard predicate holds
// (executed = active & (pred != guard_negated)); other lanes are untouched.
// Lanes are processed in increasing lane order, so memory accesses and
// atomics are deterministic. A barrier that no lane executes reports
// Control::None (the warp does not arrive). Throws UnsupportedInstruction for
// an opcode/type/modifier combination it does not implement and MemoryFault
// for a misaligned access (or whatever the environment throws).
Outcome execute(const Module& module, const Instruction& inst, const WarpRegisters& regs,
                LaneMask active, WarpEnvironment& env);

// Whether execute() of an instruction with opcode `op` may report a control
// effect (Outcome::control other than None, or a barrier's fields); every
// other opcode's outcome is only its executed lanes. The executors issue runs
// of the others without consulting the reconvergence scheme.
bool reports_control(Opcode op);

}  // namespace warptlm
