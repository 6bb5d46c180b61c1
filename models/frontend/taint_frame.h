// Address facts for the taint analysis: which registers hold an address into
// the function's own local frame (the -O0 depot, %SP / %SPL) at a statically
// known byte offset, so that spills through local memory keep their taint per
// slot, and which frames escape (their address is passed or stored away).
#pragma once

#include <cstdint>
#include <vector>

#include "frontend/ir.h"

namespace warptlm {

// What a value may be as an address, joined over all its definitions
// (flow-insensitive). Into the function's own frame: Frame (exactly byte
// `value`), FrameObj (somewhere in the object that starts at byte `value`:
// the base plus a run-time index) and FrameAny (anywhere in it). Param:
// somewhere in .param symbol `value`. Const: the integer `value`. Other: not
// into any frame. Foreign: possibly into another function's frame (a .func
// formal, a call result, memory once frame addresses escaped to it). Top:
// anything. Order: Bottom < Const < Other < Foreign < Top;
// Bottom < Frame(c) < FrameObj(c) < FrameAny < Top; Bottom < Param(s) < Top.
struct AddressFact {
  enum Kind : uint8_t { Bottom, Const, Other, Foreign, Frame, FrameObj, FrameAny, Param, Top };
  Kind kind = Bottom;
  int64_t value = 0;

  bool operator==(const AddressFact& o) const { return kind == o.kind && value == o.value; }
  // Surely into the own frame?
  bool in_frame() const { return kind == Frame || kind == FrameObj || kind == FrameAny; }
  // May it point into the own frame (or be a .param address, for escapes)?
  bool may_be_frame() const { return in_frame() || kind == Top || kind == Param; }
};

struct FrameFacts {
  std::vector<AddressFact> regs;   // per register of the function
  std::vector<AddressFact> slots;  // per frame byte: what the stores there may be
  AddressFact smashed;             // stored at unknown own-frame addresses
  bool escaped = false;            // a frame address was passed to a call or stored away
  // Frame offsets accessed exactly or used as the base of an indexed access,
  // sorted: an object starting at one ends at the next (see object_end).
  std::vector<int64_t> bases;
  int64_t frame_bytes = 0;  // the function's .local size, or more if accessed beyond
};

struct ModuleFrameFacts {
  std::vector<FrameFacts> functions;
  // Some frame address was stored to non-frame memory: loads from memory may
  // return frame addresses.
  bool global_escape = false;
};

// Frame offsets past this are treated as unknown frame addresses.
constexpr int64_t kMaxFrameBytes = int64_t(1) << 20;

// Bytes an ld / st moves (type size times vector width).
unsigned access_bytes(const Instruction& in);

// End (exclusive) of the frame object starting at byte `base`: the next
// base above it, else the frame's end. An indexed access through
// FrameObj(base) is assumed to stay inside it.
int64_t object_end(const FrameFacts& facts, int64_t base);

// Facts of every function, iterated to a fixed point.
ModuleFrameFacts compute_frame_facts(const Module& module);

// The fact of an operand's value (a Reg, Imm or Symbol) or, for an Address
// operand, of the address it names (base + offset).
AddressFact operand_fact(const Module& module, const FrameFacts& facts, const Operand& op);

}  // namespace warptlm
