#include "patch/analyze.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "partition.h"
#include "patch/analysis.h"
#include "xalloc.h"

#define TABLE_MAX 4096

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

/* Whether IN gives back stack the function took: an epilogue's pop,
 * leave, or add or lea to %rsp. */
static int takes_down_frame(const struct recent *in)
{
	if (!in)
		return 0;
	if (in->id == X86_INS_LEAVE)
		return 1;
	if (in->id == X86_INS_POP)
		return in->dst != X86_REG_RSP && in->dst != X86_REG_INVALID;
	return (in->id == X86_INS_ADD || in->id == X86_INS_LEA) && in->dst == X86_REG_RSP;
}

/*
 * A jump to the function's own entry right after its epilogue is a tail
 * call to itself (gcc's sibling call, where no loop replaced the
 * recursion): a -pg build jumps back to its hook, and gdb's breakpoint at
 * the entry is hit again.  Any other jump to the entry is taken for a
 * loop whose head is the first instruction (from a function without a
 * frame it may be either), which a -pg build starts past its hook: no
 * new call.
 */
static int self_tail_call(const struct analysis *a, const cs_insn *in, uint64_t start)
{
	const cs_x86 *x = &in->detail->x86;

	return in->id != X86_INS_CALL && (uint64_t)x->operands[0].imm == start &&
	       takes_down_frame(recent_at(a, 0));
}

int analysis_scan(struct analysis *a, uint64_t start, uint64_t end)
{
	const struct elf_code *c = elf_functions_code(a->f, start, end - start);
	cs_insn *in;

	int stops = 0, facts = 0;

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
			if (self_tail_call(a, in, start))
				facts |= FUNCTION_SELF_TAIL;
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
	return facts | (stops ? FUNCTION_STOPS : 0);
}

int analysis_by_target(const void *x, const void *y)
{
	const struct branch *p = x, *q = y;
	return p->target < q->target ? -1 : p->target > q->target;
}

/* The first branch whose target is at or above ADDR. */
static size_t first_branch(const struct branches *br, uint64_t addr)
{
	size_t lo = PARTITION_POINT(br->n, mid, br->v[mid].target < addr);
	return lo;
}

int analysis_branch_inside(const struct branches *br, uint64_t lo, uint64_t hi)
{
	size_t i = first_branch(br, lo + 1);
	return i < br->n && br->v[i].target < hi;
}

/*
 * A part split off a function (gcc's .cold, the blocks
 * -freorder-blocks-and-partition moves away) begins inside its parent's
 * frame, while every function, called or only jumped to (a tail call),
 * begins with the return address on top: the CFI at the start tells them
 * apart, named or stripped.  A .part.N clone (partial inlining) is a
 * function of its own, called.  The name .cold also marks the parts of a
 * parent without a frame (their CFA is rsp + 8 as well: an exception's
 * landing pad, mostly).  Where no CFI judges an unnamed start, a start
 * that every branch reaches by a jump from elsewhere is taken for a part.
 */
int analysis_is_fragment(const struct analysis *a, const struct elf_function *fn)
{
	if (fn->flags & ELF_FUNCTION_INSIDE_FRAME)
		return 1;
	if (fn->name)
		return strstr(fn->name, ".cold") != NULL;
	if (fn->flags & ELF_FUNCTION_ENTRY_FRAME)
		return 0;
	int jumped = 0;
	for (size_t i = first_branch(&a->br, fn->start);
	     i < a->br.n && a->br.v[i].target == fn->start; i++) {
		if (a->br.v[i].kind != BRANCH_JUMP)
			return 0;
		jumped |= a->br.v[i].from != fn->start;
	}
	return jumped;
}

int analysis_is_hook(const char *name)
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

/* At most this many threads scan an object, and each at least this many
 * functions: the scan, a disassembly of every function, is nearly all of
 * the planning (0.8 s for a 9 MB program). */
#define SCAN_THREADS_MAX 8
#define SCAN_FUNCTIONS_MIN 1000

/* The functions [from, to) of one object, scanned by one thread with a
 * disassembler and branches of its own. */
