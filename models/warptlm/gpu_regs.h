/* The warptlm GPU's control registers for software (a driver, firmware, a
 * host CPU model's program): offsets in the control window, bit fields and
 * codes. Plain C (C89 and later, and C++), no dependencies. The model's
 * register map (control_register_map(), docs/gpu-registers.md) is the
 * definition; tests/gpu checks this header against it, name by name.
 *
 * All registers are 32 bits wide, accessed with aligned 4-byte reads and
 * writes at base + WARPTLM_REG_<NAME>. */
#ifndef WARPTLM_GPU_REGS_H
#define WARPTLM_GPU_REGS_H

/* Register offsets (bytes from the control window's base). */
#define WARPTLM_REG_ID 0x00u               /* RO: WARPTLM_GPU_ID */
#define WARPTLM_REG_VERSION 0x04u          /* RO: register map version, major << 16 | minor */
#define WARPTLM_REG_STATUS 0x08u           /* RO: WARPTLM_STATUS_* */
#define WARPTLM_REG_ERROR 0x0Cu            /* RO: WARPTLM_ERROR_* of the last launch */
#define WARPTLM_REG_CYCLE_LO 0x10u         /* RO: core cycles since reset, low; latches HI */
#define WARPTLM_REG_CYCLE_HI 0x14u         /* RO: high word as of the last CYCLE_LO read */
#define WARPTLM_REG_LAUNCH_CYCLES_LO 0x18u /* RO: core cycles of the last launch, low */
#define WARPTLM_REG_LAUNCH_CYCLES_HI 0x1Cu /* RO: ... high */
#define WARPTLM_REG_IRQ_ENABLE 0x20u       /* RW: WARPTLM_IRQ_* bits that raise the irq line */
#define WARPTLM_REG_IRQ_STATUS 0x24u       /* W1C: pending WARPTLM_IRQ_* bits */
#define WARPTLM_REG_ERROR_TEXT_LEN 0x28u   /* RO: bytes of text in the ERROR_TEXT window */
#define WARPTLM_REG_PROGRAM 0x40u          /* RW: program handle */
#define WARPTLM_REG_KERNEL 0x44u           /* RW: entry PC of a kernel of PROGRAM */
#define WARPTLM_REG_GRID_X 0x48u           /* RW: grid dimensions in CTAs */
#define WARPTLM_REG_GRID_Y 0x4Cu
#define WARPTLM_REG_GRID_Z 0x50u
#define WARPTLM_REG_BLOCK_X 0x54u /* RW: CTA dimensions in threads */
#define WARPTLM_REG_BLOCK_Y 0x58u
#define WARPTLM_REG_BLOCK_Z 0x5Cu
#define WARPTLM_REG_PARAM_ADDR_LO 0x60u /* RW: device address of the parameter buffer */
#define WARPTLM_REG_PARAM_ADDR_HI 0x64u
#define WARPTLM_REG_DYN_SHARED 0x68u        /* RW: dynamic shared memory per CTA, bytes */
#define WARPTLM_REG_GRID_WORKSPACE_LO 0x70u /* RW: cooperative launch: 8 zeroed bytes; 0: none */
#define WARPTLM_REG_GRID_WORKSPACE_HI 0x74u
#define WARPTLM_REG_LAUNCH 0x80u        /* WO: write WARPTLM_LAUNCH_GO to launch */
#define WARPTLM_REG_COMMAND 0x84u       /* WO: a WARPTLM_COMMAND_*, done when the write returns */
#define WARPTLM_REG_RESET 0x88u         /* WO: write WARPTLM_RESET_GO to reset the GPU */
#define WARPTLM_REG_IMAGE_ADDR_LO 0x90u /* RW: device address of the PTX text to load */
#define WARPTLM_REG_IMAGE_ADDR_HI 0x94u
#define WARPTLM_REG_IMAGE_SIZE 0x98u /* RW: its length in bytes */
#define WARPTLM_REG_GLOBALS_ADDR_LO                            \
  0x9Cu /* RW: where a bound memory gets the .global variables \
         */
