/*
 * Unwind information (.eh_frame) for the code the runtime makes or
 * returns through, so that an unwinder meeting it walks on to the
 * program's frames: libgcc's (C++ exceptions, _Unwind_Backtrace,
 * backtrace(), thread cancellation) and gdb's.  unwind_register.c hands
 * it to both.
 *
 * A trampoline slot (layout in patch.h) is described as the function it
 * stands for at its entry: the CFA is 8 above the stack pointer, the
 * return address at CFA - 8.  From the call of the body until the exit
 * hook is called, the function's return-address slot is the body's (it
 * holds the trampoline's return point) and the stack pointer lies just
 * above it: the CFA is the stack pointer, and the real return address is
 * the one the shadow stack keeps for that slot.  No register or stack
 * word leads to it, so the rule is a DWARF expression that searches the
 * shadow stacks of the threads listed in unwind_threads.c for the frame
 * whose slot is CFA - 8, newest first, and yields its real return address
 * (0, the end of the stack, if none is found).  A tail-called function
 * entered from such a slot has a frame of its own there whose "real"
 * return address is what the slot holds: the search passes over it,
 * which also keeps an unwinder from going round in circles.  The return
 * points the runtime writes into slots (the -pg return trampoline, the
 * one after dlopen) get the same rule, for the address just before them
 * where an unwinder looks up a return address.
 *
 * The body, the function's displaced first instructions, is described as
 * far as they are understood: pushes, stack pointer adjustments and moves
 * between registers, which is what function entries hold.  From the first
 * other instruction on, the body has no unwind information (an unwinder
 * stops there, as it would in unknown code) rather than a wrong one.
 */
#include "patch.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

enum {
	DW_CFA_advance_loc = 0x40,
	DW_CFA_offset = 0x80,
	DW_CFA_nop = 0x00,
	DW_CFA_advance_loc1 = 0x02,
	DW_CFA_def_cfa = 0x0c,
	DW_CFA_def_cfa_offset = 0x0e,
	DW_CFA_val_expression = 0x16,

	DW_OP_addr = 0x03,
	DW_OP_deref = 0x06,
	DW_OP_constu = 0x10,
	DW_OP_dup = 0x12,
	DW_OP_drop = 0x13,
	DW_OP_over = 0x14,
	DW_OP_pick = 0x15,
	DW_OP_swap = 0x16,
	DW_OP_minus = 0x1c,
	DW_OP_mul = 0x1e,
	DW_OP_plus = 0x22,
	DW_OP_plus_uconst = 0x23,
	DW_OP_bra = 0x28,
	DW_OP_eq = 0x29,
	DW_OP_ge = 0x2a,
	DW_OP_le = 0x2c,
	DW_OP_ne = 0x2e,
	DW_OP_skip = 0x2f,
	DW_OP_lit0 = 0x30,
	DW_OP_lit8 = 0x38,
	DW_OP_deref_size = 0x94,
};

/* x86-64 DWARF register numbers */
#define DWARF_REG_RSP 7
#define DWARF_REG_RA 16

static void put(struct eh_frame *f, const void *bytes, size_t n)
{
	if (f->failed)
		return;
	if (f->len + n > f->cap) {
		size_t cap = f->cap ? f->cap * 2 : 4096;
		while (cap < f->len + n)
			cap *= 2;
		uint8_t *d = realloc(f->data, cap);
		if (!d) {
			f->failed = 1;
			return;
		}
		f->data = d;
		f->cap = cap;
	}
	memcpy(f->data + f->len, bytes, n);
	f->len += n;
}

static void put_u8(struct eh_frame *f, uint8_t v)
{
	put(f, &v, 1);
}

static void put_uleb(struct eh_frame *f, uint64_t v)
{
	do {
		uint8_t b = v & 0x7f;
		v >>= 7;
		put_u8(f, b | (v ? 0x80 : 0));
	} while (v);
}

static void put_u32_at(struct eh_frame *f, size_t at, uint32_t v)
{
	if (!f->failed)
		memcpy(f->data + at, &v, 4);
}

/* A DWARF expression being written, with forward and backward branches
 * to labels resolved at the end. */
enum label { OUTER, HAVE, INNER, PASS_OVER, NEXT, NOT_FOUND, END, LABELS };
struct expr {
	uint8_t b[160];
	size_t n;
	size_t label[LABELS];
	struct {
		size_t at;
		enum label to;
	} branch[12];
	int nbranch;
};

