/*
 * A function's machine code, read from its ELF file on disk: its bytes,
 * and the direct calls it makes (found with capstone).
 */
#ifndef CALLSCOPE_SYMBOLS_CODE_H
#define CALLSCOPE_SYMBOLS_CODE_H

#include <stddef.h>
#include <stdint.h>

/*
 * Copies [ADDR, ADDR + SIZE) (link-time addresses) from PATH's executable
 * sections.  Returns a malloc'd buffer the caller frees, or NULL when the
 * file cannot be read or holds no such code.
 */
uint8_t *code_read(const char *path, uint64_t addr, uint64_t size);

/* A direct call: its target, and its return address (the address after
 * the call instruction, which is what a -pg call site records). */
struct code_call {
	uint64_t target;
	uint64_t ret;
};

/*
 * The direct calls in the SIZE bytes of CODE that lie at link-time address
 * ADDR (x86-64), in address order.  Calls through a register or memory
 * (function pointers, the PLT's indirection) are not among them.  Returns
 * their number, with a malloc'd array the caller frees in *CALLS.
 */
size_t code_direct_calls(const uint8_t *code, uint64_t addr, size_t size,
			 struct code_call **calls);

#endif
