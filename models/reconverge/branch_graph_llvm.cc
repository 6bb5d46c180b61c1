#include "reconverge/branch_graph_llvm.h"

#include <cctype>
#include <sstream>
#include <vector>

namespace warptlm {

namespace {

// A name LLVM takes without quotes: letters, digits, '_' and '.' kept, the
// rest made '_'.
std::string llvm_identifier(const std::string& name) {
  std::string out;
  for (char c : name)
    out += std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' ? c : '_';
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0]))) out = "f" + out;
  return out;
}

}  // namespace

std::string branch_graph_llvm_ir(const BranchGraph& graph, const std::string& function_name) {
  check_branch_graph(graph);
  const std::vector<bool> live = reachable_blocks(graph);
  std::ostringstream ir;
  ir << "; " << function_name << ": a warptlm BranchGraph for LLVM's structurizer\n"
     << "target triple = \"amdgcn-amd-amdhsa\"\n\n"
     << "declare i32 @llvm.amdgcn.workitem.id.x()\n"
     << "declare void @block(i32)\n\n"
     << "define amdgpu_kernel void @" << llvm_identifier(function_name) << "(i32 %uniform) {\n"
     << "entry:\n"
     << "  %lane = call i32 @llvm.amdgcn.workitem.id.x()\n"
     << "  br label %b" << graph.entry << "\n";
  for (uint32_t b = 0; b < graph.blocks.size(); ++b) {
    if (!live[b]) continue;
    const BranchGraph::Block& blk = graph.blocks[b];
    ir << "\nb" << b << ":  ; " << graph.block_name(b) << "\n"
       << "  call void @block(i32 " << b << ")\n";
    if (blk.succ.empty()) {
      ir << "  ret void\n";
    } else if (blk.succ.size() == 1) {
      ir << "  br label %b" << blk.succ[0] << "\n";
    } else {
      ir << "  %c" << b << " = icmp ult i32 " << (blk.divergent ? "%lane" : "%uniform") << ", " << b
         << "\n"
         << "  br i1 %c" << b << ", label %b" << blk.succ[0] << ", label %b" << blk.succ[1] << "\n";
    }
  }
  ir << "}\n";
  return ir.str();
}

size_t llvm_ir_block_count(const std::string& ir) {
  // A label starts a line: an identifier (or a quoted name) followed by ':'.
  size_t count = 0;
  std::istringstream in(ir);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || std::isspace(static_cast<unsigned char>(line[0])) || line[0] == ';')
      continue;
    size_t i = 0;
    if (line[0] == '"') {
      i = line.find('"', 1);
      if (i == std::string::npos) continue;
      ++i;
    } else {
      while (i < line.size() &&
             (std::isalnum(static_cast<unsigned char>(line[i])) || line[i] == '_' ||
              line[i] == '.' || line[i] == '$' || line[i] == '-'))
        ++i;
    }
    if (i > 0 && i < line.size() && line[i] == ':') ++count;
  }
  return count;
}

}  // namespace warptlm
