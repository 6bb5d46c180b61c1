// Tag array lookups scan the set's ways, or, in caches of 16 ways or more,
// go through a hash index of the valid lines (the fermi L2 is 64-way: its
// scan cost more than the rest of the lookup). LRU is by use stamps; only a
// miss that fills scans its set for the victim.
#include "cache/cache_tags.h"

#include <stdexcept>

namespace warptlm {
namespace {

bool is_pow2(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

unsigned log2_exact(uint64_t v) {
  unsigned n = 0;
  while ((uint64_t(1) << n) < v) ++n;
  return n;
}

}  // namespace

CacheTags::CacheTags(uint64_t size, unsigned assoc, unsigned line, SetIndex index)
    : assoc_(assoc),
      line_(line),
      index_(index),
      indexed_(assoc >= kIndexedAssoc),
      index_of_(indexed_ && line && size / (uint64_t(assoc) * line) ? size / line : 1) {
  if (!is_pow2(line)) throw std::invalid_argument("line: must be a power of two bytes");
  if (assoc == 0) throw std::invalid_argument("assoc: must be at least 1");
  const uint64_t set_bytes = uint64_t(assoc) * line;
  if (size == 0 || size % set_bytes != 0 || !is_pow2(size / set_bytes)) {
    throw std::invalid_argument("size: size / (assoc * line) must be a power-of-two set count");
  }
  sets_ = size / set_bytes;
  line_shift_ = log2_exact(line);
  set_bits_ = log2_exact(sets_);
  ways_.assign(sets_ * assoc_, Way{});
}

bool CacheTags::probe(uint64_t line_addr) const {
  return find(line_addr >> line_shift_) != nullptr;
}

bool CacheTags::access(uint64_t line_addr) {
  Way* way = find(line_addr >> line_shift_);
  if (way == nullptr) return false;
  way->stamp = restamp(*way);
  return true;
}

CacheTags::Victim CacheTags::fill(uint64_t line_addr, bool dirty) {
  const uint64_t line_no = line_addr >> line_shift_;
  Victim victim;
  if (Way* way = find(line_no)) {
    way->stamp = restamp(*way) | uint64_t(dirty);
    return victim;
  }
  // An invalid way if there is one (lowest index), else the least recently
  // used: invalid ways have the smallest stamp, 0, so the first minimum is it.
  Way* set = set_of(line_no);
  Way* slot = &set[0];
  for (unsigned w = 1; w < assoc_ && slot->stamp != 0; ++w) {
    if (set[w].stamp < slot->stamp) slot = &set[w];
  }
  if (slot->valid()) {
    victim.valid = true;
    victim.line_addr = slot->line_no << line_shift_;
    victim.dirty = slot->dirty();
    if (indexed_) index_of_.erase(slot->line_no);
  }
  if (indexed_) index_of_.insert(line_no, static_cast<uint32_t>(slot - ways_.data()));
  slot->line_no = line_no;
  slot->stamp = (++clock_ << 1) | uint64_t(dirty);
  return victim;
}

void CacheTags::mark_dirty(uint64_t line_addr) {
  if (Way* way = find(line_addr >> line_shift_)) way->stamp |= 1;
}

bool CacheTags::is_dirty(uint64_t line_addr) const {
  const Way* way = find(line_addr >> line_shift_);
  return way != nullptr && way->dirty();
}

void CacheTags::take_dirty(std::vector<uint64_t>& lines) {
  for (Way& way : ways_) {
    if (way.valid() && way.dirty()) {
      lines.push_back(way.line_no << line_shift_);
      way.stamp &= ~uint64_t(1);
    }
  }
}

void CacheTags::invalidate(uint64_t line_addr) {
  if (Way* way = find(line_addr >> line_shift_)) {
    if (indexed_) index_of_.erase(way->line_no);
    way->stamp = 0;  // invalid; its dirty data is dropped
  }
}

void CacheTags::clear() {
  for (Way& way : ways_) way = Way{};
  index_of_.clear();
  clock_ = 0;
}

}  // namespace warptlm
