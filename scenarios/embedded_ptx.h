// The scenario PTX texts compiled into the library: embedded_ptx.cc is
// generated at build time by embed_ptx.cmake from every <folder>/kernel.ptx.
#pragma once

#include <cstddef>

namespace warptlm::scenarios::detail {

struct EmbeddedPtx {
  const char* dir;   // the scenario folder, e.g. "reduction"
  const char* text;  // the whole kernel.ptx
};

extern const EmbeddedPtx kEmbeddedPtx[];
extern const size_t kEmbeddedPtxCount;

}  // namespace warptlm::scenarios::detail
