/*
 * What patch/analyze.c learns of one object and the other parts of the
 * planner share: the branches every function holds (analyze.c), the
 * windows a jump, a short jump or a trap would take at an entry
 * (window.c), and the choice among them with the islands short jumps
 * need (choose.c).  Private to patch/.
 */
#ifndef CALLSCOPE_PATCH_ANALYSIS_H
#define CALLSCOPE_PATCH_ANALYSIS_H

#include "patch/plan.h"
#include "patch/relocate.h"
#include "symbols/functions.h"

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

/* What the scan of a function finds out about it as a whole. */
enum function_facts {
	FUNCTION_STOPS = 1 << 0,	/* its last instruction never falls through */
	FUNCTION_SELF_TAIL = 1 << 1,	/* it jumps to its own entry after taking
					 * down its frame: a tail call to itself */
};

struct analysis {
	const struct elf_functions *f;
	csh cs;
	struct branches br;
	uint8_t *facts;		/* per function: enum function_facts */
	struct recent recent[RECENT];
	size_t nrecent;
};


/* analyze.c */
/* Collects the branches of the function at [START, END); returns its
 * enum function_facts. */
int analysis_scan(struct analysis *a, uint64_t start, uint64_t end);
int analysis_by_target(const void *x, const void *y);
/* Whether a known branch lands in the open range (LO, HI). */
int analysis_branch_inside(const struct branches *br, uint64_t lo, uint64_t hi);
/* A part of another function, not one of its own: one that begins inside
 * a frame, a .cold one, or, where no CFI says, a nameless start that code
 * only jumps to from elsewhere. */
int analysis_is_fragment(const struct analysis *a, const struct elf_function *fn);
int analysis_is_hook(const char *name);

/* window.c */
struct window {
	uint64_t addr;		/* where the jump goes */
	unsigned len;		/* bytes it replaces */
	unsigned code_len;	/* of those, the function's own instructions */
};

/* Whether [FROM, TO) of C holds only alignment padding: nops and int3. */
int window_padding(struct analysis *a, const struct elf_code *c, uint64_t from, uint64_t to);
/*
 * The window at P of the function [START, END) whose neighbour starts at
 * NEXT: whole instructions up to MIN bytes or more (5 for a jmp rel32, 2
 * for a jmp rel8, more for a window that holds an island too); or, when
 * the function ends (a jump or return) before that, its instructions and
 * the padding after them.
 */
enum patch_skip window_at(struct analysis *a, const struct elf_code *c, uint64_t p, uint64_t end,
			  uint64_t next, unsigned min, struct window *w);
/* The window of MIN bytes or more of the function [START, END): after its
 * endbr64 when it has one, else over it when that one is refused. */
enum patch_skip window_choose(struct analysis *a, uint64_t start, uint64_t end, uint64_t next,
			      unsigned min, struct window *w);
/* A trap's window at START: its first instruction. */
enum patch_skip window_trap(struct analysis *a, uint64_t start, uint64_t end, struct window *w);
/* Relocates window W into *R (capstone's verdict on moving it). */
enum patch_skip window_relocate(struct analysis *a, const struct window *w, struct patch_reloc *r);
/* The end of function I: its size, else the next function or its section's end. */
uint64_t function_end(const struct elf_functions *f, size_t i);
/* The next function start above function I's. */
uint64_t function_next(const struct elf_functions *f, size_t i);

/* choose.c */
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
void choice_decide(struct analysis *a, size_t i, struct choice *ch);
/*
 * Patches the wanted functions CH[0..N) (by address): a 5-byte jump
 * where one fits; else a 2-byte jump to an island near it; else an int3.
 */
void patch_functions(struct analysis *a, struct patch_plan *plan, struct patch_coverage *cov,
		     struct choice *ch, size_t n);

#endif
