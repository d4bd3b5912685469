#include "patch/analyze.h"

#include <stdlib.h>
#include <string.h>

#include "die.h"
#include "symbols/functions.h"
#include "xalloc.h"

enum branch_kind {
	BRANCH_CALL,
	BRANCH_JUMP,		/* jmp, jcc, loop, a jump table's entry */
	BRANCH_ADDRESS,		/* lea of a code address: a computed goto, a pointer */
};

struct branch {
	uint64_t target;
	uint64_t from;		/* start of the function holding the branch */
	enum branch_kind kind;
};

struct branches {
	struct branch *v;
	size_t n, alloc;
};

/* What the jump-table matcher remembers of the instructions before a
 * `jmp reg`. */
struct recent {
	unsigned id;
	x86_reg dst;		/* first operand, when a register */
	x86_reg base, index;	/* second operand, when memory */
	int scale;
	int64_t disp;
	int64_t imm;		/* second operand, when an immediate */
	int has_imm;
};

#define RECENT 16
#define TABLE_MAX 4096

struct analysis {
	const struct elf_functions *f;
	csh cs;
	struct branches br;
	uint8_t *stops;		/* per function: its last instruction never falls through */
	struct recent recent[RECENT];
	size_t nrecent;
};

static void add_branch(struct analysis *a, uint64_t target, uint64_t from, enum branch_kind kind)
{
	ALLOC_GROW(a->br.v, a->br.n + 1, a->br.alloc);
	a->br.v[a->br.n++] = (struct branch){ target, from, kind };
}

static int in_code(const struct elf_functions *f, uint64_t addr)
{
	const struct elf_code *c = elf_functions_code(f, addr, 1);
	return c && c->exec;
}

static int read_le(const struct elf_functions *f, uint64_t addr, unsigned size, uint64_t *v)
{
	const struct elf_code *c = elf_functions_code(f, addr, size);
	if (!c)
		return -1;
	*v = 0;
	memcpy(v, c->bytes + (addr - c->addr), size);
	return 0;
}

static const struct recent *recent_at(const struct analysis *a, size_t back)
{
	return back < a->nrecent && back < RECENT
		       ? &a->recent[(a->nrecent - 1 - back) % RECENT] : NULL;
}

/* The entry count of the table a `jmp` reads: one more than the bound
 * the index was compared with just before, else 0 (unknown). */
static uint64_t table_bound(const struct analysis *a)
{
	for (size_t k = 0; k < RECENT; k++) {
		const struct recent *r = recent_at(a, k);
		if (!r)
			break;
		if (r->id == X86_INS_CMP && r->has_imm && r->imm >= 0 && r->imm < TABLE_MAX)
			return (uint64_t)r->imm + 1;
	}
	return 0;
}

/*
 * The entries of a jump table, as compilers lay them out:
 *   lea B,[rip+T]; movsxd R,[B+I*4]; add R,B; jmp R      (PIC: T + int32)
 *   mov R,[I*8+T]; jmp R   or   jmp [I*8+T]              (absolute u64)
 * With no bound compared just before, entries are read while they land
 * in code: extra targets only refuse more windows, never fewer.
 */
static void add_table(struct analysis *a, uint64_t table, int relative, uint64_t from)
{
	uint64_t n = table_bound(a);
	uint64_t limit = n ? n : TABLE_MAX;

	for (uint64_t k = 0; k < limit; k++) {
		uint64_t v, target;
		if (read_le(a->f, table + k * (relative ? 4 : 8), relative ? 4 : 8, &v))
			break;
		target = relative ? table + (uint64_t)(int64_t)(int32_t)v : v;
		if (!in_code(a->f, target)) {
			if (n)
				continue;
			break;
		}
		add_branch(a, target, from, BRANCH_JUMP);
	}
}

