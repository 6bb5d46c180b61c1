#include <cstdio>
#include <fstream>
#include <stdexcept>

#include "commands.h"

namespace warptlm::cli {

void print_stats(const RunStats& s, double seconds) {
  std::printf("  %-22s %llu x %u-lane warps in %llu CTAs\n", "warps",
              static_cast<unsigned long long>(s.warps), s.warp_size,
              static_cast<unsigned long long>(s.ctas));
  std::printf("  %-22s %llu\n", "warp instructions",
              static_cast<unsigned long long>(s.warp_instructions));
  std::printf("  %-22s %llu\n", "thread instructions",
              static_cast<unsigned long long>(s.thread_instructions));
  std::printf("  %-22s %llu (%llu divergent)\n", "conditional branches",
              static_cast<unsigned long long>(s.branches),
              static_cast<unsigned long long>(s.divergent_branches));
  std::printf("  %-22s %llu (%llu earlier than the IPDOM)\n", "reconvergences",
              static_cast<unsigned long long>(s.reconvergences),
              static_cast<unsigned long long>(s.early_reconvergences));
  std::printf("  %-22s mean %.2f, max %u; peak table entries %u\n", "issuable paths",
              s.mean_issuable_paths(), s.max_issuable_paths, s.peak_entries);
  std::printf("  %-22s %.2f%%\n", "SIMD utilisation", 100.0 * s.simd_utilisation());
  std::printf("  %-22s %.3f s (%.1f M thread instructions/s)\n", "wall time", seconds,
              seconds > 0 ? s.thread_instructions / seconds / 1e6 : 0.0);
}

void write_stats(const std::string& path, const nlohmann::json& stats) {
  if (path.empty()) return;
  std::ofstream out(path);
  out << stats.dump(2) << "\n";
  if (!out) throw std::runtime_error(path + ": cannot write statistics");
}

}  // namespace warptlm::cli
