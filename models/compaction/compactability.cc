#include "compaction/compactability.h"

#include <stdexcept>
#include <tuple>

#include "compaction/warp_formation.h"

namespace warptlm {

unsigned activity_bucket(unsigned active_threads, unsigned cta_threads) {
  if (cta_threads == 0 || active_threads > cta_threads)
    throw std::invalid_argument("activity_bucket: active_threads " +
                                std::to_string(active_threads) + " of cta_threads " +
                                std::to_string(cta_threads));
  // 4 * active / cta in integers, so 25% exactly opens bucket 1; a path with
  // every thread (only possible for no branch) joins the last bucket.
  unsigned b = static_cast<unsigned>(uint64_t(active_threads) * kActivityBuckets / cta_threads);
  return b < kActivityBuckets ? b : kActivityBuckets - 1;
}

const char* activity_bucket_name(unsigned bucket) {
  static const char* const names[kActivityBuckets] = {"0-25%", "25-50%", "50-75%", "75-100%"};
  return bucket < kActivityBuckets ? names[bucket] : "?";
}

bool PathKey::operator<(const PathKey& o) const {
  return std::tie(branch_pc, taken, bucket) < std::tie(o.branch_pc, o.taken, o.bucket);
}

void CompactionAnalysis::reset(unsigned warp_size, uint64_t seed) {
  warp_size_ = warp_size;
  names_ = lane_permutation_names();
  perms_.clear();
  for (const std::string& n : names_) perms_.push_back(make_lane_permutation(n, warp_size, seed));
  groups_.clear();
  totals_ = {};
  totals_.nw_tbc.assign(names_.size(), 0);
}

size_t CompactionAnalysis::permutation_index(const std::string& name) const {
  std::string known;
  for (size_t i = 0; i < names_.size(); ++i) {
    if (names_[i] == name) return i;
    known += (known.empty() ? "" : ", ") + names_[i];
  }
  throw std::invalid_argument("permutation: no permutation '" + name + "' in the analysis (" +
                              known + ")");
}

void CompactionAnalysis::measure(const CtaMask& mask, WarpCounts& out) const {
  out.threads = active_threads(mask);
  out.nw_no_compaction = nw_no_compaction(mask);
  out.nw_ideal = (out.threads + warp_size_ - 1) / warp_size_;
  out.nw_tbc.resize(perms_.size());
  for (size_t p = 0; p < perms_.size(); ++p) out.nw_tbc[p] = nw_tbc(mask, *perms_[p]);
}

void CompactionAnalysis::add_instruction(const WarpCounts& c) {
  ++totals_.instructions;
  totals_.threads += c.threads;
  totals_.nw_no_compaction += c.nw_no_compaction;
  totals_.nw_ideal += c.nw_ideal;
  for (size_t p = 0; p < c.nw_tbc.size(); ++p) totals_.nw_tbc[p] += c.nw_tbc[p];
}

void CompactionAnalysis::add_path(Pc branch_pc, Taint taint, bool taken, unsigned cta_threads,
                                  const WarpCounts& c) {
  PathGroup& g = groups_[PathKey{branch_pc, taken, activity_bucket(c.threads, cta_threads)}];
  if (g.paths == 0) {
    g.taint = taint;
    g.nw_tbc.assign(perms_.size(), 0);
    g.tbc_compacted.assign(perms_.size(), 0);
  }
  ++g.paths;
  g.threads += c.threads;
  g.nw_no_compaction += c.nw_no_compaction;
  g.nw_ideal += c.nw_ideal;
  g.ideal_compacted += c.nw_ideal < c.nw_no_compaction ? 1 : 0;
  for (size_t p = 0; p < perms_.size(); ++p) {
    g.nw_tbc[p] += c.nw_tbc[p];
    g.tbc_compacted[p] += c.nw_tbc[p] < c.nw_no_compaction ? 1 : 0;
  }
}

ClassSummary CompactionAnalysis::summary(Taint taint) const {
  ClassSummary s;
  s.tbc_compacted.assign(names_.size(), 0);
  for (unsigned b = 0; b < kActivityBuckets; ++b) {
    ClassSummary part = summary(taint, b);
    s.paths += part.paths;
    s.ideal_compacted += part.ideal_compacted;
    for (size_t p = 0; p < names_.size(); ++p) s.tbc_compacted[p] += part.tbc_compacted[p];
  }
  return s;
}

ClassSummary CompactionAnalysis::summary(Taint taint, unsigned bucket) const {
  if (bucket >= kActivityBuckets)
    throw std::invalid_argument("bucket: must be below " + std::to_string(kActivityBuckets) +
                                ", got " + std::to_string(bucket));
  ClassSummary s;
  s.tbc_compacted.assign(names_.size(), 0);
  for (const auto& [key, g] : groups_) {
    if (g.taint != taint || key.bucket != bucket) continue;
    s.paths += g.paths;
    s.ideal_compacted += g.ideal_compacted;
    for (size_t p = 0; p < names_.size(); ++p) s.tbc_compacted[p] += g.tbc_compacted[p];
  }
  return s;
}

double CompactionAnalysis::compaction_rate(Taint taint, size_t perm) const {
  if (perm >= names_.size())
    throw std::invalid_argument("perm: index " + std::to_string(perm) + " of " +
                                std::to_string(names_.size()) + " permutations");
  ClassSummary s = summary(taint);
  return s.paths == 0 ? 0.0 : double(s.tbc_compacted[perm]) / double(s.paths);
}

double CompactionAnalysis::ideal_compaction_rate(Taint taint) const {
  ClassSummary s = summary(taint);
  return s.paths == 0 ? 0.0 : double(s.ideal_compacted) / double(s.paths);
}

double CompactionAnalysis::utilisation(uint64_t warps) const {
  return warps == 0 ? 0.0 : double(totals_.threads) / (double(warps) * double(warp_size_));
}

double CompactionAnalysis::simd_utilisation_no_compaction() const {
  return utilisation(totals_.nw_no_compaction);
}

double CompactionAnalysis::simd_utilisation_ideal() const { return utilisation(totals_.nw_ideal); }

double CompactionAnalysis::simd_utilisation_tbc(size_t perm) const {
  if (perm >= names_.size())
    throw std::invalid_argument("perm: index " + std::to_string(perm) + " of " +
                                std::to_string(names_.size()) + " permutations");
  return utilisation(totals_.nw_tbc[perm]);
}

}  // namespace warptlm
