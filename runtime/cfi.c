/*
 * The call frame instructions of DWARF (as in .eh_frame) interpreted up to
 * a PC, then the caller's registers computed from them (cfi.h).
 *
 * The interpreter keeps one row of rules: how to find the CFA (a register
 * plus an offset, or an expression) and, for each register, where the
 * caller's value is.  It runs the CIE's initial instructions, then the
 * FDE's until its location passes the PC.  remember_state/restore_state
 * keep a few rows on the handler's stack: compilers nest them one or two
 * deep.  Expressions are evaluated by a small stack machine that knows the
 * operations compilers and libc emit for unwinding (breg, deref,
 * arithmetic, comparisons): PLT stubs, realigned stacks (main's DRAP) and
 * signal frames.
 */
#define _GNU_SOURCE
#include "cfi.h"

#include <stddef.h>

#define STATE_DEPTH 4		/* nested remember_state */
#define EXPR_DEPTH 8		/* the expression machine's stack */

enum rule_kind {
	RULE_DEFAULT,		/* not mentioned: kept across a call when callee-saved */
	RULE_UNDEFINED,
	RULE_SAME,
	RULE_OFFSET,		/* saved at CFA + n */
	RULE_VAL_OFFSET,	/* the value CFA + n */
	RULE_REGISTER,		/* in register n */
	RULE_EXPRESSION,	/* saved at the address the expression at expr gives */
	RULE_VAL_EXPRESSION,	/* the value the expression gives */
};

struct rule {
	uint8_t kind;
	int64_t n;
	const uint8_t *expr;	/* ULEB128 length, then the operations */
};

struct row {
	struct rule reg[CFI_REGS];
	uint64_t cfa_reg;
	int64_t cfa_off;
	const uint8_t *cfa_expr;	/* NULL: register plus offset */
};

/* Where the interpretation stands. */
struct interp {
	const struct eh_span *code;
	const struct eh_fde *f;
	uintptr_t target;	/* interpret the rules in force here */
	uintptr_t loc;
	struct row row;
	const struct row *initial;	/* after the CIE's instructions (restore) */
	struct row saved[STATE_DEPTH];
	int depth;
};

/* rbx, rbp, r12-r15: a callee keeps them or says where it saved them. */
#define CALLEE_SAVED ((1u << 3) | (1u << 6) | (0xfu << 12))

static int read_stack(const struct cfi_stack *stack, uint64_t addr, uint64_t *out)
{
	if (addr < stack->lo || addr > stack->hi || stack->hi - addr < 8)
		return -1;
	__builtin_memcpy(out, (const void *)(uintptr_t)addr, 8);
	return 0;
}

static int get_bytes(const struct eh_span *s, const uint8_t **p, size_t n, uint64_t *out)
{
	if (!eh_readable(s, *p, n))
		return -1;
	uint64_t v = 0;
	for (size_t i = 0; i < n; i++)
		v |= (uint64_t)(*p)[i] << (8 * i);
	*p += n;
	*out = v;
	return 0;
}

/*
 * Evaluates the expression at EXPR (its ULEB128 length first, inside S)
 * with INITIAL pushed first when HAS_INITIAL: 0 with the value on top in
 * *OUT, or -1 for an operation it does not know, a register it does not
 * have, a read off the stack, or a stack over- or underflow.
 */
