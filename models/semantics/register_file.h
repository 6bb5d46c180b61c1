// The form of a frame's registers in host memory: where each register of a
// function lives (RegisterLayout) and the storage that holds them
// (RegisterStorage). WarpRegisters (semantics.h) reads and writes through
// both.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <utility>
#include <vector>

#include "semantics/predecoded.h"
#include "semantics/semantics.h"

namespace warptlm {

// Register storage starts on a host cache line, and so does each group of
// registers in it (see RegisterLayout).
constexpr size_t kRegisterAlign = 64;

// Where each register of a function lives in a frame's storage for warps of
// `warp_size` lanes: the 64-bit registers, then the narrower ones, then the
// predicates, in declaration order within a group and each group starting
// on a cache line. With 32 lanes a register's lanes then cover whole cache
// lines (4 for a wide one, 2 for a narrow one) and 8 predicates share one.
struct RegisterLayout {
  std::vector<RegSlot> slots;  // per register of Function::regs
  size_t bytes = 0;            // storage size, a multiple of kRegisterAlign
  // What a new frame zeroes: all of it, or (zero_all false, as
  // RegisterLayouts sets it) only the byte ranges [first, second) of the
  // registers a thread may read before writing them
  // (frontend/read_before_write.h); the others start with whatever the
  // storage held, which no thread reads.
  bool zero_all = true;
  std::vector<std::pair<uint32_t, uint32_t>> zeroed;

  RegisterLayout() = default;
  RegisterLayout(const std::vector<RegDecl>& regs, unsigned warp_size);
};

// The layouts of every function of a module for one warp size, and the
// module's instructions pre-decoded for them. Built once per launch and
// shared by whoever issues its warps (every SM of a GPU), so the slot tables
// the semantics read for each operand exist once.
struct RegisterLayouts {
  unsigned warp_size = 0;
  std::vector<RegisterLayout> functions;  // per function of Module::functions
  // Per instruction of Module::code (empty in layouts built by hand).
  std::vector<PredecodedInstruction> predecoded;

  RegisterLayouts() = default;
  RegisterLayouts(const Module& module, unsigned warp_size);
};

// A frame's register storage: zeroed, aligned to kRegisterAlign, reused by
// the next frame when large enough (a warp slot's kernel frame).
class RegisterStorage {
 public:
  RegisterStorage() = default;
  // A moved-from storage is empty (and allocates again when reset).
  RegisterStorage(RegisterStorage&& o) noexcept { *this = std::move(o); }
  RegisterStorage& operator=(RegisterStorage&& o) noexcept {
    data_ = std::move(o.data_);
    size_ = std::exchange(o.size_, 0);
    capacity_ = std::exchange(o.capacity_, 0);
    return *this;
  }
  // Makes the storage `bytes` bytes of zeros.
  void reset(size_t bytes);
  // Makes the storage a new frame of `layout`: layout.bytes bytes, zeros
  // where the layout says (all of it when it grows the storage).
  void reset(const RegisterLayout& layout);
  uint8_t* data() const { return data_.get(); }
  size_t size() const { return size_; }

 private:
  struct Free {
    void operator()(uint8_t* p) const { ::operator delete[](p, std::align_val_t(kRegisterAlign)); }
  };
  std::unique_ptr<uint8_t[], Free> data_;
  size_t size_ = 0, capacity_ = 0;
};

}  // namespace warptlm
