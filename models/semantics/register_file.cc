#include "semantics/register_file.h"

#include <algorithm>
#include <cstring>

#include "frontend/read_before_write.h"

namespace warptlm {

namespace {

size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

// Bytes one register of kind k takes for warps of `warp_size` lanes.
size_t slot_bytes(RegKind k, unsigned warp_size) {
  switch (k) {
    case RegKind::Wide:
      return size_t(8) * warp_size;
    case RegKind::Narrow:
      return size_t(4) * warp_size;
    default:
      return sizeof(LaneMask);
  }
}

}  // namespace

RegisterLayout::RegisterLayout(const std::vector<RegDecl>& regs, unsigned warp_size) {
  // Bytes per register of each kind, indexed by RegKind.
  const size_t size[] = {slot_bytes(RegKind::Wide, warp_size),
                         slot_bytes(RegKind::Narrow, warp_size),
                         slot_bytes(RegKind::Pred, warp_size)};
  size_t count[3] = {};
  for (const RegDecl& r : regs) ++count[static_cast<unsigned>(reg_kind(r.type))];
  size_t next[3];
  next[0] = 0;
  next[1] = round_up(count[0] * size[0], kRegisterAlign);
  next[2] = next[1] + round_up(count[1] * size[1], kRegisterAlign);
  bytes = next[2] + round_up(count[2] * size[2], kRegisterAlign);
  slots.reserve(regs.size());
  for (const RegDecl& r : regs) {
    const RegKind k = reg_kind(r.type);
    const unsigned i = static_cast<unsigned>(k);
    slots.push_back(RegSlot{static_cast<uint32_t>(next[i]), k});
    next[i] += size[i];
  }
}

RegisterLayouts::RegisterLayouts(const Module& module, unsigned warp_size) : warp_size(warp_size) {
  functions.reserve(module.functions.size());
  for (const Function& f : module.functions) functions.emplace_back(f.regs, warp_size);
  for (uint32_t i = 0; i < functions.size(); ++i) {
    RegisterLayout& layout = functions[i];
    const std::vector<bool> read_first = registers_read_before_written(module, i);
    auto& ranges = layout.zeroed;
    for (size_t r = 0; r < read_first.size(); ++r)
      if (read_first[r]) {
        const RegSlot s = layout.slots[r];
        ranges.emplace_back(s.offset, s.offset + slot_bytes(s.kind, warp_size));
      }
    // Adjacent registers zero as one range.
    std::sort(ranges.begin(), ranges.end());
    size_t kept = 0;
    for (const auto& range : ranges) {
      if (kept && ranges[kept - 1].second == range.first)
        ranges[kept - 1].second = range.second;
      else
        ranges[kept++] = range;
    }
    ranges.resize(kept);
    layout.zero_all = false;
  }
  predecoded.reserve(module.code.size());
  for (const Instruction& in : module.code)
    predecoded.push_back(in.function < functions.size()
                             ? predecode(in, functions[in.function].slots.data())
                             : PredecodedInstruction{});
}

void RegisterStorage::reset(const RegisterLayout& layout) {
  if (layout.zero_all || layout.bytes > capacity_) return reset(layout.bytes);
  size_ = layout.bytes;
  for (const auto& [begin, end] : layout.zeroed) std::memset(data_.get() + begin, 0, end - begin);
}

void RegisterStorage::reset(size_t bytes) {
  if (bytes > capacity_) {
    data_.reset(static_cast<uint8_t*>(::operator new[](bytes, std::align_val_t(kRegisterAlign))));
    capacity_ = bytes;
  }
  size_ = bytes;
  if (bytes) std::memset(data_.get(), 0, bytes);
}

}  // namespace warptlm
