#include "sm/scoreboard/register_operands.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <string>

namespace warptlm {

namespace {

// Gathers the reads and the writes in two lists; pack() writes them into
// the row, reads first.
class Collector {
 public:
  explicit Collector(const Instruction& in) : in_(in) {}

  void read(const Operand& op) {
    switch (op.kind) {
      case Operand::Kind::Reg:
        add(reads_, n_reads_, op.reg, "reads");
        break;
      case Operand::Kind::Address:
        if (op.has_reg) add(reads_, n_reads_, op.reg, "reads");
        break;
      case Operand::Kind::Vector:
        for (const Operand& e : op.elems) read(e);
        break;
      default:  // immediates, specials, symbols, labels, functions, sinks
        break;
    }
  }

  void write(const Operand& op) {
    if (op.kind == Operand::Kind::Reg) {
      add(writes_, n_writes_, op.reg, "writes");
    } else if (op.kind == Operand::Kind::Vector) {
      for (const Operand& e : op.elems) write(e);
    }
    // Sink `_` and an absent optional destination write nothing.
  }

  void guard(uint32_t reg) { add(reads_, n_reads_, reg, "reads"); }

  RegisterOperands pack() const {
    RegisterOperands out;
    out.frame_change = in_.op == Opcode::Call || in_.op == Opcode::Ret;
    out.beyond_sm = reaches_beyond_sm(in_);
    out.n_reads = n_reads_;
    out.n_writes = n_writes_;
    std::copy(reads_, reads_ + n_reads_, out.regs);
    std::copy(writes_, writes_ + n_writes_, out.regs + n_reads_);
    return out;
  }

 private:
  void add(uint32_t* list, uint8_t& n, uint32_t reg, const char* what) {
    for (unsigned i = 0; i < n; ++i)
      if (list[i] == reg) return;
    if (n == RegisterOperands::kMax)
      throw std::invalid_argument("instruction: '" + in_.text + "' has more than " +
                                  std::to_string(RegisterOperands::kMax) + " register " + what);
    list[n++] = reg;
  }

  const Instruction& in_;
  uint32_t reads_[RegisterOperands::kMax] = {};
  uint32_t writes_[RegisterOperands::kMax] = {};
  uint8_t n_reads_ = 0;
  uint8_t n_writes_ = 0;
};

}  // namespace

bool reaches_beyond_sm(const Instruction& in) {
  switch (in.op) {
    case Opcode::Ld:
    case Opcode::St:
    case Opcode::Atom:
    case Opcode::Red:
    case Opcode::WmmaLoad:
    case Opcode::WmmaStore:
    case Opcode::Ldmatrix:
    case Opcode::Mbarrier:
      return in.space == Space::Global || in.space == Space::Generic;
    case Opcode::CpAsync:  // reads global memory
    case Opcode::Tex:      // descriptors and texels live in global memory
    case Opcode::Tld4:
    case Opcode::Txq:
    case Opcode::Suld:
    case Opcode::Sust:
    case Opcode::Suq:
    case Opcode::Call:
      return true;
    default:
      return false;
  }
}

RegisterOperands register_operands(const Instruction& in) {
  Collector c(in);
  if (in.has_guard) c.guard(in.guard_reg);
  const size_t dests = destination_count(in);
  for (size_t i = 0; i < in.ops.size(); ++i) {
    if (i < dests)
      c.write(in.ops[i]);
    else
      c.read(in.ops[i]);
  }
  return c.pack();
}

OperandTable::OperandTable(const Module& module) {
  table_.reserve(module.code.size());
  for (const Instruction& in : module.code) table_.push_back(register_operands(in));
}

void OperandTable::bad_pc(Pc pc) const {
  std::ostringstream s;
  s << "pc: no instruction at 0x" << std::hex << pc << " (the module has " << std::dec
    << table_.size() << " instructions of " << kInstrBytes << " bytes)";
  throw std::invalid_argument(s.str());
}

}  // namespace warptlm