static int evaluate(const struct eh_span *s, const uint8_t *expr, const struct cfi_regs *regs,
		    const struct cfi_stack *stack, int has_initial, uint64_t initial, uint64_t *out)
{
	uint64_t st[EXPR_DEPTH], len, u, a;
	int64_t v;
	int sp = 0;
	const uint8_t *p = expr;

	if (eh_get_uleb(s, &p, &len) || !eh_readable(s, p, len))
		return -1;
	struct eh_span in = { p, p + len };
	if (has_initial)
		st[sp++] = initial;
	while (p < in.hi) {
		uint8_t op = *p++;
		if (op >= 0x30 && op <= 0x4f) {			/* lit0-31 */
			u = op - 0x30;
		} else if ((op >= 0x70 && op <= 0x8f) || op == 0x92) {	/* breg, bregx */
			uint64_t r = op - 0x70;
			if ((op == 0x92 && eh_get_uleb(&in, &p, &r)) || eh_get_sleb(&in, &p, &v) ||
			    r >= CFI_REGS || !(regs->known & (1u << r)))
				return -1;
			u = regs->r[r] + (uint64_t)v;
		} else if (op >= 0x08 && op <= 0x0f) {	/* const1u ... const8s */
			size_t n = (size_t)1 << ((op - 0x08) / 2);
			if (get_bytes(&in, &p, n, &u))
				return -1;
			if ((op & 1) && n < 8 && (u >> (8 * n - 1)))	/* signed */
				u |= ~(uint64_t)0 << (8 * n);
		} else if (op == 0x10) {			/* constu */
			if (eh_get_uleb(&in, &p, &u))
				return -1;
		} else if (op == 0x11) {			/* consts */
			if (eh_get_sleb(&in, &p, &v))
				return -1;
			u = (uint64_t)v;
		} else if (op == 0x12) {			/* dup */
			if (!sp)
				return -1;
			u = st[sp - 1];
		} else if (op == 0x06) {			/* deref */
			if (!sp || read_stack(stack, st[sp - 1], &st[sp - 1]))
				return -1;
			continue;
		} else if (op == 0x23) {			/* plus_uconst */
			if (!sp || eh_get_uleb(&in, &p, &u))
				return -1;
			st[sp - 1] += u;
			continue;
		} else {					/* binary operations */
			if (sp < 2)
				return -1;
			a = st[sp - 2];
			u = st[sp - 1];
			switch (op) {
			case 0x1a: a &= u; break;			/* and */
			case 0x1c: a -= u; break;			/* minus */
			case 0x1e: a *= u; break;			/* mul */
			case 0x21: a |= u; break;			/* or */
			case 0x22: a += u; break;			/* plus */
			case 0x24: a = u < 64 ? a << u : 0; break;	/* shl */
			case 0x25: a = u < 64 ? a >> u : 0; break;	/* shr */
			case 0x27: a ^= u; break;			/* xor */
			case 0x29: a = (int64_t)a == (int64_t)u; break;	/* eq */
			case 0x2a: a = (int64_t)a >= (int64_t)u; break;	/* ge */
			case 0x2b: a = (int64_t)a > (int64_t)u; break;	/* gt */
			case 0x2c: a = (int64_t)a <= (int64_t)u; break;	/* le */
			case 0x2d: a = (int64_t)a < (int64_t)u; break;	/* lt */
			case 0x2e: a = (int64_t)a != (int64_t)u; break;	/* ne */
			default: return -1;
			}
			st[--sp - 1] = a;
			continue;
		}
		if (sp == EXPR_DEPTH)
			return -1;
		st[sp++] = u;
	}
	if (!sp)
		return -1;
	*out = st[sp - 1];
	return 0;
}

/* Skips the expression block at *P (ULEB128 length, then the bytes),
 * keeping where it begins in *AT. */
static int take_block(const struct eh_span *in, const uint8_t **p, const uint8_t **at)
{
	uint64_t len;

	*at = *p;
	if (eh_get_uleb(in, p, &len) || !eh_readable(in, *p, len))
		return -1;
	*p += len;
	return 0;
}

static void set_rule(struct row *row, uint64_t reg, uint8_t kind, int64_t n, const uint8_t *expr)
{
	if (reg >= CFI_REGS)
		return;	/* vector registers: not followed */
	row->reg[reg] = (struct rule){ kind, n, expr };
}

/* N times the alignment FACTOR, wrapping (damaged bytes give huge N): an
 * offset that leads off the stack is refused when it is used. */
static int64_t scaled(uint64_t n, int64_t factor)
{
	return (int64_t)(n * (uint64_t)factor);
}

/* DW_CFA_restore: REG's rule as the CIE's instructions left it. */
static void restore(struct interp *st, uint64_t reg)
{
	if (reg < CFI_REGS)
		st->row.reg[reg] = st->initial ? st->initial->reg[reg]
					       : (struct rule){ RULE_DEFAULT, 0, NULL };
}

/* Moves the location by DELTA code units: 1 once it passes the target. */
static int advance(struct interp *st, uint64_t delta)
{
	st->loc += delta * st->f->code_align;
	return st->loc > st->target;
}

/*
 * Runs the instructions [P, END) (inside the span) until the location
 * passes the target: 0, or -1 for an instruction it does not know or
 * bytes that run past END.
 */
