/* The C driver of warptlm/gpu_driver.h: register sequences only. */
#include "warptlm/gpu_driver.h"

static uint32_t rd(const warptlm_gpu* gpu, uint32_t reg) {
  return gpu->bus->read32(gpu->bus->context, gpu->regs + reg);
}

static void wr(const warptlm_gpu* gpu, uint32_t reg, uint32_t value) {
  gpu->bus->write32(gpu->bus->context, gpu->regs + reg, value);
}

static void wr64(const warptlm_gpu* gpu, uint32_t reg_lo, uint64_t value) {
  wr(gpu, reg_lo, (uint32_t)value);
  wr(gpu, reg_lo + 4u, (uint32_t)(value >> 32));
}

/* A command's outcome: synchronous, so STATUS and ERROR are final when the
 * write returns. A refusal also sets IRQ_STATUS's error bit: acknowledged here. */
static int command(const warptlm_gpu* gpu, uint32_t value) {
  uint32_t error;
  wr(gpu, WARPTLM_REG_COMMAND, value);
  if (rd(gpu, WARPTLM_REG_STATUS) == WARPTLM_STATUS_DONE) return WARPTLM_ERROR_NONE;
  error = rd(gpu, WARPTLM_REG_ERROR);
  wr(gpu, WARPTLM_REG_IRQ_STATUS, WARPTLM_IRQ_ERROR);
  return (int)error;
}

int warptlm_gpu_probe(const warptlm_gpu* gpu) {
  if (rd(gpu, WARPTLM_REG_ID) != WARPTLM_GPU_ID) return WARPTLM_DRIVER_NO_GPU;
  if ((rd(gpu, WARPTLM_REG_VERSION) >> 16) != (WARPTLM_GPU_VERSION >> 16))
    return WARPTLM_DRIVER_NO_GPU;
  wr(gpu, WARPTLM_REG_IRQ_ENABLE, WARPTLM_IRQ_DONE | WARPTLM_IRQ_ERROR);
  return WARPTLM_ERROR_NONE;
}

int warptlm_gpu_load(const warptlm_gpu* gpu, uint64_t image, uint32_t size, uint64_t globals,
                     uint32_t* program) {
  int error;
  wr64(gpu, WARPTLM_REG_IMAGE_ADDR_LO, image);
  wr(gpu, WARPTLM_REG_IMAGE_SIZE, size);
  wr64(gpu, WARPTLM_REG_GLOBALS_ADDR_LO, globals);
  error = command(gpu, WARPTLM_COMMAND_LOAD);
  if (error == WARPTLM_ERROR_NONE && program) *program = rd(gpu, WARPTLM_REG_PROGRAM);
  return error;
}

int warptlm_gpu_kernel_by_name(const warptlm_gpu* gpu, uint32_t program, uint64_t name,
                               uint32_t size, uint32_t* kernel) {
  int error;
  wr(gpu, WARPTLM_REG_PROGRAM, program);
  wr64(gpu, WARPTLM_REG_NAME_ADDR_LO, name);
  wr(gpu, WARPTLM_REG_NAME_SIZE, size);
  error = command(gpu, WARPTLM_COMMAND_KERNEL_BY_NAME);
  if (error == WARPTLM_ERROR_NONE && kernel) *kernel = rd(gpu, WARPTLM_REG_KERNEL);
  return error;
}

int warptlm_gpu_launch(const warptlm_gpu* gpu, const warptlm_launch* launch) {
  wr(gpu, WARPTLM_REG_PROGRAM, launch->program);
  wr(gpu, WARPTLM_REG_KERNEL, launch->kernel);
  wr(gpu, WARPTLM_REG_GRID_X, launch->grid[0]);
  wr(gpu, WARPTLM_REG_GRID_Y, launch->grid[1]);
  wr(gpu, WARPTLM_REG_GRID_Z, launch->grid[2]);
  wr(gpu, WARPTLM_REG_BLOCK_X, launch->block[0]);
  wr(gpu, WARPTLM_REG_BLOCK_Y, launch->block[1]);
  wr(gpu, WARPTLM_REG_BLOCK_Z, launch->block[2]);
  wr64(gpu, WARPTLM_REG_PARAM_ADDR_LO, launch->params);
  wr(gpu, WARPTLM_REG_DYN_SHARED, launch->dynamic_shared);
  wr64(gpu, WARPTLM_REG_GRID_WORKSPACE_LO, launch->grid_workspace);
  wr(gpu, WARPTLM_REG_LAUNCH, WARPTLM_LAUNCH_GO);
  /* A refused launch ends at once (STATUS launch error, the error interrupt pending). */
  if (rd(gpu, WARPTLM_REG_STATUS) == WARPTLM_STATUS_LAUNCH_ERROR) {
    const uint32_t error = rd(gpu, WARPTLM_REG_ERROR);
    wr(gpu, WARPTLM_REG_IRQ_STATUS, WARPTLM_IRQ_ERROR);
    return (int)error;
  }
  return WARPTLM_ERROR_NONE;
}

int warptlm_gpu_wait(const warptlm_gpu* gpu, uint32_t* status, uint64_t* cycles) {
  uint32_t pending, error;
  gpu->bus->wait_irq(gpu->bus->context, gpu->irq);
  pending = rd(gpu, WARPTLM_REG_IRQ_STATUS);
  if (status) *status = rd(gpu, WARPTLM_REG_STATUS);
  error = rd(gpu, WARPTLM_REG_ERROR);
  if (cycles)
    *cycles = (uint64_t)rd(gpu, WARPTLM_REG_LAUNCH_CYCLES_HI) << 32 |
              rd(gpu, WARPTLM_REG_LAUNCH_CYCLES_LO);
  wr(gpu, WARPTLM_REG_IRQ_STATUS, pending); /* acknowledge: the line falls */
  return (int)error;
}

size_t warptlm_gpu_error_text(const warptlm_gpu* gpu, char* text, size_t size) {
  const uint32_t length = rd(gpu, WARPTLM_REG_ERROR_TEXT_LEN);
  size_t i, k, n = 0;
  if (size == 0) return length;
  for (i = 0; i < length && n + 1 < size; i += 4) {
    const uint32_t word = rd(gpu, WARPTLM_REG_ERROR_TEXT + (uint32_t)i);
    for (k = 0; k < 4 && i + k < length && n + 1 < size; ++k) text[n++] = (char)(word >> (8 * k));
  }
  text[n] = '\0';
  return length;
}

void warptlm_gpu_reset(const warptlm_gpu* gpu) { wr(gpu, WARPTLM_REG_RESET, WARPTLM_RESET_GO); }
