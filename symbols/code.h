/*
 * A function's machine code, read from its ELF file on disk: its bytes,
 * and the direct calls it makes (found with capstone).
 */
#ifndef CALLSCOPE_SYMBOLS_CODE_H
#define CALLSCOPE_SYMBOLS_CODE_H

#include <stddef.h>
#include <stdint.h>

/* An ELF file opened for reading code from, many functions at a time. */
struct code_file;

/* Opens PATH; NULL when it cannot be read as ELF.  code_file_close() frees. */
struct code_file *code_file_open(const char *path);
void code_file_close(struct code_file *cf);

/*
 * Copies [ADDR, ADDR + SIZE) (link-time addresses) from the file's
 * executable sections.  Returns a malloc'd buffer the caller frees, or
 * NULL when the file holds no such code.
 */
uint8_t *code_file_read(struct code_file *cf, uint64_t addr, uint64_t size);

/* The same for one function of PATH (opens, reads and closes), where the
 * code may end first: at least MIN bytes and at most MAX, as many as the
 * section holding ADDR has from there (a function may end the section,
 * its object's .text).  The number read goes to *GOT; NULL when not even
 * MIN are there. */
uint8_t *code_read(const char *path, uint64_t addr, uint64_t min, uint64_t max,
			uint64_t *got);

/* A direct call: its target, and its return address (the address after
 * the call instruction, which is what a -pg call site records).  A tail
 * call (a direct jump out of the function) has TAIL set and RET 0: it
 * returns to its caller's caller. */
struct code_call {
	uint64_t target;
	uint64_t ret;
	int tail;
};

/*
 * The direct calls in the SIZE bytes of CODE that lie at link-time address
 * ADDR (x86-64), in address order, with the direct jumps whose target lies
 * outside those bytes (tail calls, or jumps to a part of the function
 * placed elsewhere: the caller tells them apart by the target).  Calls and
 * jumps through a register or memory (function pointers, the PLT's
 * indirection) are not among them.  Returns their number, with a malloc'd
 * array the caller frees in *CALLS.
 */
size_t code_direct_calls(const uint8_t *code, uint64_t addr, size_t size,
			 struct code_call **calls);

#endif
