/*
 * Moving the instructions a patched entry displaces into its trampoline.
 * The copy runs at an address only the runtime knows (within 2 GiB of the
 * object), so every field that reaches an address relative to the
 * instruction pointer becomes a fixup the runtime fills in:
 *
 *   - a RIP-relative memory operand of any instruction keeps its encoding,
 *     its disp32 a fixup;
 *   - jmp and jcc are re-encoded with a rel32 (jmp8 -> jmp32, jcc8 ->
 *     jcc32); jrcxz and loop keep their rel8 over a two-way hop to a jmp32;
 *   - a call (direct, or through a register or memory) becomes a jump after
 *     storing the original return address, so the stack never holds an
 *     address inside the trampoline.  That return address must lie at or
 *     past the window's end, where the original code is intact.
 *
 * Everything else is copied byte for byte; the few relative instructions
 * without such a form (xbegin) are refused.
 */
#ifndef CALLSCOPE_PATCH_RELOCATE_H
#define CALLSCOPE_PATCH_RELOCATE_H

#include <stddef.h>
#include <stdint.h>

#include "patch_plan.h"
#include "patch/skip.h"
#include "symbols/disasm.h"

/* Each of up to PATCH_WINDOW_MAX bytes of instructions grows at most to a
 * call's 19-byte preface plus a 15-byte jump. */
#define RELOC_CODE_MAX 160
#define RELOC_FIXUPS_MAX 32

struct patch_reloc {
	uint8_t code[RELOC_CODE_MAX];
	size_t len;
	struct patch_plan_fixup fixups[RELOC_FIXUPS_MAX];	/* offsets within code */
	size_t nfixups;
	int ends;		/* the code ends in a jump or return: no resume */
};

/*
 * Relocates the whole instructions in the LEN bytes of BYTES, which lie at
 * link-time address ADDR, for a window that ends at WINDOW_END (a call's
 * return address must not lie before it).  CS is a capstone handle for
 * x86-64 with details on.  Returns PATCH_OK with *OUT filled, or the reason
 * the instructions cannot be moved.
 */
enum patch_skip patch_relocate(csh cs, const uint8_t *bytes, size_t len, uint64_t addr,
			       uint64_t window_end, struct patch_reloc *out);

/* The disassembler (capstone, loaded on first use); dies with one line
 * when it cannot be loaded. */
const struct disasm *patch_disasm(void);

/* Opens the capstone handle patch_relocate() wants (x86-64, details on);
 * dies if it cannot.  patch_capstone_close() closes it. */
csh patch_capstone_open(void);
void patch_capstone_close(csh cs);

#endif
