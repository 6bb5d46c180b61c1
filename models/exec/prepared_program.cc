#include "exec/prepared_program.h"

#include <stdexcept>

#include "exec/warp_issuer.h"
#include "reconverge/exec_mask_lowering.h"
#include "reconverge/reconverging_cfg.h"

namespace warptlm {

Program prepare_program(Module module, ProgramForm form) {
  FinalizeOptions options;
  options.insert_reconvergence_markers = form == ProgramForm::Markers;
  Program program = finalize(std::move(module), options);
  if (form != ProgramForm::ExecMask) return program;
  try {
    return finalize(lower_exec_masks(program).module);
  } catch (const CfgError& e) {
    throw CfgError(program.module.source_name +
                   ": compiler-side reconvergence (exec_mask): " + e.what());
  }
}

Program prepare_program(Module module, const std::string& scheme) {
  return prepare_program(std::move(module), reconvergence_program_form(scheme));
}

namespace {

bool lowered(const Program& program) {
  for (const Instruction& in : program.module.code)
    if (in.lowered) return true;
  return false;
}

// The first conditional branch whose reconvergence point is not a marker.
const BranchInfo* unmarked_branch(const Program& program) {
  for (const BranchInfo& b : program.branches)
    if (b.conditional && b.reconv != kExitPc &&
        program.module.at(b.reconv).op != Opcode::Reconverge)
      return &b;
  return nullptr;
}

}  // namespace

ProgramForm program_form(const Program& program) {
  if (lowered(program)) return ProgramForm::ExecMask;
  if (unmarked_branch(program)) return ProgramForm::Plain;
  for (const Instruction& in : program.module.code)
    if (in.op == Opcode::Reconverge) return ProgramForm::Markers;
  return ProgramForm::Plain;
}

void check_program_form(const Program& program, const std::string& scheme) {
  const ProgramForm want = reconvergence_program_form(scheme);
  const std::string how = ": prepare it with prepare_program(module, \"" + scheme + "\")";
  const bool is_lowered = lowered(program);
  if (want == ProgramForm::ExecMask) {
    if (!is_lowered)
      throw std::invalid_argument("reconvergence scheme '" + scheme +
                                  "' runs programs lowered to exec masks, but " +
                                  program.module.source_name + " was not lowered" + how);
    return;
  }
  if (is_lowered)
    throw std::invalid_argument("reconvergence scheme '" + scheme + "' cannot run " +
                                program.module.source_name +
                                ", which was lowered to exec masks for scheme 'exec_mask'" + how);
  if (want != ProgramForm::Markers) return;
  // A scheme that compares paths only at Reconverge markers never reconverges
  // on a program without them (right values, meaningless statistics).
  if (const BranchInfo* b = unmarked_branch(program))
    throw std::invalid_argument("reconvergence scheme '" + scheme +
                                "' needs the finalizer's reconvergence markers, but the program "
                                "has none (the branch at " +
                                hex_string(b->pc) + " reconverges at " + hex_string(b->reconv) +
                                ", which is not a marker)" + how);
}

}  // namespace warptlm