static void op(struct expr *x, uint8_t b)
{
	x->b[x->n++] = b;
}

static void op_uleb(struct expr *x, uint8_t o, uint64_t v)
{
	op(x, o);
	do {
		uint8_t b = v & 0x7f;
		v >>= 7;
		op(x, b | (v ? 0x80 : 0));
	} while (v);
}

static void op_addr(struct expr *x, uint64_t a)
{
	op(x, DW_OP_addr);
	memcpy(x->b + x->n, &a, 8);
	x->n += 8;
}

static void op_branch(struct expr *x, uint8_t o, enum label to)
{
	op(x, o);
	x->branch[x->nbranch].at = x->n;
	x->branch[x->nbranch++].to = to;
	x->n += 2;
}

static void place(struct expr *x, enum label l)
{
	x->label[l] = x->n;
}

/*
 * The search (see the top of the file) as a DWARF expression; the
 * unwinder pushes the CFA before running it.  The comments show the
 * stack above the CFA, its bottom first.
 */
static void put_search(struct eh_frame *f)
{
	struct expr x = { .n = 0 };

	/* the CFA stays at the bottom: libgcc refuses to pick the bottom
	 * element (its DW_OP_pick checks offset < depth - 1) */
	op(&x, DW_OP_dup), op(&x, DW_OP_lit8), op(&x, DW_OP_minus);	/* slot */
	op(&x, DW_OP_dup), op(&x, DW_OP_deref);				/* slot cur */
	op_addr(&x, (uintptr_t)unwind_threads);				/* slot cur p */
	place(&x, OUTER);
	op(&x, DW_OP_dup), op_addr(&x, (uintptr_t)&unwind_threads_end), op(&x, DW_OP_deref);
	op(&x, DW_OP_ge), op_branch(&x, DW_OP_bra, NOT_FOUND);	/* p past the last */
	op(&x, DW_OP_dup), op(&x, DW_OP_deref), op(&x, DW_OP_dup);	/* slot cur p t t */
	op_branch(&x, DW_OP_bra, HAVE);
	op(&x, DW_OP_drop), op_uleb(&x, DW_OP_plus_uconst, sizeof(void *));
	op_branch(&x, DW_OP_skip, OUTER);
	place(&x, HAVE);						/* slot cur p t */
	op(&x, DW_OP_dup), op_uleb(&x, DW_OP_plus_uconst, offsetof(struct thread_state, stack));
	op(&x, DW_OP_deref);						/* slot cur p t base */
	op(&x, DW_OP_swap), op_uleb(&x, DW_OP_plus_uconst, offsetof(struct thread_state, depth));
	op(&x, DW_OP_deref_size), op(&x, sizeof(uint32_t));		/* slot cur p base depth */
	op_uleb(&x, DW_OP_constu, sizeof(struct shadow_frame)), op(&x, DW_OP_mul);
	op(&x, DW_OP_over), op(&x, DW_OP_plus);				/* slot cur p base f */
	place(&x, INNER);
	op(&x, DW_OP_dup), op(&x, DW_OP_pick), op(&x, 2), op(&x, DW_OP_le);
	op_branch(&x, DW_OP_bra, NEXT);					/* f at the bottom */
	op_uleb(&x, DW_OP_constu, sizeof(struct shadow_frame)), op(&x, DW_OP_minus);
	op(&x, DW_OP_dup), op_uleb(&x, DW_OP_plus_uconst, offsetof(struct shadow_frame, sp));
	op(&x, DW_OP_deref), op(&x, DW_OP_pick), op(&x, 5), op(&x, DW_OP_ne);
	op_branch(&x, DW_OP_bra, INNER);				/* another slot's */
	op(&x, DW_OP_dup), op_uleb(&x, DW_OP_plus_uconst, offsetof(struct shadow_frame, ret));
	op(&x, DW_OP_deref);						/* slot cur p base f ret */
	op(&x, DW_OP_dup), op(&x, DW_OP_lit0), op(&x, DW_OP_eq);	/* ... ret ret==0 */
	op(&x, DW_OP_over), op(&x, DW_OP_pick), op(&x, 6), op(&x, DW_OP_eq), op(&x, DW_OP_plus);
	op_branch(&x, DW_OP_bra, PASS_OVER);
	op_branch(&x, DW_OP_skip, END);					/* found: ret on top */
	place(&x, PASS_OVER);	/* not redirected, or a tail call's: the slot's value */
	op(&x, DW_OP_drop);
	op_branch(&x, DW_OP_skip, INNER);
	place(&x, NEXT);						/* slot cur p base f */
	op(&x, DW_OP_drop), op(&x, DW_OP_drop), op_uleb(&x, DW_OP_plus_uconst, sizeof(void *));
	op_branch(&x, DW_OP_skip, OUTER);
	place(&x, NOT_FOUND);						/* slot cur p */
	op(&x, DW_OP_drop), op(&x, DW_OP_drop), op(&x, DW_OP_drop), op(&x, DW_OP_lit0);
	place(&x, END);
	for (int i = 0; i < x.nbranch; i++) {
		int16_t d = (int16_t)((long)x.label[x.branch[i].to] - (long)(x.branch[i].at + 2));
		memcpy(x.b + x.branch[i].at, &d, 2);
	}
	put_u8(f, DW_CFA_val_expression);
	put_uleb(f, DWARF_REG_RA);
	put_uleb(f, x.n);
	put(f, x.b, x.n);
}

