#include "patch/analyze.h"

#include <stdlib.h>
#include <string.h>

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

/* Collects the branches of the function at [START, END). */
static void scan_function(struct analysis *a, uint64_t start, uint64_t end)
{
	const struct elf_code *c = elf_functions_code(a->f, start, end - start);
	cs_insn *in;

	if (!c || !c->exec)
		return;
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
			continue;
		}
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
 * NEXT: whole instructions up to 5 bytes or more; or, when the function
 * ends (a jump or return) before that, its instructions and the padding
 * after them.
 */
static enum patch_skip window_at(struct analysis *a, const struct elf_code *c, uint64_t p,
				 uint64_t end, uint64_t next, struct window *w)
{
	cs_insn *in = patch_disasm()->malloc(a->cs);
	const uint8_t *q = c->bytes + (p - c->addr);
	size_t left = end - p;
	uint64_t at = p;
	int last_ends = 0;
	enum patch_skip why = PATCH_OK;

	while (at - p < 5 && left && !last_ends) {
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
	if (w->len < 5) {
		/* the code ran out: the jump needs padding behind it */
		uint64_t need = p + 5;
		if (!last_ends || need > next || need > c->addr + c->size ||
		    !padding(a, c, at, need))
			return PATCH_SKIP_TOO_SMALL;
		w->len = 5;
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
				     uint64_t next, struct window *w)
{
	const struct elf_code *c = elf_functions_code(a->f, start, end - start);

	if (!c || !c->exec)
		return PATCH_SKIP_NO_CODE;
	if (end - start < 4 || memcmp(c->bytes + (start - c->addr), endbr64, 4))
		return window_at(a, c, start, end, next, w);
	enum patch_skip why = window_at(a, c, start + 4, end, next, w);
	if (why == PATCH_SKIP_BRANCH_INTO_WINDOW || why == PATCH_SKIP_TOO_SMALL) {
		struct window over;
		if (window_at(a, c, start, end, next, &over) == PATCH_OK) {
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

/* Whether a window refused for WHY may still take a trap at the entry:
 * the code is there and decodes, only no jump fits in it. */
static int trap_may_do(enum patch_skip why)
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

/* Relocates window W of function FN and adds its site of KIND. */
static enum patch_skip add_site(struct analysis *a, struct patch_plan *plan,
				const struct elf_function *fn, const struct window *w,
				enum patch_site_kind kind)
{
	const struct elf_code *c = elf_functions_code(a->f, w->addr, w->len);
	const uint8_t *bytes = c->bytes + (w->addr - c->addr);
	struct patch_reloc r;
	enum patch_skip why = patch_relocate(a->cs, bytes, w->code_len, w->addr,
					     w->addr + w->len, &r);

	if (why == PATCH_OK) {
		struct patch_site_at at = { fn->start, fn->name, kind, w->addr, w->len, bytes };
		patch_plan_add_site(plan, &at, &r, r.ends ? 0 : w->addr + w->len);
	}
	return why;
}

static void patch_function(struct analysis *a, struct patch_plan *plan,
			   struct patch_coverage *cov, size_t i)
{
	const struct elf_function *fn = &a->f->funcs[i];
	uint64_t end = function_end(a->f, i);
	struct window w;
	enum patch_skip why;

	cov->found++;
	if (is_hook(fn->name))
		why = PATCH_SKIP_HOOK;
	else if (fn->flags & ELF_FUNCTION_NO_CALLER)
		why = PATCH_SKIP_NOT_CALLED;
	else if (end <= fn->start)
		why = PATCH_SKIP_NO_CODE;
	else
		why = choose_window(a, fn->start, end, next_start(a->f, i), &w);
	if (why == PATCH_OK)
		why = add_site(a, plan, fn, &w, PATCH_JMP32);
	if (trap_may_do(why) && trap_window(a, fn->start, end, &w) == PATCH_OK &&
	    add_site(a, plan, fn, &w, PATCH_INT3) == PATCH_OK)
		return;
	if (why != PATCH_OK)
		patch_coverage_skip(cov, fn->start, fn->name, why);
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
	for (size_t i = 0; i < f.n; i++) {
		const struct elf_code *c = elf_functions_code(&f, f.funcs[i].start, 1);
		if (c && !c->plt)
			scan_function(&a, f.funcs[i].start, function_end(&f, i));
	}
	qsort(a.br.v, a.br.n, sizeof(*a.br.v), by_target);

	struct patch_coverage *cov = patch_plan_add_object(plan, path, f.build_id,
							   f.build_id_len);
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
		patch_function(&a, plan, cov, i);
	}
	free(a.br.v);
	patch_capstone_close(a.cs);
	elf_functions_release(&f);
	return 0;
}