static int run(struct interp *st, const uint8_t *p, const uint8_t *end)
{
	struct eh_span in = { st->code->lo, end < st->code->hi ? end : st->code->hi };
	int64_t da = st->f->data_align;
	uint64_t reg, u;
	int64_t v;
	const uint8_t *expr;

	while (p < in.hi) {
		if (!eh_readable(&in, p, 1))
			return -1;
		uint8_t op = *p++;
		switch (op >> 6) {
		case 1:
			if (advance(st, op & 0x3f))
				return 0;
			continue;
		case 2:
			if (eh_get_uleb(&in, &p, &u))
				return -1;
			set_rule(&st->row, op & 0x3f, RULE_OFFSET, scaled(u, da), NULL);
			continue;
		case 3:
			restore(st, op & 0x3f);
			continue;
		}
		switch (op) {
		case 0x00:	/* nop */
			break;
		case 0x02: case 0x03: case 0x04:	/* advance_loc1, 2, 4 */
			if (get_bytes(&in, &p, (size_t)1 << (op - 0x02), &u))
				return -1;
			if (advance(st, u))
				return 0;
			break;
		case 0x05: case 0x14:	/* offset_extended, val_offset */
			if (eh_get_uleb(&in, &p, &reg) || eh_get_uleb(&in, &p, &u))
				return -1;
			set_rule(&st->row, reg, op == 0x05 ? RULE_OFFSET : RULE_VAL_OFFSET,
				 scaled(u, da), NULL);
			break;
		case 0x06:	/* restore_extended */
			if (eh_get_uleb(&in, &p, &reg))
				return -1;
			restore(st, reg);
			break;
		case 0x07: case 0x08:	/* undefined, same_value */
			if (eh_get_uleb(&in, &p, &reg))
				return -1;
			set_rule(&st->row, reg, op == 0x07 ? RULE_UNDEFINED : RULE_SAME, 0, NULL);
			break;
		case 0x09:	/* register */
			if (eh_get_uleb(&in, &p, &reg) || eh_get_uleb(&in, &p, &u))
				return -1;
			set_rule(&st->row, reg, RULE_REGISTER, (int64_t)u, NULL);
			break;
		case 0x0a:	/* remember_state */
			if (st->depth == STATE_DEPTH)
				return -1;
			st->saved[st->depth++] = st->row;
			break;
		case 0x0b:	/* restore_state: the CFA rule too, as libgcc and
				 * the compilers' epilogues expect */
			if (!st->depth)
				return -1;
			st->row = st->saved[--st->depth];
			break;
		case 0x0c: case 0x12:	/* def_cfa, def_cfa_sf */
			if (eh_get_uleb(&in, &p, &reg))
				return -1;
			if (op == 0x0c ? eh_get_uleb(&in, &p, &u) : eh_get_sleb(&in, &p, &v))
				return -1;
			st->row.cfa_reg = reg;
			st->row.cfa_off = op == 0x0c ? (int64_t)u : scaled((uint64_t)v, da);
			st->row.cfa_expr = NULL;
			break;
		case 0x0d:	/* def_cfa_register */
			if (eh_get_uleb(&in, &p, &reg))
				return -1;
			st->row.cfa_reg = reg;
			st->row.cfa_expr = NULL;
			break;
		case 0x0e:	/* def_cfa_offset */
			if (eh_get_uleb(&in, &p, &u))
				return -1;
			st->row.cfa_off = (int64_t)u;
			break;
		case 0x13:	/* def_cfa_offset_sf */
			if (eh_get_sleb(&in, &p, &v))
				return -1;
			st->row.cfa_off = scaled((uint64_t)v, da);
			break;
		case 0x0f:	/* def_cfa_expression */
			if (take_block(&in, &p, &expr))
				return -1;
			st->row.cfa_expr = expr;
			break;
		case 0x10: case 0x16:	/* expression, val_expression */
			if (eh_get_uleb(&in, &p, &reg) || take_block(&in, &p, &expr))
				return -1;
			set_rule(&st->row, reg, op == 0x10 ? RULE_EXPRESSION : RULE_VAL_EXPRESSION, 0,
				 expr);
			break;
		case 0x11: case 0x15:	/* offset_extended_sf, val_offset_sf */
			if (eh_get_uleb(&in, &p, &reg) || eh_get_sleb(&in, &p, &v))
				return -1;
			set_rule(&st->row, reg, op == 0x11 ? RULE_OFFSET : RULE_VAL_OFFSET,
				 scaled((uint64_t)v, da), NULL);
			break;
		case 0x2e:	/* GNU_args_size: what a landing pad pops */
			if (eh_get_uleb(&in, &p, &u))
				return -1;
			break;
		case 0x2f:	/* GNU_negative_offset_extended */
			if (eh_get_uleb(&in, &p, &reg) || eh_get_uleb(&in, &p, &u))
				return -1;
			set_rule(&st->row, reg, RULE_OFFSET, scaled(0 - u, da), NULL);
			break;
		default:	/* set_loc, or one no unwinder knows */
			return -1;
		}
	}
	return 0;
}