static void match_table(struct analysis *a, const cs_insn *in, uint64_t from)
{
	const cs_x86 *x = &in->detail->x86;

	if (x->operands[0].type == X86_OP_MEM) {
		const x86_op_mem *m = &x->operands[0].mem;
		if (m->base == X86_REG_INVALID && m->index != X86_REG_INVALID && m->scale == 8)
			add_table(a, (uint64_t)m->disp, 0, from);
		return;
	}
	for (size_t k = 0; k < RECENT; k++) {
		const struct recent *r = recent_at(a, k);
		if (!r)
			return;
		if (r->id == X86_INS_MOV && r->base == X86_REG_INVALID &&
		    r->index != X86_REG_INVALID && r->scale == 8) {
			add_table(a, (uint64_t)r->disp, 0, from);
			return;
		}
		if (r->id != X86_INS_MOVSXD || r->scale != 4 || r->base == X86_REG_INVALID)
			continue;
		for (size_t j = k + 1; j < RECENT; j++) {
			const struct recent *l = recent_at(a, j);
			if (!l)
				return;
			if (l->id == X86_INS_LEA && l->dst == r->base && l->base == X86_REG_RIP) {
				add_table(a, (uint64_t)l->disp, 1, from);
				return;
			}
		}
		return;
	}
}

static void remember(struct analysis *a, const cs_insn *in)
{
	const cs_x86 *x = &in->detail->x86;
	struct recent r = { in->id, X86_REG_INVALID, X86_REG_INVALID, X86_REG_INVALID, 0, 0, 0, 0 };

	if (x->op_count >= 1 && x->operands[0].type == X86_OP_REG)
		r.dst = x->operands[0].reg;
	if (x->op_count >= 2 && x->operands[1].type == X86_OP_MEM) {
		r.base = x->operands[1].mem.base;
		r.index = x->operands[1].mem.index;
		r.scale = x->operands[1].mem.scale;
		/* a RIP-relative one as its absolute address */
		r.disp = r.base == X86_REG_RIP
				 ? (int64_t)(in->address + in->size) + x->operands[1].mem.disp
				 : x->operands[1].mem.disp;
	}
	if (x->op_count >= 2 && x->operands[1].type == X86_OP_IMM) {
		r.imm = x->operands[1].imm;
		r.has_imm = 1;
	}
	a->recent[a->nrecent++ % RECENT] = r;
}

static int is_relative_branch(csh cs, const cs_insn *in)
{
	const cs_x86 *x = &in->detail->x86;
	return x->op_count == 1 && x->operands[0].type == X86_OP_IMM &&
	       (patch_disasm()->insn_group(cs, in, X86_GRP_JUMP) || in->id == X86_INS_CALL);
}

/* Whether the flow never goes on past IN (padding after it is never run). */
static int stops_flow(const cs_insn *in)
{
	return in->id == X86_INS_JMP || in->id == X86_INS_RET || in->id == X86_INS_UD2 ||
	       in->id == X86_INS_HLT;
}

/* Collects the branches of the function at [START, END); returns whether
 * its last instruction stops the flow. */
static int scan_function(struct analysis *a, uint64_t start, uint64_t end)
{
	const struct elf_code *c = elf_functions_code(a->f, start, end - start);
	cs_insn *in;

	int stops = 0;

	if (!c || !c->exec)
		return 0;
	in = patch_disasm()->malloc(a->cs);
	const uint8_t *p = c->bytes + (start - c->addr);
	size_t left = end - start;
	uint64_t at = start;
	a->nrecent = 0;
	while (left) {
		if (!patch_disasm()->disasm_iter(a->cs, &p, &left, &at, in)) {
			/* data or an unknown instruction: resynchronise */
			p++, left--, at++;
			a->nrecent = 0;
			stops = 0;
			continue;
		}
		stops = stops_flow(in);
		const cs_x86 *x = &in->detail->x86;
		if (is_relative_branch(a->cs, in)) {
			add_branch(a, (uint64_t)x->operands[0].imm, start,
				   in->id == X86_INS_CALL ? BRANCH_CALL : BRANCH_JUMP);
		} else if (in->id == X86_INS_JMP) {
			match_table(a, in, start);
		} else if (in->id == X86_INS_LEA && x->operands[1].mem.base == X86_REG_RIP) {
			uint64_t t = in->address + in->size + (uint64_t)x->operands[1].mem.disp;
			if (in_code(a->f, t))
				add_branch(a, t, start, BRANCH_ADDRESS);
		}
		remember(a, in);
	}
	patch_disasm()->free(in, 1);
	return stops;
}

