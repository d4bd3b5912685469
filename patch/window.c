#include "patch/analysis.h"

#include <string.h>

static const uint8_t endbr64[4] = { 0xf3, 0x0f, 0x1e, 0xfa };

/* Whether [FROM, TO) holds only alignment padding: nops and int3. */
int window_padding(struct analysis *a, const struct elf_code *c, uint64_t from, uint64_t to)
{
	cs_insn *in = patch_disasm()->malloc(a->cs);
	const uint8_t *p = c->bytes + (from - c->addr);
	size_t left = c->size - (from - c->addr);
	uint64_t at = from;
	int ok = 1;

	while (ok && at < to) {
		ok = patch_disasm()->disasm_iter(a->cs, &p, &left, &at, in) &&
		     (in->id == X86_INS_NOP || in->id == X86_INS_INT3);
	}
	patch_disasm()->free(in, 1);
	return ok;
}


/*
 * The window at P of the function [START, END) whose neighbour starts at
 * NEXT: whole instructions up to MIN bytes or more (5 for a jmp rel32, 2
 * for a jmp rel8, more for a window that holds an island too); or, when
 * the function ends (a jump or return) before that, its instructions and
 * the padding after them.
 */
enum patch_skip window_at(struct analysis *a, const struct elf_code *c, uint64_t p,
				 uint64_t end, uint64_t next, unsigned min, struct window *w)
{
	cs_insn *in = patch_disasm()->malloc(a->cs);
	const uint8_t *q = c->bytes + (p - c->addr);
	size_t left = end - p;
	uint64_t at = p;
	int last_ends = 0;
	enum patch_skip why = PATCH_OK;

	while (at - p < min && left && !last_ends) {
		if (!patch_disasm()->disasm_iter(a->cs, &q, &left, &at, in)) {
			why = PATCH_SKIP_UNDECODABLE;
			break;
		}
		last_ends = in->id == X86_INS_JMP || in->id == X86_INS_RET;
	}
	patch_disasm()->free(in, 1);
	if (why)
		return why;
	w->addr = p;
	w->code_len = (unsigned)(at - p);
	w->len = w->code_len;
	if (w->len < min) {
		/* the code ran out: the jump needs padding behind it */
		uint64_t need = p + min;
		if (!last_ends || need > next || need > c->addr + c->size ||
		    !window_padding(a, c, at, need))
			return PATCH_SKIP_TOO_SMALL;
		w->len = min;
	}
	if (w->len > PATCH_WINDOW_MAX)
		return PATCH_SKIP_LONG_WINDOW;
	if (p + w->len > next)
		return PATCH_SKIP_TOO_SMALL;
	if (analysis_branch_inside(&a->br, p, p + w->len))
		return PATCH_SKIP_BRANCH_INTO_WINDOW;
	return PATCH_OK;
}

/*
 * The window of the function [START, END): after its endbr64 when it has
 * one, else, when that one is refused, over the endbr64 too.  The jump
 * then takes the endbr64's place, which only indirect branch tracking
 * would notice, and Linux does not enforce it for user programs; it
 * gives room before a loop head that follows the endbr64 closely.
 */
enum patch_skip window_choose(struct analysis *a, uint64_t start, uint64_t end,
				     uint64_t next, unsigned min, struct window *w)
{
	const struct elf_code *c = elf_functions_code(a->f, start, end - start);

	if (!c || !c->exec)
		return PATCH_SKIP_NO_CODE;
	if (end - start < 4 || memcmp(c->bytes + (start - c->addr), endbr64, 4))
		return window_at(a, c, start, end, next, min, w);
	enum patch_skip why = window_at(a, c, start + 4, end, next, min, w);
	if (why == PATCH_SKIP_BRANCH_INTO_WINDOW || why == PATCH_SKIP_TOO_SMALL) {
		struct window over;
		if (window_at(a, c, start, end, next, min, &over) == PATCH_OK) {
			*w = over;
			return PATCH_OK;
		}
	}
	return why;
}

/* The end of function I: its size, else the next function or its section's end. */
uint64_t function_end(const struct elf_functions *f, size_t i)
{
	const struct elf_function *fn = &f->funcs[i];
	uint64_t next = i + 1 < f->n ? f->funcs[i + 1].start : UINT64_MAX;
	const struct elf_code *c = elf_functions_code(f, fn->start, 1);
	uint64_t end = fn->size ? fn->start + fn->size : next;

	if (c && end > c->addr + c->size)
		end = c->addr + c->size;
	return end;
}

/* The next function start above function I's that is another function
 * (aliases share starts; the list is unique by start already). */
uint64_t function_next(const struct elf_functions *f, size_t i)
{
	return i + 1 < f->n ? f->funcs[i + 1].start : UINT64_MAX;
}

/*
 * The last resort for the function at START: an int3 over its first
 * instruction (an endbr64 included, so that a loop head right after it
 * stays free of the trap), that instruction relocated.  One byte fits
 * any function; only a branch into the middle of that instruction, or an
 * instruction that cannot move, refuses it.
 */
enum patch_skip window_trap(struct analysis *a, uint64_t start, uint64_t end,
				   struct window *w)
{
	const struct elf_code *c = elf_functions_code(a->f, start, end - start);
	cs_insn *in = patch_disasm()->malloc(a->cs);
	const uint8_t *q = c->bytes + (start - c->addr);
	size_t left = end - start;
	uint64_t at = start;
	int ok = patch_disasm()->disasm_iter(a->cs, &q, &left, &at, in);

	patch_disasm()->free(in, 1);
	if (!ok)
		return PATCH_SKIP_UNDECODABLE;
	w->addr = start;
	w->len = w->code_len = (unsigned)(at - start);
	if (w->len > PATCH_WINDOW_MAX)
		return PATCH_SKIP_LONG_WINDOW;
	if (analysis_branch_inside(&a->br, start, at))
		return PATCH_SKIP_BRANCH_INTO_WINDOW;
	return PATCH_OK;
}

/* Relocates window W into *R (capstone's verdict on moving it). */
enum patch_skip window_relocate(struct analysis *a, const struct window *w, struct patch_reloc *r)
{
	const struct elf_code *c = elf_functions_code(a->f, w->addr, w->len);
	return patch_relocate(a->cs, c->bytes + (w->addr - c->addr), w->code_len, w->addr,
			      w->addr + w->len, r);
}