/* Pads the entry that started at START to a multiple of 8 and writes its
 * length. */
static void close_entry(struct eh_frame *f, size_t start)
{
	while ((f->len - start) % 8)
		put_u8(f, DW_CFA_nop);
	put_u32_at(f, start, (uint32_t)(f->len - start - 4));
}

void eh_frame_begin(struct eh_frame *f)
{
	memset(f, 0, sizeof(*f));
	put(f, "\0\0\0\0" "\0\0\0\0", 8);	/* length, CIE id 0 */
	put_u8(f, 1);				/* version */
	put(f, "zR", 3);			/* augmentation, with its NUL */
	put_uleb(f, 1);				/* code alignment */
	put_u8(f, 0x78);			/* data alignment: -8 */
	put_u8(f, DWARF_REG_RA);
	put_uleb(f, 1);				/* augmentation data: */
	put_u8(f, 0x00);			/* addresses absolute, 8 bytes */
	/* at a function's first instruction */
	put_u8(f, DW_CFA_def_cfa), put_uleb(f, DWARF_REG_RSP), put_uleb(f, 8);
	put_u8(f, DW_CFA_offset | DWARF_REG_RA), put_uleb(f, 1);
	close_entry(f, 0);
}

/* Starts an FDE for [LO, LO + LEN); its length is written by close_entry. */
static size_t open_fde(struct eh_frame *f, uint64_t lo, uint64_t len)
{
	size_t start = f->len;

	put(f, "\0\0\0\0", 4);
	uint32_t cie = (uint32_t)(f->len);	/* back to the CIE at 0 */
	put(f, &cie, 4);
	put(f, &lo, 8);
	put(f, &len, 8);
	put_uleb(f, 0);				/* no augmentation data */
	return start;
}

/* Moves the row from *AT to TO (TO > *AT). */
static void advance(struct eh_frame *f, size_t *at, size_t to)
{
	size_t d = to - *at;

	if (d < 64) {
		put_u8(f, DW_CFA_advance_loc | (uint8_t)d);
	} else {
		put_u8(f, DW_CFA_advance_loc1);
		put_u8(f, (uint8_t)d);
	}
	*at = to;
}

/*
 * Length of the instruction at CODE (at most LEFT bytes) if it is one the
 * body's rules follow, with its effect: *GROW bytes pushed on the stack,
 * *SAVED the DWARF number of the register a push saved (-1 if none).
 * Returns 0 for any other instruction.
 */