#define WARPTLM_REG_GLOBALS_ADDR_HI 0xA0u
#define WARPTLM_REG_NAME_ADDR_LO 0xA4u /* RW: device address of a kernel name */
#define WARPTLM_REG_NAME_ADDR_HI 0xA8u
#define WARPTLM_REG_NAME_SIZE 0xACu    /* RW: its length in bytes */
#define WARPTLM_REG_KERNEL_INDEX 0xB0u /* RW: kernel index for WARPTLM_COMMAND_KERNEL_BY_INDEX */
#define WARPTLM_REG_KERNEL_COUNT 0xB4u /* RO: kernels of the program last loaded or searched */
#define WARPTLM_REG_ERROR_TEXT 0x800u  /* RO: the last error's message, NUL-terminated */

#define WARPTLM_ERROR_TEXT_BYTES 0x800u  /* size of the ERROR_TEXT window */
#define WARPTLM_REG_WINDOW_BYTES 0x1000u /* accesses beyond it are address errors */

/* Values. */
#define WARPTLM_GPU_ID 0x57544C4Du      /* "WTLM" */
#define WARPTLM_GPU_VERSION 0x00010002u /* register map 1.2 */
#define WARPTLM_LAUNCH_GO 1u
#define WARPTLM_RESET_GO 1u

/* COMMAND values. */
#define WARPTLM_COMMAND_LOAD 1u            /* PROGRAM = handle of the image's program */
#define WARPTLM_COMMAND_KERNEL_BY_INDEX 2u /* KERNEL = entry of kernel KERNEL_INDEX */
#define WARPTLM_COMMAND_KERNEL_BY_NAME 3u  /* KERNEL = entry of the kernel named at NAME_ADDR */

/* IRQ_ENABLE / IRQ_STATUS bits. */
#define WARPTLM_IRQ_DONE 0x1u  /* a launch completed normally */
#define WARPTLM_IRQ_ERROR 0x2u /* a launch or command was refused, or a kernel faulted */

/* STATUS. */
#define WARPTLM_STATUS_IDLE 0u
#define WARPTLM_STATUS_RUNNING 1u
#define WARPTLM_STATUS_DONE 2u
#define WARPTLM_STATUS_LAUNCH_ERROR 3u /* the last launch or command was refused */
#define WARPTLM_STATUS_FAULT 4u

/* ERROR. */
#define WARPTLM_ERROR_NONE 0u
#define WARPTLM_ERROR_BAD_PROGRAM 1u   /* PROGRAM is no loaded program's handle */
#define WARPTLM_ERROR_BAD_KERNEL 2u    /* KERNEL is no kernel entry of that program */
#define WARPTLM_ERROR_BAD_GRID 3u      /* a grid dimension is 0 or above the PTX limit */
#define WARPTLM_ERROR_BAD_BLOCK 4u     /* a block dimension is 0 or above the PTX limit */
#define WARPTLM_ERROR_BAD_PARAMS 5u    /* the parameter buffer is not readable device memory */
#define WARPTLM_ERROR_CTA_WARPS 6u     /* a CTA has more warps than an SM holds */
#define WARPTLM_ERROR_CTA_REGISTERS 7u /* a CTA needs more registers than an SM has */
#define WARPTLM_ERROR_CTA_SHARED 8u    /* a CTA needs more shared memory than an SM has */
#define WARPTLM_ERROR_FAULTED 9u       /* an earlier kernel fault left the GPU unusable */
#define WARPTLM_ERROR_KERNEL_FAULT 10u /* the kernel faulted */
#define WARPTLM_ERROR_THREAD_LOCAL 11u /* a thread needs more local memory than the limit */
#define WARPTLM_ERROR_BAD_IMAGE 12u    /* LOAD: the image cannot be read, parsed or placed */
#define WARPTLM_ERROR_BAD_COMMAND 13u  /* COMMAND got a value that is no command */
#define WARPTLM_ERROR_COOPERATIVE 14u  /* a cooperative launch's CTAs do not fit at once */

#endif /* WARPTLM_GPU_REGS_H */
