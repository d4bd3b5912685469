/*
 * Offline DWARF unwinding of sampled stacks (record --stack=dwarf), as
 * perf --call-graph=dwarf does it: the sample carries the PC, the stack
 * and frame pointers and a copy of the top of the stack; libdwfl's
 * unwinder reads the binaries' call frame information (.eh_frame or
 * .debug_frame) and steps from frame to frame through the copy.  Works for
 * binaries built without frame pointers (most of a distribution).
 */
#ifndef CALLSCOPE_SYMBOLS_UNWIND_H
#define CALLSCOPE_SYMBOLS_UNWIND_H

#include <stddef.h>
#include <stdint.h>

struct unwinder;

/* Returns a new unwinder with no objects; free it with unwinder_free(). */
struct unwinder *unwinder_new(void);
void unwinder_free(struct unwinder *u);

/* Adds the object PATH mapped with LOAD_BIAS.  Returns 0, or -1 when it
 * cannot be read (its frames then end the unwinding). */
int unwinder_add_object(struct unwinder *u, const char *path, uint64_t load_bias);

/*
 * Unwinds from PC with stack pointer SP and frame pointer BP, the stack
 * bytes [SP, SP + LEN) being STACK.  Fills OUT with the return addresses
 * of the callers, innermost first (not PC itself), at most MAX.  Returns
 * how many; *TRUNCATED is set unless the unwinding reached the thread's
 * first frame.
 */
size_t unwinder_unwind(struct unwinder *u, uint64_t pc, uint64_t sp, uint64_t bp,
		       const uint8_t *stack, size_t len, uint64_t *out, size_t max,
		       int *truncated);

#endif
