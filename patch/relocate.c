#include "patch/relocate.h"

#include <string.h>

#include "die.h"

const struct disasm *patch_disasm(void)
{
	const char *why;
	const struct disasm *d = disasm_library(&why);

	if (!d)
		die("patching function entries needs the capstone disassembler: %s; install "
		    "libcapstone4", why);
	return d;
}

csh patch_capstone_open(void)
{
	const struct disasm *d = patch_disasm();
	csh cs;

	if (d->open(CS_ARCH_X86, CS_MODE_64, &cs) != CS_ERR_OK)
		die("cannot start the capstone disassembler");
	d->option(cs, CS_OPT_DETAIL, CS_OPT_ON);
	/* capstone 4 sorts a table of its own, shared by every handle, as it
	 * prints its first instruction (X86_insn_reg_intel()), with no lock:
	 * one printed here, where handles are opened before any thread that
	 * uses them starts, keeps threads from sorting it under each other */
	static const uint8_t ret = 0xc3;
	const uint8_t *code = &ret;
	size_t left = 1;
	uint64_t addr = 0;
	cs_insn *in = d->malloc(cs);
	d->disasm_iter(cs, &code, &left, &addr, in);
	d->free(in, 1);
	return cs;
}

void patch_capstone_close(csh cs)
{
	patch_disasm()->close(&cs);
}

struct emitter {
	struct patch_reloc *out;
	csh cs;
	int full;
};

static void emit(struct emitter *e, const void *bytes, size_t n)
{
	if (e->out->len + n > sizeof(e->out->code)) {
		e->full = 1;
		return;
	}
	memcpy(e->out->code + e->out->len, bytes, n);
	e->out->len += n;
}

/* A fixup for the 4 bytes just before the code's end, in an instruction
 * that ends there, reaching TARGET. */
static void fixup_here(struct emitter *e, uint64_t target)
{
	struct patch_reloc *o = e->out;

	if (e->full || o->nfixups == RELOC_FIXUPS_MAX || o->len < 4) {
		e->full = 1;
		return;
	}
	o->fixups[o->nfixups++] = (struct patch_plan_fixup){
		target, (uint32_t)(o->len - 4), (uint32_t)o->len
	};
}

/* A fixup for the field at FIELD of an instruction copied to [AT, END). */
static void fixup_field(struct emitter *e, uint64_t target, size_t field, size_t end)
{
	struct patch_reloc *o = e->out;

	if (e->full || o->nfixups == RELOC_FIXUPS_MAX) {
		e->full = 1;
		return;
	}
	o->fixups[o->nfixups++] = (struct patch_plan_fixup){ target, (uint32_t)field,
							     (uint32_t)end };
}

static void emit_rel32(struct emitter *e, const uint8_t *opcode, size_t n, uint64_t target)
{
	static const uint8_t zero[4];

	emit(e, opcode, n);
	emit(e, zero, 4);
	fixup_here(e, target);
}

/* The operand of a relative branch: its absolute target. */
static int branch_target(const cs_insn *in, uint64_t *target)
{
	const cs_x86 *x = &in->detail->x86;

	if (x->op_count != 1 || x->operands[0].type != X86_OP_IMM)
		return -1;
	*target = (uint64_t)x->operands[0].imm;
	return 0;
}

/* The instruction's RIP-relative memory operand, if any: 1 with the
 * target and the disp32's offset; 0 if none; -1 if one we cannot fix. */