/* The caller's value of register I under RULE; 0, or -1 when unknown. */
static int recover(const struct interp *st, const struct rule *rule, int i, uint64_t cfa,
		   const struct cfi_stack *stack, const struct cfi_regs *regs, uint64_t *out)
{
	uint64_t addr;

	switch (rule->kind) {
	case RULE_DEFAULT:
		if (i == CFI_RSP) {
			*out = cfa;
			return 0;
		}
		if (!(CALLEE_SAVED & (1u << i)))
			return -1;
		/* fall through */
	case RULE_SAME:
		if (!(regs->known & (1u << i)))
			return -1;
		*out = regs->r[i];
		return 0;
	case RULE_OFFSET:
		return read_stack(stack, cfa + (uint64_t)rule->n, out);
	case RULE_VAL_OFFSET:
		*out = cfa + (uint64_t)rule->n;
		return 0;
	case RULE_REGISTER:
		if (rule->n < 0 || rule->n >= CFI_REGS || !(regs->known & (1u << rule->n)))
			return -1;
		*out = regs->r[rule->n];
		return 0;
	case RULE_EXPRESSION:
		return evaluate(st->code, rule->expr, regs, stack, 1, cfa, &addr) ||
		       read_stack(stack, addr, out);
	case RULE_VAL_EXPRESSION:
		return evaluate(st->code, rule->expr, regs, stack, 1, cfa, out);
	default:
		return -1;
	}
}

enum cfi_step cfi_step(const struct eh_span *code, const struct eh_fde *f, uintptr_t lookup,
		       const struct cfi_stack *stack, struct cfi_regs *regs)
{
	struct interp st;
	struct row initial;
	uint64_t cfa;

	if (!f->cie_insns || f->ra != CFI_RIP || !f->code_align || lookup < f->begin ||
	    lookup - f->begin >= f->range)
		return CFI_STEP_STOP;
	__builtin_memset(&st, 0, sizeof(st));
	st.code = code;
	st.f = f;
	st.target = UINTPTR_MAX;	/* the CIE's instructions all apply */
	st.loc = f->begin;
	if (run(&st, f->cie_insns, f->cie_end) || st.depth)
		return CFI_STEP_STOP;
	initial = st.row;
	st.initial = &initial;
	st.target = lookup;
	st.loc = f->begin;
	if (run(&st, f->insns, f->end))
		return CFI_STEP_STOP;

	if (st.row.reg[CFI_RIP].kind == RULE_UNDEFINED)
		return CFI_STEP_FIRST_FRAME;
	if (st.row.cfa_expr) {
		if (evaluate(code, st.row.cfa_expr, regs, stack, 0, 0, &cfa))
			return CFI_STEP_STOP;
	} else {
		if (st.row.cfa_reg >= CFI_REGS || !(regs->known & (1u << st.row.cfa_reg)))
			return CFI_STEP_STOP;
		cfa = regs->r[st.row.cfa_reg] + (uint64_t)st.row.cfa_off;
	}
	struct cfi_regs caller = { { 0 }, 0 };
	for (int i = 0; i < CFI_REGS; i++) {
		const struct rule *rule = &st.row.reg[i];
		if (!recover(&st, rule, i, cfa, stack, regs, &caller.r[i])) {
			caller.known |= 1u << i;
		} else if (rule->kind != RULE_DEFAULT && rule->kind != RULE_UNDEFINED &&
			   rule->kind != RULE_SAME) {
			return CFI_STEP_STOP;	/* a save it was told of lies off the stack */
		}
	}
	if (!(caller.known & (1u << CFI_RIP)))
		return CFI_STEP_STOP;
	*regs = caller;
	return CFI_STEP_CALLER;
}