static int by_target(const void *x, const void *y)
{
	const struct branch *p = x, *q = y;
	return p->target < q->target ? -1 : p->target > q->target;
}

/* The first branch whose target is at or above ADDR. */
static size_t first_branch(const struct branches *br, uint64_t addr)
{
	size_t lo = 0, hi = br->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (br->v[mid].target < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Whether a known branch lands in the open range (LO, HI). */
static int branch_inside(const struct branches *br, uint64_t lo, uint64_t hi)
{
	size_t i = first_branch(br, lo + 1);
	return i < br->n && br->v[i].target < hi;
}

/* A part of another function, not one of its own: split off by name, or
 * a nameless FDE that code only jumps to from elsewhere. */
static int is_fragment(const struct analysis *a, const struct elf_function *fn)
{
	if (fn->name)
		return strstr(fn->name, ".cold") || strstr(fn->name, ".part.");
	int jumped = 0;
	for (size_t i = first_branch(&a->br, fn->start);
	     i < a->br.n && a->br.v[i].target == fn->start; i++) {
		if (a->br.v[i].kind != BRANCH_JUMP)
			return 0;
		jumped |= a->br.v[i].from != fn->start;
	}
	return jumped;
}

static int is_hook(const char *name)
{
	static const char *const hooks[] = {
		"mcount", "_mcount", "__fentry__", "__cyg_profile_func_enter",
		"__cyg_profile_func_exit", "__gnu_mcount_nc",
	};
	if (!name)
		return 0;
	for (size_t i = 0; i < sizeof(hooks) / sizeof(*hooks); i++)
		if (!strcmp(name, hooks[i]))
			return 1;
	return !strncmp(name, "callscope_", 10);
}

static const uint8_t endbr64[4] = { 0xf3, 0x0f, 0x1e, 0xfa };

/* Whether [FROM, TO) holds only alignment padding: nops and int3. */
static int padding(struct analysis *a, const struct elf_code *c, uint64_t from, uint64_t to)
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

struct window {
	uint64_t addr;		/* where the jump goes */
	unsigned len;		/* bytes it replaces */
	unsigned code_len;	/* of those, the function's own instructions */
};

/*
 * The window at P of the function [START, END) whose neighbour starts at
 * NEXT: whole instructions up to MIN bytes or more (5 for a jmp rel32, 2
 * for a jmp rel8, more for a window that holds an island too); or, when
 * the function ends (a jump or return) before that, its instructions and
 * the padding after them.
 */
static enum patch_skip window_at(struct analysis *a, const struct elf_code *c, uint64_t p,
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
		    !padding(a, c, at, need))
			return PATCH_SKIP_TOO_SMALL;
		w->len = min;
	}
	if (w->len > PATCH_WINDOW_MAX)
		return PATCH_SKIP_LONG_WINDOW;
	if (p + w->len > next)
		return PATCH_SKIP_TOO_SMALL;
	if (branch_inside(&a->br, p, p + w->len))
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
static enum patch_skip choose_window(struct analysis *a, uint64_t start, uint64_t end,
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
static uint64_t function_end(const struct elf_functions *f, size_t i)
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
static uint64_t next_start(const struct elf_functions *f, size_t i)
{
	return i + 1 < f->n ? f->funcs[i + 1].start : UINT64_MAX;
}

/* Whether a window refused for WHY may still take a shorter jump or a
 * trap at the entry: the code is there and decodes, only no 5-byte jump
 * fits in it. */
static int smaller_may_do(enum patch_skip why)
{
	return why == PATCH_SKIP_BRANCH_INTO_WINDOW || why == PATCH_SKIP_TOO_SMALL ||
	       why == PATCH_SKIP_LONG_WINDOW || why == PATCH_SKIP_UNRELOCATABLE ||
	       why == PATCH_SKIP_CALL_IN_WINDOW;
}

/*
 * The last resort for the function at START: an int3 over its first
 * instruction (an endbr64 included, so that a loop head right after it
 * stays free of the trap), that instruction relocated.  One byte fits
 * any function; only a branch into the middle of that instruction, or an
 * instruction that cannot move, refuses it.
 */
static enum patch_skip trap_window(struct analysis *a, uint64_t start, uint64_t end,
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
	if (branch_inside(&a->br, start, at))
		return PATCH_SKIP_BRANCH_INTO_WINDOW;
	return PATCH_OK;
}

/* Relocates window W into *R (capstone's verdict on moving it). */
static enum patch_skip relocate(struct analysis *a, const struct window *w, struct patch_reloc *r)
{
	const struct elf_code *c = elf_functions_code(a->f, w->addr, w->len);
	return patch_relocate(a->cs, c->bytes + (w->addr - c->addr), w->code_len, w->addr,
			      w->addr + w->len, r);
}

/* How one function is patched, decided before the sites are added: a
 * 2-byte jump needs an island found among its neighbours' choices. */
struct choice {
	size_t fn;		/* index in the object's functions */
	enum patch_site_kind kind;	/* 0: skipped for WHY */
	enum patch_skip why;
	struct window w;
	uint64_t island;	/* PATCH_JMP8 */
	int hosts;		/* a PATCH_JMP32 window holding an island past its jump */
};

/* Decides how function I is patched, islands aside. */
static void decide(struct analysis *a, size_t i, struct choice *ch)
{
	const struct elf_function *fn = &a->f->funcs[i];
	uint64_t end = function_end(a->f, i), next = next_start(a->f, i);
	struct patch_reloc r;
	enum patch_skip why;

	memset(ch, 0, sizeof(*ch));
	ch->fn = i;
	if (is_hook(fn->name))
		why = PATCH_SKIP_HOOK;
	else if (fn->flags & ELF_FUNCTION_NO_CALLER)
		why = PATCH_SKIP_NOT_CALLED;
	else if (end <= fn->start)
		why = PATCH_SKIP_NO_CODE;
	else
		why = choose_window(a, fn->start, end, next, 5, &ch->w);
	if (why == PATCH_OK)
		why = relocate(a, &ch->w, &r);
	if (why == PATCH_OK) {
		ch->kind = PATCH_JMP32;
		return;
	}
	ch->why = why;
	if (!smaller_may_do(why))
		return;
	if (choose_window(a, fn->start, end, next, 2, &ch->w) == PATCH_OK &&
	    relocate(a, &ch->w, &r) == PATCH_OK)
		ch->kind = PATCH_JMP8;	/* if an island is found */
	else if (trap_window(a, fn->start, end, &ch->w) == PATCH_OK &&
		 relocate(a, &ch->w, &r) == PATCH_OK)
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
			       function_end(a->f, h->fn), next_start(a->f, h->fn), 5 + PATCH_ISLAND,
			       &grown) != PATCH_OK ||
		     relocate(a, &grown, &r) != PATCH_OK || islands_in(ch, lo, hi, &grown)))
			continue;
		h->w = grown;
		h->hosts = 1;
		return h->w.addr + 5;
	}
	for (size_t k = lo; k < hi; k++) {
		size_t i = ch[k].fn;
		uint64_t gap = function_end(a->f, i), next = next_start(a->f, i);
		const struct elf_code *c = elf_functions_code(a->f, gap, 1);
		if (!a->stops[i] || !c || !c->exec || next > c->addr + c->size)
			continue;
		for (uint64_t x = gap; x + PATCH_ISLAND <= next; x++) {
			if (!in_reach(from, x) || !in_reach(from, x + PATCH_ISLAND - 1) ||
			    taken(ch, lo, hi, x) || branch_inside(&a->br, x - 1, x + PATCH_ISLAND))
				continue;
			if (!padding(a, c, gap, x + PATCH_ISLAND))
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
	if (relocate(a, &ch->w, &r) != PATCH_OK)
		BUG("a window relocated once and not again");
	const struct elf_code *c = elf_functions_code(a->f, ch->w.addr, ch->w.len);
	struct patch_site_at at = { fn->start, fn->name, ch->kind, ch->w.addr, ch->w.len,
				    c->bytes + (ch->w.addr - c->addr), 0, NULL };
	if (ch->kind == PATCH_JMP8) {
		const struct elf_code *ic = elf_functions_code(a->f, ch->island, PATCH_ISLAND);
		at.island = ch->island;
		at.island_original = ic->bytes + (ch->island - ic->addr);
	}
	patch_plan_add_site(plan, &at, &r, r.ends ? 0 : ch->w.addr + ch->w.len);
}

/* How far apart (bytes) an island's neighbours may lie, beyond a rel8's reach. */
#define NEIGHBOURHOOD 256

/*
 * Patches the wanted functions CH[0..N) (by address): a 5-byte jump
 * where one fits; else a 2-byte jump to an island near it; else an int3.
 */
static void patch_functions(struct analysis *a, struct patch_plan *plan,
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
		ch[j].kind = trap_window(a, fn->start, function_end(a->f, ch[j].fn), &ch[j].w) ==
						     PATCH_OK &&
					     relocate(a, &ch[j].w, &r) == PATCH_OK
				     ? PATCH_INT3
				     : 0;
	}
	for (size_t j = 0; j < n; j++) {
		cov->found++;
		add_choice(a, plan, cov, &ch[j]);
	}
}