static int rip_operand(const cs_insn *in, const uint8_t *bytes, uint64_t *target,
		       size_t *disp_at)
{
	const cs_x86 *x = &in->detail->x86;

	for (uint8_t i = 0; i < x->op_count; i++) {
		const cs_x86_op *op = &x->operands[i];
		if (op->type != X86_OP_MEM || op->mem.base != X86_REG_RIP)
			continue;
		/* RIP-relative addressing is ModRM mod=00 rm=101 with no SIB: its
		 * disp32 follows the ModRM byte (capstone 4 misreports the
		 * disp size after a 66 prefix, so its own field is not used) */
		size_t at = x->encoding.modrm_offset + 1u;
		int32_t disp;
		if (!x->encoding.modrm_offset || at + 4 > in->size)
			return -1;
		memcpy(&disp, bytes + at, 4);
		/* capstone's offset checked against the bytes themselves */
		if (disp != op->mem.disp)
			return -1;
		*target = in->address + in->size + (uint64_t)(int64_t)disp;
		*disp_at = at;
		return 1;
	}
	return 0;
}

/* Whether the instruction addresses memory through rsp, which a call's
 * emulation moves before the operand is read. */
static int uses_rsp(const cs_insn *in)
{
	const cs_x86 *x = &in->detail->x86;

	for (uint8_t i = 0; i < x->op_count; i++)
		if (x->operands[i].type == X86_OP_MEM &&
		    (x->operands[i].mem.base == X86_REG_RSP || x->operands[i].mem.index == X86_REG_RSP))
			return 1;
	return 0;
}

/*
 * A call, as: store the original return address RET where the call would
 * have pushed it, keeping every register and flag, then jump.
 *     lea rsp,[rsp-8]; push rax; lea rax,[rip+RET]; mov [rsp+8],rax; pop rax
 */
static void emit_call_preface(struct emitter *e, uint64_t ret)
{
	static const uint8_t down[] = { 0x48, 0x8d, 0x64, 0x24, 0xf8, 0x50, 0x48, 0x8d, 0x05 };
	static const uint8_t store[] = { 0x48, 0x89, 0x44, 0x24, 0x08, 0x58 };
	static const uint8_t zero[4];

	emit(e, down, sizeof(down));
	emit(e, zero, 4);
	fixup_here(e, ret);
	emit(e, store, sizeof(store));
}

/* Copies the instruction IN (its bytes at BYTES), with the fixup of its
 * RIP-relative operand; MODRM_REG >= 0 replaces the ModRM reg field
 * (call /2 -> jmp /4). */
static enum patch_skip copy_insn(struct emitter *e, const cs_insn *in, const uint8_t *bytes,
				 int modrm_reg)
{
	uint64_t target = 0;
	size_t disp_at = 0, at = e->out->len;
	int rip = rip_operand(in, bytes, &target, &disp_at);

	if (rip < 0)
		return PATCH_SKIP_UNRELOCATABLE;
	emit(e, bytes, in->size);
	if (e->full)
		return PATCH_SKIP_UNRELOCATABLE;
	if (modrm_reg >= 0) {
		size_t m = in->detail->x86.encoding.modrm_offset;
		if (!m || m >= in->size)
			return PATCH_SKIP_UNRELOCATABLE;
		uint8_t *b = &e->out->code[at + m];
		*b = (uint8_t)((*b & ~0x38) | (modrm_reg << 3));
	}
	if (rip)
		fixup_field(e, target, at + disp_at, at + in->size);
	return PATCH_OK;
}

static int is_jcc(unsigned id)
{
	switch (id) {
	case X86_INS_JAE: case X86_INS_JA: case X86_INS_JBE: case X86_INS_JB:
	case X86_INS_JE: case X86_INS_JGE: case X86_INS_JG: case X86_INS_JLE:
	case X86_INS_JL: case X86_INS_JNE: case X86_INS_JNO: case X86_INS_JNP:
	case X86_INS_JNS: case X86_INS_JO: case X86_INS_JP: case X86_INS_JS:
		return 1;
	default:
		return 0;
	}
}

