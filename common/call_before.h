/*
 * Whether a word found on a stack can be a return address: the code
 * before it must end in a call instruction.  Shared by the runtime's
 * sampler (a leaf's return address on top of the stack) and `record
 * --pid` (the kernel's and the unwinder's return addresses), which read
 * the bytes each their own way.
 */
#ifndef CALLSCOPE_CALL_BEFORE_H
#define CALLSCOPE_CALL_BEFORE_H

#include <stdint.h>

/* The bytes before an address that its call instruction may take: a
 * call through memory is 7 at most (FF /2 with a SIB and a disp32). */
#define CALL_BEFORE_BYTES 7

/* Whether BEFORE, the CALL_BEFORE_BYTES bytes ending at an address, end
 * in a call: E8 rel32, or FF /2 whose ModRM, SIB and displacement make it
 * end exactly there. */
int code_ends_in_call(const uint8_t before[CALL_BEFORE_BYTES]);

#endif
