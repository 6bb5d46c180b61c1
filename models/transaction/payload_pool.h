// Memory manager for tlm_generic_payload: recycles payloads (PooledPayload), each owning a data
// buffer of `data_bytes` and a GpuExtension, so steady-state traffic allocates nothing.
#pragma once

#include <cstddef>
#include <memory>
#include <tlm>
#include <vector>

#include "transaction/pooled_payload.h"

namespace warptlm {

class PayloadPool : public tlm::tlm_mm_interface {
 public:
  explicit PayloadPool(unsigned data_bytes);
  ~PayloadPool();  // deletes every payload it made, outstanding ones included
  PayloadPool(const PayloadPool&) = delete;
  PayloadPool& operator=(const PayloadPool&) = delete;

  // A payload ready to fill: acquire() already called (ref count 1), data pointer = its own buffer,
  // data length 0, streaming width 0, no byte enables, response TLM_INCOMPLETE_RESPONSE, command
  // TLM_IGNORE_COMMAND, address 0, with its GpuExtension attached and reset to defaults.
  PooledPayload* allocate();
  void free(tlm::tlm_generic_payload* payload) override;  // called by release() at ref count 0

  size_t outstanding() const { return outstanding_; }  // allocated and not yet freed
  size_t created() const { return all_.size(); }       // payloads ever made (the pool's size)
  unsigned data_bytes() const { return data_bytes_; }

 private:
  unsigned data_bytes_;
  size_t outstanding_ = 0;
  std::vector<std::unique_ptr<PooledPayload>> all_;
  std::vector<PooledPayload*> free_;
};

}  // namespace warptlm
