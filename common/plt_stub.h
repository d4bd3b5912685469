/*
 * How a stub of the procedure linkage table begins on x86-64: `[endbr64]
 * [bnd] jmp *slot(%rip)`, the jump through its GOT slot.  Shared by the
 * symbol tables (symbols/plt.c names each stub by its slot) and the
 * runtime's sampler (a sample on a stub a call has just reached).
 */
#ifndef CALLSCOPE_PLT_STUB_H
#define CALLSCOPE_PLT_STUB_H

#include <stddef.h>
#include <stdint.h>

/* PLT0's first instruction, `pushq GOT+8(%rip)`: how a lazy .plt is
 * recognised (its entries follow, 16 bytes each). */
#define PLT0_PUSH_0 0xff
#define PLT0_PUSH_1 0x35
#define PLT_ENTRY_SIZE 16

/* Where the jump through the GOT slot lies in the SIZE bytes at ENTRY,
 * when they begin as a stub does: its offset (0, or past endbr64 and
 * bnd), or -1.  Each byte is read only once those before it matched, so
 * ENTRY may be live code that ends anywhere after an instruction. */
int plt_stub_jump(const uint8_t *entry, size_t size);

#endif
