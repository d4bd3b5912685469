#include "patch/analysis.h"

#include <string.h>

#include "die.h"

/* Whether a window refused for WHY may still take a shorter jump or a
 * trap at the entry: the code is there and decodes, only no 5-byte jump
 * fits in it. */
static int smaller_may_do(enum patch_skip why)
{
	return why == PATCH_SKIP_BRANCH_INTO_WINDOW || why == PATCH_SKIP_TOO_SMALL ||
	       why == PATCH_SKIP_LONG_WINDOW || why == PATCH_SKIP_UNRELOCATABLE ||
	       why == PATCH_SKIP_CALL_IN_WINDOW;
}

void choice_decide(struct analysis *a, size_t i, struct choice *ch)
{
	const struct elf_function *fn = &a->f->funcs[i];
	uint64_t end = function_end(a->f, i), next = function_next(a->f, i);
	struct patch_reloc r;
	enum patch_skip why;

	memset(ch, 0, sizeof(*ch));
	ch->fn = i;
	if (analysis_is_hook(fn->name))
		why = PATCH_SKIP_HOOK;
	else if (fn->flags & ELF_FUNCTION_NO_CALLER)
		why = PATCH_SKIP_NOT_CALLED;
	else if (end <= fn->start)
		why = PATCH_SKIP_NO_CODE;
	else
		why = window_choose(a, fn->start, end, next, 5, &ch->w);
	if (why == PATCH_OK)
		why = window_relocate(a, &ch->w, &r);
	if (why == PATCH_OK) {
		ch->kind = PATCH_JMP32;
		return;
	}
	ch->why = why;
	if (!smaller_may_do(why))
		return;
	if (window_choose(a, fn->start, end, next, 2, &ch->w) == PATCH_OK &&
	    window_relocate(a, &ch->w, &r) == PATCH_OK)
		ch->kind = PATCH_JMP8;	/* if an island is found */
	else if (window_trap(a, fn->start, end, &ch->w) == PATCH_OK &&
		 window_relocate(a, &ch->w, &r) == PATCH_OK)
		ch->kind = PATCH_INT3;
}

/* Whether [X, X + PATCH_ISLAND) overlaps a window or island of the choices
 * [LO, HI). */
static int taken(const struct choice *ch, size_t lo, size_t hi, uint64_t x)
{
	for (size_t k = lo; k < hi; k++) {
		const struct choice *c = &ch[k];
		if (c->kind && x < c->w.addr + c->w.len && c->w.addr < x + PATCH_ISLAND)
			return 1;
		if (c->kind == PATCH_JMP8 && c->island && x < c->island + PATCH_ISLAND &&
		    c->island < x + PATCH_ISLAND)
			return 1;
	}
	return 0;
}

/* Whether an island of the choices [LO, HI) lies in window W (grown into
 * the padding after it). */
static int islands_in(const struct choice *ch, size_t lo, size_t hi, const struct window *w)
{
	for (size_t k = lo; k < hi; k++)
		if (ch[k].kind == PATCH_JMP8 && ch[k].island &&
		    ch[k].island < w->addr + w->len && w->addr < ch[k].island + PATCH_ISLAND)
			return 1;
	return 0;
}

/* Whether a jmp rel8 ending at FROM reaches X. */
static int in_reach(uint64_t from, uint64_t x)
{
	return x + 128 >= from && x <= from + 127;
}

/*
 * An island for the 2-byte jump of choice J among the choices [LO, HI)
 * around it: past the 5-byte jump of a neighbour's window (grown to hold
 * it when its instructions allow), or in the alignment padding after a
 * neighbour whose last instruction never falls through, where no branch
 * lands.  Returns its address, or 0.
 */
