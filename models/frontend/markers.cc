#include "frontend/markers.h"

#include <algorithm>
#include <stdexcept>

namespace warptlm {
namespace {

// Maps old PCs to new ones given the sorted, distinct marker positions.
class Renumbering {
 public:
  explicit Renumbering(std::vector<Pc> at) : at_(std::move(at)) {}

  // Where the old instruction at `pc` lands, or where a jump to `pc` lands
  // (the marker in front of it if there is one). Also valid for a function
  // end, which then is the next function's (possibly marker) begin.
  Pc target(Pc pc) const { return pc + kInstrBytes * markers_before(pc); }
  Pc instruction(Pc pc) const { return target(pc) + (has_marker(pc) ? kInstrBytes : 0); }
  bool has_marker(Pc pc) const { return std::binary_search(at_.begin(), at_.end(), pc); }

 private:
  Pc markers_before(Pc pc) const {
    return static_cast<Pc>(std::lower_bound(at_.begin(), at_.end(), pc) - at_.begin());
  }
  std::vector<Pc> at_;
};

void retarget(Operand& op, const Renumbering& map) {
  if (op.kind == Operand::Kind::Label) op.target = map.target(op.target);
  for (Operand& e : op.elems) retarget(e, map);
}

Instruction make_marker(const Instruction& before, Pc pc) {
  Instruction m;
  m.op = Opcode::Reconverge;
  m.pc = pc;
  m.function = before.function;
  m.loc = before.loc;
  m.text = "reconverge";
  return m;
}

}  // namespace

Module insert_markers(const Module& module, std::vector<Pc> at) {
  std::sort(at.begin(), at.end());
  at.erase(std::unique(at.begin(), at.end()), at.end());
  for (Pc pc : at)
    if (pc % kInstrBytes != 0 || pc / kInstrBytes >= module.code.size())
      throw std::invalid_argument("reconvergence marker at pc " + std::to_string(pc) +
                                  " is not an instruction");
  Renumbering map(at);

  Module out = module;
  out.code.clear();
  out.code.reserve(module.code.size() + at.size());
  for (const Instruction& old : module.code) {
    if (map.has_marker(old.pc)) out.code.push_back(make_marker(old, map.target(old.pc)));
    Instruction in = old;
    in.pc = map.instruction(old.pc);
    for (Operand& op : in.ops) retarget(op, map);
    out.code.push_back(std::move(in));
  }
  for (Function& fn : out.functions) {
    fn.begin = map.target(fn.begin);
    fn.end = map.target(fn.end);
    for (auto& [name, pc] : fn.labels) pc = map.target(pc);
  }
  return out;
}

}  // namespace warptlm
