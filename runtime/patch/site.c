/*
 * One site's trampoline (the slot layout is in patch.h).  The plan gives
 * the displaced instructions already relocated, with the 32-bit fields
 * that depend on where they run listed as fixups; the runtime knows that
 * place only now, computes each field, and refuses the site when one does
 * not fit in 32 bits rather than write a wrong displacement.
 */
#include "patch.h"

#include <string.h>

/* The rel32 from the end of an instruction at FROM to TO, if it fits. */
static int rel32(uint64_t from, uint64_t to, int32_t *out)
{
	int64_t d = (int64_t)(to - from);

	if (d < INT32_MIN || d > INT32_MAX)
		return -1;
	*out = (int32_t)d;
	return 0;
}

/* Writes an instruction of OPLEN opcode bytes OP and a rel32 to TO at
 * SLOT_RW + AT (running at SLOT_RX + AT). */
static int put_rel(uint8_t *slot_rw, uintptr_t slot_rx, size_t at, const uint8_t *op,
		   size_t oplen, uint64_t to)
{
	int32_t d;

	if (rel32(slot_rx + at + oplen + 4, to, &d) != 0)
		return -1;
	memcpy(slot_rw + at, op, oplen);
	memcpy(slot_rw + at + oplen, &d, 4);
	return 0;
}

enum site_refusal site_build(const struct plan *p, const struct patch_plan_site *s,
			     uintptr_t bias, uintptr_t pool, uint8_t *slot_rw, uintptr_t slot_rx)
{
	static const uint8_t call_ind[] = { 0xff, 0x15 }, jnz[] = { 0x0f, 0x85 };
	static const uint8_t call[] = { 0xe8 }, jmp[] = { 0xe9 };
	static const uint8_t pop_slot[] = { 0x48, 0x8d, 0x64, 0x24, 0x08 };	/* lea 8(%rsp),%rsp */
	static const uint8_t push_slot[] = { 0x48, 0x8d, 0x64, 0x24, 0xf8 };	/* lea -8(%rsp),%rsp */
	uintptr_t body = slot_rx + SITE_BODY;
	uint64_t function = s->function + bias;

	if (s->code_len > SITE_BODY_MAX)
		return SITE_TOO_LONG;
	memset(slot_rw, 0xcc, SITE_SLOT);
	memcpy(slot_rw, &function, 8);
	if (put_rel(slot_rw, slot_rx, SITE_ENTRY, call_ind, 2, pool) != 0 ||
	    put_rel(slot_rw, slot_rx, SITE_AFTER_ENTRY, jnz, 2, body) != 0 ||
	    put_rel(slot_rw, slot_rx, 25, call, 1, body) != 0 ||
	    put_rel(slot_rw, slot_rx, 35, call_ind, 2, pool + 8) != 0)
		return SITE_OUT_OF_REACH;
	memcpy(slot_rw + 20, pop_slot, sizeof(pop_slot));
	memcpy(slot_rw + SITE_RETURN, push_slot, sizeof(push_slot));
	slot_rw[41] = 0xc3;	/* ret */
	slot_rw[SITE_FLAGS] = s->flags;

	memcpy(slot_rw + SITE_BODY, plan_code(p, s->code), s->code_len);
	for (uint32_t k = 0; k < s->nfixups; k++) {
		struct patch_plan_fixup f;
		int32_t d;
		plan_fixup(p, s->first_fixup + k, &f);
		if (rel32(body + f.insn_end, f.target + bias, &d) != 0)
			return SITE_OUT_OF_REACH;
		memcpy(slot_rw + SITE_BODY + f.at, &d, 4);
	}
	if (s->resume &&
	    put_rel(slot_rw, slot_rx, SITE_BODY + s->code_len, jmp, 1, s->resume + bias) != 0)
		return SITE_OUT_OF_REACH;
	return SITE_OK;
}