int patch_analyze_object(struct patch_plan *plan, const char *path, patch_wanted_fn wanted,
			 void *ctx)
{
	struct elf_functions f;
	struct analysis a;

	if (elf_functions_load(path, &f) != 0)
		return -1;
	memset(&a, 0, sizeof(a));
	a.f = &f;
	a.cs = patch_capstone_open();
	a.stops = xcalloc(f.n ? f.n : 1, 1);
	for (size_t i = 0; i < f.n; i++) {
		const struct elf_code *c = elf_functions_code(&f, f.funcs[i].start, 1);
		if (c && !c->plt)
			a.stops[i] = (uint8_t)scan_function(&a, f.funcs[i].start, function_end(&f, i));
	}
	qsort(a.br.v, a.br.n, sizeof(*a.br.v), by_target);

	struct patch_coverage *cov = patch_plan_add_object(plan, path, f.build_id,
							   f.build_id_len);
	struct choice *ch = xcalloc(f.n ? f.n : 1, sizeof(*ch));
	size_t n = 0;
	for (size_t i = 0; i < f.n; i++) {
		const struct elf_function *fn = &f.funcs[i];
		const struct elf_code *c = elf_functions_code(&f, fn->start, 1);
		if (c && c->plt)
			continue;
		const struct elf_alias *alias;
		size_t naliases = elf_functions_aliases(&f, fn->start, &alias);
		int want = wanted(ctx, fn->name);
		for (size_t k = 0; k < naliases; k++)
			want |= wanted(ctx, alias[k].name);
		if (!want)
			continue;
		if (is_fragment(&a, fn)) {
			cov->fragments++;
			continue;
		}
		decide(&a, i, &ch[n++]);
	}
	patch_functions(&a, plan, cov, ch, n);
	free(ch);
	free(a.stops);
	free(a.br.v);
	patch_capstone_close(a.cs);
	elf_functions_release(&f);
	return 0;
}