static size_t understood(const uint8_t *c, size_t left, uint32_t *grow, int *saved)
{
	/* push's register field in x86 order, as DWARF numbers */
	static const int dwarf_reg[8] = { 0, 2, 1, 3, 7, 6, 4, 5 };
	uint8_t rex = 0;
	size_t i = 0;

	*grow = 0;
	*saved = -1;
	if (left >= 4 && c[0] == 0xf3 && c[1] == 0x0f && c[2] == 0x1e && c[3] == 0xfa)
		return 4;				/* endbr64 */
	if (c[0] == 0x90)
		return 1;				/* nop */
	if (left >= 2 && (c[0] & 0xf0) == 0x40) {
		rex = c[0];
		i = 1;
	}
	uint8_t opc = c[i];
	if (opc >= 0x50 && opc <= 0x57 && (!rex || rex == 0x40 || rex == 0x41)) {
		/* push: 50+r, or 41 50+r for r8-r15 */
		int r = opc - 0x50;
		*grow = 8;
		*saved = rex & 1 ? 8 + r : dwarf_reg[r];
		return i + 1;
	}
	if (i + 2 > left)
		return 0;
	uint8_t modrm = c[i + 1];
	int rm_is_rsp = (modrm & 7) == 4 && !(rex & 1);
	if (rex == 0x48 && (opc == 0x83 || opc == 0x81) && modrm == 0xec) {
		/* sub $imm, %rsp */
		size_t n = opc == 0x83 ? i + 3 : i + 6;
		if (n > left)
			return 0;
		int32_t imm = opc == 0x83 ? (int8_t)c[i + 2] : 0;
		if (opc == 0x81)
			memcpy(&imm, c + i + 2, 4);
		if (imm < 0)
			return 0;
		*grow = (uint32_t)imm;
		return n;
	}
	/* mov, xor, test, sub, add, and, or, cmp between registers: the
	 * stack pointer is left alone unless it is the destination */
	if ((modrm & 0xc0) == 0xc0 &&
	    (opc == 0x89 || opc == 0x8b || opc == 0x31 || opc == 0x33 || opc == 0x85 || opc == 0x01 ||
	     opc == 0x29 || opc == 0x21 || opc == 0x09 || opc == 0x39 || opc == 0x3b)) {
		int dest_is_rsp = opc == 0x8b || opc == 0x33 || opc == 0x3b
					  ? ((modrm >> 3) & 7) == 4 && !(rex & 4)
					  : rm_is_rsp;
		if (dest_is_rsp && opc != 0x85 && opc != 0x39 && opc != 0x3b)
			return 0;
		return i + 2;
	}
	return 0;
}

/* The rows of a slot's body, from the state at its entry; returns how
 * many of its LEN bytes have rules. */
static size_t body_rows(struct eh_frame *f, const uint8_t *body, size_t len, size_t *at)
{
	uint32_t cfa = 8;
	size_t i = 0;

	while (i < len) {
		uint32_t grow;
		int saved;
		size_t n = understood(body + i, len - i, &grow, &saved);
		if (!n)
			return i + 1;	/* its first byte's state is known */
		i += n;
		if (!grow)
			continue;
		cfa += grow;
		advance(f, at, SITE_BODY + i);
		put_u8(f, DW_CFA_def_cfa_offset);
		put_uleb(f, cfa);
		if (saved >= 0) {
			put_u8(f, DW_CFA_offset | (uint8_t)saved);
			put_uleb(f, cfa / 8);
		}
	}
	return len;
}

void eh_frame_slot(struct eh_frame *f, uintptr_t slot, const uint8_t *body, size_t body_len,
		   int resumes)
{
	size_t start = open_fde(f, slot + SITE_ENTRY, 0);
	size_t at = SITE_ENTRY;

	/* the body is called: the slot is the body's */
	advance(f, &at, SITE_RETURN - 5);
	put_u8(f, DW_CFA_def_cfa_offset);
	put_uleb(f, 0);
	put_search(f);
	/* the exit hook is called: the slot holds the return point until it
	 * gets the real address, which the return point's rule finds */
	advance(f, &at, SITE_RETURN + 5);
	put_u8(f, DW_CFA_def_cfa_offset);
	put_uleb(f, 8);
	put_u8(f, DW_CFA_offset | DWARF_REG_RA);
	put_uleb(f, 1);
	/* the body runs in place of the function's entry, CFA as at 8 */
	size_t described = body_rows(f, body, body_len, &at);
	if (described == body_len && resumes)
		described += 5;	/* the jump back */
	uint64_t range = SITE_BODY + described - SITE_ENTRY;
	if (!f->failed)
		memcpy(f->data + start + 16, &range, 8);	/* its pc_range */
	close_entry(f, start);
}

void eh_frame_return_point(struct eh_frame *f, uintptr_t at)
{
	/* an unwinder looks up a return address less one: the byte before
	 * the return point (a nop kept for it), as if just returned */
	size_t start = open_fde(f, at - 1, 2);

	put_u8(f, DW_CFA_def_cfa_offset);
	put_uleb(f, 0);
	put_search(f);
	close_entry(f, start);
}

void eh_frame_end(struct eh_frame *f)
{
	put(f, "\0\0\0\0", 4);
}

void eh_frame_release(struct eh_frame *f)
{
	free(f->data);
	memset(f, 0, sizeof(*f));
}
