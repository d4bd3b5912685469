/*
 * Whether a loaded object's code keeps frame pointers, read from its call
 * frame information (eh_frame.h reads it where the loader mapped it).
 *
 * The sampler walks frame pointers only where they can be trusted: a
 * function built with -fomit-frame-pointer uses rbp as an ordinary
 * register, so a walk through it either stops early or, worse, skips its
 * caller.  The call frame information says which functions set up a
 * frame: theirs move the CFA rule to rbp (DW_CFA_def_cfa_register 6, or
 * DW_CFA_def_cfa 6, n).  An object keeps frame pointers when most of its
 * functions do; compilers choose per translation unit, so the share is
 * near 0 % or near 100 % in practice.
 *
 * Only the program's own mapped memory is read, never in a signal
 * handler, and every read is checked against the mapped segment that holds
 * the table, so a damaged table gives "unknown", never a fault.
 */
#define _GNU_SOURCE
#include "frame_pointers.h"
#include "eh_frame.h"

#include <stddef.h>

#define REG_FRAME 6		/* rbp in the x86-64 DWARF numbering */
#define SCAN_MAX 64		/* FDEs looked at per object, spread over it: enough
				 * to tell a share over 90 % from one under 60 % (the
				 * 75 % line is 4 and 2.4 standard deviations away),
				 * while each FDE read is a cold cache line and page:
				 * 256 cost a program's start 0.1 ms more */
#define SMALL_FUNCTION 16	/* bytes: stubs that need no frame either way */

/*
 * Whether the instructions [P, END) make rbp the CFA register: 1 when
 * they do, 0 when they move the CFA some other way, -1 when they never
 * move it (a leaf that pushes nothing: it has no frame to keep either
 * way, and its caller is found from the top of the stack), describe a
 * PLT stub (a CFA expression) or use an opcode it does not know.
 */
static int sets_frame_register(const struct eh_span *s, const uint8_t *p, const uint8_t *end,
			       size_t addr_size)
{
	struct eh_span in = { s->lo, end < s->hi ? end : s->hi };
	uint64_t a, b;
	int moved = 0;

	while (p < in.hi) {
		uint8_t op = *p++;
		switch (op >> 6) {
		case 1: case 3: continue;		/* advance_loc, restore */
		case 2: if (eh_get_uleb(&in, &p, &a)) return -1; continue;	/* offset */
		}
		switch (op) {
		case 0x00: case 0x0a: case 0x0b: break;	/* nop, remember, restore state */
		case 0x01: p += addr_size; break;	/* set_loc */
		case 0x02: p += 1; break;
		case 0x03: p += 2; break;
		case 0x04: p += 4; break;
		case 0x06: case 0x07: case 0x08: case 0x2e:
			if (eh_get_uleb(&in, &p, &a)) return -1;
			break;
		case 0x0e: case 0x13:	/* def_cfa_offset, def_cfa_offset_sf */
			if (eh_get_uleb(&in, &p, &a)) return -1;
			moved = 1;
			break;
		case 0x0d:	/* def_cfa_register */
			if (eh_get_uleb(&in, &p, &a)) return -1;
			if (a == REG_FRAME) return 1;
			moved = 1;
			break;
		case 0x0c: case 0x12:	/* def_cfa, def_cfa_sf */
			if (eh_get_uleb(&in, &p, &a) || eh_get_uleb(&in, &p, &b)) return -1;
			if (a == REG_FRAME) return 1;
			moved = 1;
			break;
		case 0x05: case 0x09: case 0x11: case 0x14: case 0x15: case 0x2f:
			if (eh_get_uleb(&in, &p, &a) || eh_get_uleb(&in, &p, &b)) return -1;
			break;
		case 0x0f:	/* def_cfa_expression: PLT stubs, not functions */
			return -1;
		case 0x10: case 0x16:	/* expression, val_expression */
			if (eh_get_uleb(&in, &p, &a) || eh_get_uleb(&in, &p, &b)) return -1;
			p += b;
			break;
		default:
			return -1;
		}
	}
	return moved ? 0 : -1;
}

/* 1 when the FDE at FDE sets up a frame, 0 when not, -1 when it is too
 * small or too simple to say, or cannot be read. */
static int fde_keeps_frame(const struct eh_span *s, const uint8_t *fde)
{
	struct eh_fde f;

	if (eh_fde_read(s, fde, &f) || f.range < SMALL_FUNCTION)
		return -1;
	return sets_frame_register(s, f.insns, f.end, f.addr_size);
}

int frame_pointers_kept(const struct dl_phdr_info *info)
{
	struct eh_table t;

	if (eh_table_find(info, &t))
		return 0;
	/* evenly spread over the table when there are more than SCAN_MAX */
	size_t step = t.count > SCAN_MAX ? t.count / SCAN_MAX : 1, with = 0, seen = 0;
	for (size_t i = 0; i < t.count; i += step) {
		uintptr_t begin;
		const uint8_t *fde;
		if (eh_table_entry(&t, i, &begin, &fde))
			return 0;
		int keeps = fde_keeps_frame(&t.span, fde);
		if (keeps < 0)
			continue;
		with += (size_t)keeps;
		seen++;
	}
	return seen && with * 4 >= seen * 3;
}