static enum patch_skip relocate_one(struct emitter *e, const cs_insn *in, const uint8_t *bytes,
				    uint64_t window_end)
{
	const cs_x86 *x = &in->detail->x86;
	uint64_t target;

	if (in->id == X86_INS_JMP && x->operands[0].type == X86_OP_IMM) {
		if (branch_target(in, &target))
			return PATCH_SKIP_UNRELOCATABLE;
		emit_rel32(e, (const uint8_t[]){ 0xe9 }, 1, target);
		e->out->ends = 1;
		return PATCH_OK;
	}
	if (is_jcc(in->id)) {
		/* the condition is the low nibble of 7x (rel8) or 0f 8x (rel32) */
		uint8_t op = x->opcode[0] == 0x0f ? x->opcode[1] : x->opcode[0];
		if (branch_target(in, &target) || (op & 0xf0) != (x->opcode[0] == 0x0f ? 0x80 : 0x70))
			return PATCH_SKIP_UNRELOCATABLE;
		emit_rel32(e, (const uint8_t[]){ 0x0f, (uint8_t)(0x80 | (op & 0x0f)) }, 2, target);
		return PATCH_OK;
	}
	if (in->id == X86_INS_JRCXZ || in->id == X86_INS_JECXZ || in->id == X86_INS_LOOP ||
	    in->id == X86_INS_LOOPE || in->id == X86_INS_LOOPNE) {
		/* taken: hop over the short jmp to the jmp32; not taken: skip it */
		if (branch_target(in, &target) || in->size < 2)
			return PATCH_SKIP_UNRELOCATABLE;
		emit(e, bytes, in->size - 1u);
		emit(e, (const uint8_t[]){ 0x02, 0xeb, 0x05 }, 3);
		emit_rel32(e, (const uint8_t[]){ 0xe9 }, 1, target);
		return PATCH_OK;
	}
	if (in->id == X86_INS_CALL) {
		uint64_t ret = in->address + in->size;
		if (ret < window_end)
			return PATCH_SKIP_CALL_IN_WINDOW;
		if (uses_rsp(in))
			return PATCH_SKIP_UNRELOCATABLE;
		emit_call_preface(e, ret);
		e->out->ends = 1;
		if (x->operands[0].type == X86_OP_IMM) {
			if (branch_target(in, &target))
				return PATCH_SKIP_UNRELOCATABLE;
			emit_rel32(e, (const uint8_t[]){ 0xe9 }, 1, target);
			return PATCH_OK;
		}
		if (x->opcode[0] != 0xff)
			return PATCH_SKIP_UNRELOCATABLE;
		return copy_insn(e, in, bytes, 4);
	}
	if (patch_disasm()->insn_group(e->cs, in, X86_GRP_BRANCH_RELATIVE) || in->id == X86_INS_LCALL ||
	    in->id == X86_INS_LJMP)
		return PATCH_SKIP_UNRELOCATABLE;
	if (in->id == X86_INS_JMP || in->id == X86_INS_RET || in->id == X86_INS_RETF ||
	    in->id == X86_INS_RETFQ)
		e->out->ends = 1;
	return copy_insn(e, in, bytes, -1);
}

enum patch_skip patch_relocate(csh cs, const uint8_t *bytes, size_t len, uint64_t addr,
			       uint64_t window_end, struct patch_reloc *out)
{
	struct emitter e = { out, cs, 0 };
	const uint8_t *p = bytes;
	size_t left = len;
	uint64_t at = addr;
	const struct disasm *d = patch_disasm();
	cs_insn *in = d->malloc(cs);
	enum patch_skip why = PATCH_OK;

	memset(out, 0, sizeof(*out));
	while (left && why == PATCH_OK) {
		const uint8_t *start = p;
		if (out->ends) {
			/* nothing after a jump or return is reached from the entry */
			why = PATCH_SKIP_UNRELOCATABLE;
			break;
		}
		if (!d->disasm_iter(cs, &p, &left, &at, in)) {
			why = PATCH_SKIP_UNDECODABLE;
			break;
		}
		why = relocate_one(&e, in, start, window_end);
		if (e.full)
			why = PATCH_SKIP_UNRELOCATABLE;
	}
	d->free(in, 1);
	return why;
}
