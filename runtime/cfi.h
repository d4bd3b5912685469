/*
 * Unwinding one frame with an object's call frame information, in a
 * signal handler (cfi.c): the FDE's rules at a PC give where the caller's
 * registers were saved, and those are read from the thread's stack.
 * x86-64 only; no allocation, no locks, no system calls.
 */
#ifndef CALLSCOPE_RUNTIME_CFI_H
#define CALLSCOPE_RUNTIME_CFI_H

#include <stdint.h>

#include "eh_frame.h"

/* The registers an unwinding follows, in the x86-64 DWARF numbering:
 * rax, rdx, rcx, rbx, rsi, rdi, rbp, rsp, r8-r15, then the return
 * address (the PC) in column 16. */
enum {
	CFI_RBP = 6,
	CFI_RSP = 7,
	CFI_RIP = 16,
	CFI_REGS = 17,
};

/* A frame's registers: r[i] holds register i's value where bit i of
 * known is set. */
struct cfi_regs {
	uint64_t r[CFI_REGS];
	uint32_t known;
};

/* The memory an unwinding may read, [lo, hi): the thread's stack. */
struct cfi_stack {
	uintptr_t lo, hi;
};

enum cfi_step {
	CFI_STEP_CALLER,	/* *REGS are now the caller's */
	CFI_STEP_FIRST_FRAME,	/* the return address is undefined: the thread's first frame */
	CFI_STEP_STOP,		/* the rules cannot be followed (or name unknown registers) */
};

/*
 * Steps from the frame whose registers are *REGS to its caller, with the
 * FDE F (read from the object's mapped span CODE) that covers LOOKUP: the
 * frame's PC, less one where it is a return address.  Every read of the
 * instructions stays inside CODE and F's own bounds, every read of memory
 * inside STACK; anything damaged gives CFI_STEP_STOP, never a fault.
 */
HIDDEN enum cfi_step cfi_step(const struct eh_span *code, const struct eh_fde *f, uintptr_t lookup,
			      const struct cfi_stack *stack, struct cfi_regs *regs);

#endif