struct scan_part {
	struct analysis a;
	size_t from, to;
};

static void *scan_functions(void *arg)
{
	struct scan_part *part = arg;
	const struct elf_functions *f = part->a.f;

	for (size_t i = part->from; i < part->to; i++) {
		const struct elf_code *c = elf_functions_code(f, f->funcs[i].start, 1);
		if (c && !c->plt)
			part->a.facts[i] = (uint8_t)analysis_scan(&part->a, f->funcs[i].start,
								  function_end(f, i));
	}
	if (part->a.br.n)
		qsort(part->a.br.v, part->a.br.n, sizeof(*part->a.br.v), analysis_by_target);
	return NULL;
}

/* Merges the parts' sorted branches into A's, by target.  (Branches of
 * one target may come in any order: their readers look at them all.) */
static void merge_branches(struct analysis *a, struct scan_part *parts, size_t nparts)
{
	size_t total = 0, at[SCAN_THREADS_MAX] = { 0 };

	for (size_t k = 0; k < nparts; k++)
		total += parts[k].a.br.n;
	ALLOC_GROW(a->br.v, total, a->br.alloc);
	for (a->br.n = 0; a->br.n < total; a->br.n++) {
		size_t best = nparts;
		for (size_t k = 0; k < nparts; k++)
			if (at[k] < parts[k].a.br.n &&
			    (best == nparts ||
			     parts[k].a.br.v[at[k]].target < parts[best].a.br.v[at[best]].target))
				best = k;
		a->br.v[a->br.n] = parts[best].a.br.v[at[best]++];
	}
}

/*
 * Scans every function of A's object into A's branches, sorted by target,
 * and its facts, on as many threads as there are processors (within the
 * bounds above), each taking a run of functions and sorting its own
 * branches.
 */
static void scan_object(struct analysis *a)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t n = a->f->n, nparts = n / SCAN_FUNCTIONS_MIN;
	struct scan_part parts[SCAN_THREADS_MAX];
	pthread_t threads[SCAN_THREADS_MAX];

	if (nparts > SCAN_THREADS_MAX)
		nparts = SCAN_THREADS_MAX;
	if (cpus > 0 && nparts > (size_t)cpus)
		nparts = (size_t)cpus;
	if (!nparts)
		nparts = 1;
	/* runs of about the same bytes of code, which the time follows */
	uint64_t bytes = 0, done = 0;
	for (size_t i = 0; i < n; i++)
		bytes += function_end(a->f, i) - a->f->funcs[i].start;
	size_t i = 0;
	for (size_t k = 0; k < nparts; k++) {
		parts[k].a = (struct analysis){ .f = a->f, .facts = a->facts };
		parts[k].a.cs = k ? patch_capstone_open() : a->cs;
		parts[k].from = i;
		while (i < n && (k == nparts - 1 || done < bytes / nparts * (k + 1)))
			done += function_end(a->f, i) - a->f->funcs[i].start, i++;
		parts[k].to = i;
	}
	size_t started = 1;
	while (started < nparts &&
	       pthread_create(&threads[started], NULL, scan_functions, &parts[started]) == 0)
		started++;
	scan_functions(&parts[0]);
	for (size_t k = 1; k < nparts; k++) {
		if (k < started)
			pthread_join(threads[k], NULL);
		else
			scan_functions(&parts[k]);	/* no thread: here */
	}
	merge_branches(a, parts, nparts);
	for (size_t k = 0; k < nparts; k++) {
		free(parts[k].a.br.v);
		if (k)
			patch_capstone_close(parts[k].a.cs);
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
	a.facts = xcalloc(f.n ? f.n : 1, 1);
	scan_object(&a);

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
		if (analysis_is_fragment(&a, fn)) {
			cov->fragments++;
			continue;
		}
		choice_decide(&a, i, &ch[n++]);
	}
	patch_functions(&a, plan, cov, ch, n);
	free(ch);
	free(a.facts);
	free(a.br.v);
	patch_capstone_close(a.cs);
	elf_functions_release(&f);
	return 0;
}
