// A kernel launch as the host describes it: geometry, host buffers that are
// copied to device memory before the run and back after it, and arguments.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "frontend/ir.h"
#include "texture/image_desc.h"

namespace warptlm {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  uint64_t count() const { return uint64_t(x) * y * z; }
};

// A host array the kernel reads and/or writes. Device memory gets exactly
// bytes.size() bytes for it; any access outside it is a fault.
struct HostBuffer {
  std::string name;
  std::vector<uint8_t> bytes;
};

// A texture or surface object (cudaCreateTextureObject /
// cudaCreateSurfaceObject): its texels are the bytes of a launch buffer,
// which other arguments may also name.
struct LaunchImage {
  ImageDesc desc;  // desc.data is ignored: the texels start at the buffer's first byte
  uint32_t buffer = 0;
};

struct KernelArg {
  enum class Kind { Buffer, Scalar, Image };
  Kind kind = Kind::Scalar;
  // Buffer: index into LaunchSpec::buffers (passed as its device address);
  // Image: index into LaunchSpec::images (passed as its handle).
  uint32_t buffer = 0;
  Type type = Type::U32;  // Scalar: its PTX type
  uint64_t bits = 0;      // Scalar: value bits, zero-extended (floats as IEEE bits)

  static KernelArg buffer_arg(uint32_t index) {
    KernelArg a;
    a.kind = Kind::Buffer;
    a.buffer = index;
    a.type = Type::U64;
    return a;
  }
  static KernelArg image_arg(uint32_t index) {
    KernelArg a;
    a.kind = Kind::Image;
    a.buffer = index;
    a.type = Type::U64;
    return a;
  }
  static KernelArg scalar(Type type, uint64_t bits) {
    KernelArg a;
    a.type = type;
    a.bits = bits;
    return a;
  }
};

struct LaunchSpec {
  Dim3 grid, block;
  uint32_t shared_bytes = 0;  // dynamic shared memory per CTA
  std::vector<HostBuffer> buffers;
  std::vector<LaunchImage> images;
  std::vector<KernelArg> args;  // one per kernel parameter, in order
  // cudaLaunchCooperativeKernel: every CTA resident at once (or the launch
  // is refused) and a grid-synchronisation workspace for cooperative
  // groups' grid.sync() (docs/cooperative-launch.md).
  bool cooperative = false;
  // Filled by the run: what the kernel's printf calls wrote, in issue order.
  std::string output;
};

// The bytes of a cooperative launch's grid workspace: cooperative groups keep
// the grid barrier's arrival counter in its second word. Zeroed at the launch.
constexpr uint64_t kGridWorkspaceBytes = 8;
// Why a cooperative launch cannot run under thread block compaction (both
// modes refuse it with these words).
inline constexpr char kCooperativeCompaction[] =
    "launch: a cooperative launch runs every CTA at once, but compaction (and the "
    "compactability analysis) run one CTA at a time: use compaction=none";

}  // namespace warptlm
