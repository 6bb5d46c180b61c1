/* A driver for the warptlm GPU in plain C, written against gpu_regs.h alone,
 * as firmware on a platform's CPU would be. The platform supplies the bus: a
 * 32-bit register read and write at a bus address, and a way to sleep until an
 * interrupt line is high. Every call returns a WARPTLM_ERROR_* code (0: done),
 * or WARPTLM_DRIVER_NO_GPU when the registers at `regs` are not a warptlm GPU's.
 * warptlm's own host CPU model (models/host) runs it; docs/vp-guide.md has the
 * register sequence it follows. */
#ifndef WARPTLM_GPU_DRIVER_H
#define WARPTLM_GPU_DRIVER_H

#include <stddef.h>
#include <stdint.h>

#include "gpu_regs.h"

#ifdef __cplusplus
extern "C" {
#endif

#define WARPTLM_DRIVER_NO_GPU 0x100 /* ID or major version did not match */

typedef struct warptlm_bus {
  void* context;
  uint32_t (*read32)(void* context, uint64_t address);
  void (*write32)(void* context, uint64_t address, uint32_t value);
  void (*wait_irq)(void* context, unsigned line); /* returns when the line is high */
} warptlm_bus;

typedef struct warptlm_gpu {
  const warptlm_bus* bus;
  uint64_t regs; /* bus address of the register window */
  unsigned irq;  /* the interrupt line the GPU's irq drives */
} warptlm_gpu;

typedef struct warptlm_launch {
  uint32_t program, kernel; /* a handle from warptlm_gpu_load, an entry from the selects */
  uint32_t grid[3], block[3];
  uint64_t params; /* bus address of the parameter buffer */
  uint32_t dynamic_shared;
  uint64_t grid_workspace; /* a cooperative launch: bus address of 8 zeroed bytes; 0: ordinary */
} warptlm_launch;

/* Checks ID and version; enables both interrupts. */
int warptlm_gpu_probe(const warptlm_gpu* gpu);
/* LOAD: the PTX text of `size` bytes at `image`; `globals`, where the module's
 * .global variables go in a memory the GPU does not own (0: none). */
int warptlm_gpu_load(const warptlm_gpu* gpu, uint64_t image, uint32_t size, uint64_t globals,
                     uint32_t* program);
/* KERNEL_BY_NAME: the entry of the kernel whose name is `size` bytes at `name`. */
int warptlm_gpu_kernel_by_name(const warptlm_gpu* gpu, uint32_t program, uint64_t name,
                               uint32_t size, uint32_t* kernel);
/* Programs a launch and rings the doorbell; a refusal is returned at once. */
int warptlm_gpu_launch(const warptlm_gpu* gpu, const warptlm_launch* launch);
/* Sleeps until the GPU interrupts, acknowledges it and returns the launch's
 * ERROR; its STATUS and LAUNCH_CYCLES go to `status` and `cycles` if given. */
int warptlm_gpu_wait(const warptlm_gpu* gpu, uint32_t* status, uint64_t* cycles);
/* Copies the ERROR_TEXT window (NUL-terminated, cut to `size`); its length. */
size_t warptlm_gpu_error_text(const warptlm_gpu* gpu, char* text, size_t size);
/* Writes RESET. */
void warptlm_gpu_reset(const warptlm_gpu* gpu);

#ifdef __cplusplus
}
#endif

#endif /* WARPTLM_GPU_DRIVER_H */