static uint64_t find_island(struct analysis *a, struct choice *ch, size_t lo, size_t hi, size_t j)
{
	uint64_t from = ch[j].w.addr + 2;

	for (size_t k = lo; k < hi; k++) {
		struct choice *h = &ch[k];
		if (h->kind != PATCH_JMP32 || h->hosts || !in_reach(from, h->w.addr + 5) ||
		    !in_reach(from, h->w.addr + 5 + PATCH_ISLAND - 1))
			continue;
		struct window grown = h->w;
		struct patch_reloc r;
		if (grown.len < 5 + PATCH_ISLAND &&
		    (window_at(a, elf_functions_code(a->f, h->w.addr, 1), h->w.addr,
			       function_end(a->f, h->fn), function_next(a->f, h->fn), 5 + PATCH_ISLAND,
			       &grown) != PATCH_OK ||
		     window_relocate(a, &grown, &r) != PATCH_OK || islands_in(ch, lo, hi, &grown)))
			continue;
		h->w = grown;
		h->hosts = 1;
		return h->w.addr + 5;
	}
	for (size_t k = lo; k < hi; k++) {
		size_t i = ch[k].fn;
		uint64_t gap = function_end(a->f, i), next = function_next(a->f, i);
		const struct elf_code *c = elf_functions_code(a->f, gap, 1);
		if (!(a->facts[i] & FUNCTION_STOPS) || !c || !c->exec || next > c->addr + c->size)
			continue;
		for (uint64_t x = gap; x + PATCH_ISLAND <= next; x++) {
			if (!in_reach(from, x) || !in_reach(from, x + PATCH_ISLAND - 1) ||
			    taken(ch, lo, hi, x) || analysis_branch_inside(&a->br, x - 1, x + PATCH_ISLAND))
				continue;
			if (!window_padding(a, c, gap, x + PATCH_ISLAND))
				break;
			return x;
		}
	}
	return 0;
}

/* Adds the site of choice CH, or notes why it has none. */
static void add_choice(struct analysis *a, struct patch_plan *plan, struct patch_coverage *cov,
		       const struct choice *ch)
{
	const struct elf_function *fn = &a->f->funcs[ch->fn];
	struct patch_reloc r;

	if (!ch->kind) {
		patch_coverage_skip(cov, fn->start, fn->name, ch->why);
		return;
	}
	if (window_relocate(a, &ch->w, &r) != PATCH_OK)
		BUG("a window relocated once and not again");
	const struct elf_code *c = elf_functions_code(a->f, ch->w.addr, ch->w.len);
	struct patch_site_at at = { fn->start, fn->name, ch->kind, ch->w.addr, ch->w.len,
				    c->bytes + (ch->w.addr - c->addr), 0, NULL,
				    a->facts[ch->fn] & FUNCTION_SELF_TAIL ? PATCH_SELF_TAIL : 0 };
	if (ch->kind == PATCH_JMP8) {
		const struct elf_code *ic = elf_functions_code(a->f, ch->island, PATCH_ISLAND);
		at.island = ch->island;
		at.island_original = ic->bytes + (ch->island - ic->addr);
	}
	patch_plan_add_site(plan, &at, &r, r.ends ? 0 : ch->w.addr + ch->w.len);
}

/* How far apart (bytes) an island's neighbours may lie, beyond a rel8's reach. */
#define NEIGHBOURHOOD 256

void patch_functions(struct analysis *a, struct patch_plan *plan,
			    struct patch_coverage *cov, struct choice *ch, size_t n)
{
	size_t lo = 0;

	for (size_t j = 0; j < n; j++) {
		if (ch[j].kind != PATCH_JMP8)
			continue;
		uint64_t at = ch[j].w.addr;
		while (a->f->funcs[ch[lo].fn].start + NEIGHBOURHOOD < at)
			lo++;
		size_t hi = j;
		while (hi < n && a->f->funcs[ch[hi].fn].start < at + NEIGHBOURHOOD)
			hi++;
		ch[j].island = find_island(a, ch, lo, hi, j);
		if (ch[j].island)
			continue;
		const struct elf_function *fn = &a->f->funcs[ch[j].fn];
		struct patch_reloc r;
		ch[j].kind = window_trap(a, fn->start, function_end(a->f, ch[j].fn), &ch[j].w) ==
						     PATCH_OK &&
					     window_relocate(a, &ch[j].w, &r) == PATCH_OK
				     ? PATCH_INT3
				     : 0;
	}
	for (size_t j = 0; j < n; j++) {
		cov->found++;
		add_choice(a, plan, cov, &ch[j]);
	}
}

