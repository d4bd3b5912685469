/*
 * Which GOT slots an object's code reads other than to call or jump
 * through them.  The GLOB_DAT slot of a function defined elsewhere serves
 * two uses: code built with -fno-plt calls through it (`call
 * *f@GOTPCREL(%rip)`), and code that takes the function's address loads
 * it from there (`mov f@GOTPCREL(%rip), %rax`: a callback handed to a
 * library, a comparison with what dlsym returns, a table of handlers).
 * Pointing the slot at a stub traces the first use and changes what the
 * second computes, so such a slot is pointed at a stub only when every
 * read of it is a call or a jump.
 *
 * The reads are found without decoding instructions.  A RIP-relative
 * operand is a 32-bit displacement whose target is the end of its
 * instruction plus it, and the instruction ends 0, 1, 2 or 4 bytes (an
 * immediate) after the displacement.  So every 4 bytes of the code are
 * taken for a displacement at each of those ends; one whose target is a
 * candidate slot is a call or a jump when it ends its instruction right
 * after `ff 15` or `ff 25` (the only encodings of an indirect call or
 * jump through a RIP-relative operand), and a read of another kind
 * otherwise.  Bytes that merely look like a reference leave their slot
 * alone: the safe side, a library call not traced.
 */
#include "libcall.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static int by_address(const void *x, const void *y)
{
	uintptr_t a = *(const uintptr_t *)x, b = *(const uintptr_t *)y;

	return a < b ? -1 : a > b;
}

/* The index of SLOT among the N sorted SLOTS (bit 0 of each, a mark, left
 * out of the comparison), or -1. */
static ptrdiff_t find_slot(const uintptr_t *slots, size_t n, uintptr_t slot)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uintptr_t at = slots[mid] & ~(uintptr_t)1;
		if (at == slot)
			return (ptrdiff_t)mid;
		if (at < slot)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* Whether the displacement at P, ending its instruction, follows the
 * opcode and ModRM byte of `call *disp(%rip)` or `jmp *disp(%rip)`. */
static int call_or_jump_at(const uint8_t *p, const uint8_t *lo)
{
	return p - lo >= 2 && p[-2] == 0xff && (p[-1] == 0x15 || p[-1] == 0x25);
}

static void mark_reads(uintptr_t *slots, size_t n, const uint8_t *lo, const uint8_t *hi)
{
	static const unsigned immediate[] = { 0, 1, 2, 4 };
	uintptr_t first = slots[0] & ~(uintptr_t)1;
	uintptr_t span = (slots[n - 1] & ~(uintptr_t)1) - first;

	for (const uint8_t *p = lo; p + 4 <= hi; p++) {
		int32_t disp;
		memcpy(&disp, p, sizeof(disp));
		uintptr_t end = (uintptr_t)p + 4 + (uintptr_t)(intptr_t)disp;
		if (end + 4 - first > span + 4)	/* no candidate within reach */
			continue;
		for (size_t k = 0; k < sizeof(immediate) / sizeof(*immediate); k++) {
			uintptr_t target = end + immediate[k];
			if (target - first > span)
				continue;
			ptrdiff_t i = find_slot(slots, n, target);
			if (i >= 0 && (k != 0 || !call_or_jump_at(p, lo)))
				slots[i] |= 1;
		}
	}
}

void libcall_mark_slot_reads(uintptr_t *slots, size_t n, const struct libcall_code *code,
			     size_t ncode)
{
	if (!n)
		return;
	qsort(slots, n, sizeof(*slots), by_address);
	for (size_t i = 0; i < ncode; i++)
		mark_reads(slots, n, (const uint8_t *)code[i].lo, (const uint8_t *)code[i].hi);
}

int libcall_slot_read(const uintptr_t *slots, size_t n, uintptr_t slot)
{
	ptrdiff_t i = find_slot(slots, n, slot);

	return i < 0 || (slots[i] & 1);
}
