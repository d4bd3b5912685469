/*
 * runtime/cfi.c, which the sampler runs in a signal handler: one frame
 * stepped with hand-made CIEs and FDEs over a hand-made stack, and, for
 * damaged or hostile bytes, "cannot go on" -- never a read outside the
 * bytes or the stack it was given.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#undef _GNU_SOURCE	/* the files define it for themselves */
#include "runtime/eh_frame.c"
#undef _GNU_SOURCE
#include "runtime/cfi.c"

#define BEGIN 0x401000u

/* A CIE then an FDE for [BEGIN, BEGIN + 0x100), absolute pointers. */
struct frame_bytes {
	uint8_t b[512];
	size_t len, fde;
};

static void put(struct frame_bytes *f, const uint8_t *bytes, size_t n)
{
	memcpy(f->b + f->len, bytes, n);
	f->len += n;
}

static void put_u32(struct frame_bytes *f, uint32_t v)
{
	put(f, (const uint8_t *)&v, 4);
}

static void put_u64(struct frame_bytes *f, uint64_t v)
{
	put(f, (const uint8_t *)&v, 8);
}

/* AUG "zR" or "zRS"; CIE_INSNS the initial instructions. */
static void make(struct frame_bytes *f, const char *aug, const uint8_t *cie_insns, size_t ncie,
		 const uint8_t *insns, size_t n)
{
	memset(f, 0, sizeof(*f));
	size_t start = f->len;
	put_u32(f, 0);	/* length, below */
	put_u32(f, 0);	/* CIE id */
	put(f, (const uint8_t *)"\1", 1);	/* version */
	put(f, (const uint8_t *)aug, strlen(aug) + 1);
	put(f, (const uint8_t *)"\1\x78\x10\1\0", 5);	/* code 1, data -8, ra 16, R: absptr */
	put(f, cie_insns, ncie);
	uint32_t len = (uint32_t)(f->len - start - 4);
	memcpy(f->b + start, &len, 4);
	f->fde = f->len;
	put_u32(f, 0);
	put_u32(f, (uint32_t)(f->len - start));	/* back to the CIE */
	put_u64(f, BEGIN);
	put_u64(f, 0x100);
	put(f, (const uint8_t *)"\0", 1);	/* no augmentation data */
	put(f, insns, n);
	len = (uint32_t)(f->len - f->fde - 4);
	memcpy(f->b + f->fde, &len, 4);
}

/* def_cfa rsp+8; the return address at CFA-8 */
static const uint8_t usual_cie[] = { 0x0c, 7, 8, 0x90, 1 };

static enum cfi_step step(const struct frame_bytes *f, uintptr_t pc, const uint64_t *stack,
			  size_t words, struct cfi_regs *regs)
{
	struct eh_span span = { f->b, f->b + f->len };
	struct eh_fde fde;
	struct cfi_stack st = { (uintptr_t)stack, (uintptr_t)(stack + words) };

	if (eh_fde_read(&span, f->b + f->fde, &fde))
		return (enum cfi_step)-1;
	return cfi_step(&span, &fde, pc, &st, regs);
}

static struct cfi_regs at(const uint64_t *sp, uint64_t rbx)
{
	struct cfi_regs r;

	memset(&r, 0, sizeof(r));
	for (int i = 0; i < CFI_REGS; i++)
		r.r[i] = 0x1000 + (uint64_t)i;
	r.r[CFI_RSP] = (uintptr_t)sp;
	r.r[3] = rbx;
	r.known = (1u << CFI_REGS) - 1;
	return r;
}

static void test_steps_through_a_prologue(void **state)
{
	/* push rbx (1 byte), sub $16,%rsp (4 bytes) */
	static const uint8_t insns[] = { 0x41, 0x0e, 16, 0x83, 2, 0x44, 0x0e, 32 };
	uint64_t stack[8] = { 1, 2, 0xb0b0, 0x402222, 7, 8, 9, 10 };
	struct frame_bytes f;
	struct cfi_regs r;

	(void)state;
	make(&f, "zR", usual_cie, sizeof(usual_cie), insns, sizeof(insns));
	/* at the entry: the return address on top */
	r = at(stack, 77);
	assert_int_equal(step(&f, BEGIN, stack, 8, &r), CFI_STEP_CALLER);
	assert_int_equal(r.r[CFI_RIP], 1);
	assert_int_equal(r.r[CFI_RSP], (uintptr_t)&stack[1]);
	assert_int_equal(r.r[3], 77);	/* rbx, callee-saved: kept */
	assert_false(r.known & 1);	/* rax: not known in the caller */
	/* past both: CFA = rsp + 32, rbx saved at CFA - 16 */
	r = at(stack, 77);
	assert_int_equal(step(&f, BEGIN + 5, stack, 8, &r), CFI_STEP_CALLER);
	assert_int_equal(r.r[CFI_RIP], 0x402222);
	assert_int_equal(r.r[CFI_RSP], (uintptr_t)&stack[4]);
	assert_int_equal(r.r[3], 0xb0b0);
	/* between the two */
	r = at(stack, 77);
	assert_int_equal(step(&f, BEGIN + 2, stack, 8, &r), CFI_STEP_CALLER);
	assert_int_equal(r.r[CFI_RIP], 2);
	assert_int_equal(r.r[3], 1);
}

static void test_remember_restore_and_frame_register(void **state)
{
	/* push rbp; mov rsp,rbp; ... remember; leave: CFA rsp+8; ret; restore */
	static const uint8_t insns[] = {
		0x41, 0x0e, 16, 0x86, 2,	/* CFA rsp+16, rbp at CFA-16 */
		0x43, 0x0d, 6,			/* CFA rbp+16 */
		0x48, 0x0a, 0x0c, 7, 8,		/* remember; CFA rsp+8 */
		0x41, 0x0b,			/* restore: CFA rbp+16 again */
	};
	uint64_t stack[8] = { 0, 0, 0, 0, 0x5555, 0x403333, 0, 0 };
	struct frame_bytes f;
	struct cfi_regs r;

	(void)state;
	make(&f, "zR", usual_cie, sizeof(usual_cie), insns, sizeof(insns));
	r = at(stack, 0);
	r.r[CFI_RBP] = (uintptr_t)&stack[4];
	assert_int_equal(step(&f, BEGIN + 6, stack, 8, &r), CFI_STEP_CALLER);
	assert_int_equal(r.r[CFI_RIP], 0x403333);
	assert_int_equal(r.r[CFI_RBP], 0x5555);
	assert_int_equal(r.r[CFI_RSP], (uintptr_t)&stack[6]);
	/* after the leave: the return address on top */
	r = at(&stack[5], 0);
	assert_int_equal(step(&f, BEGIN + 0xc, stack, 8, &r), CFI_STEP_CALLER);
	assert_int_equal(r.r[CFI_RIP], 0x403333);
	assert_int_equal(r.r[CFI_RSP], (uintptr_t)&stack[6]);
	/* past the restore: the frame of the body again */
	r = at(stack, 0);
	r.r[CFI_RBP] = (uintptr_t)&stack[4];
	assert_int_equal(step(&f, BEGIN + 0xd, stack, 8, &r), CFI_STEP_CALLER);
	assert_int_equal(r.r[CFI_RIP], 0x403333);
	assert_int_equal(r.r[CFI_RBP], 0x5555);
}

static void test_undefined_return_address_is_the_first_frame(void **state)
{
	static const uint8_t insns[] = { 0x07, 16 };	/* undefined rip: _start */
	uint64_t stack[2] = { 0, 0 };
	struct frame_bytes f;
	struct cfi_regs r = at(stack, 0);

	(void)state;
	make(&f, "zR", usual_cie, sizeof(usual_cie), insns, sizeof(insns));
	assert_int_equal(step(&f, BEGIN + 1, stack, 2, &r), CFI_STEP_FIRST_FRAME);
}

static void test_expressions(void **state)
{
	/* a PLT stub's CFA: rsp + 8 + ((rip & 15) >= 11) << 3 */
	static const uint8_t plt[] = { 0x0f, 11, 0x77, 8, 0x80, 0, 0x3f, 0x1a, 0x3b, 0x2a, 0x33,
				       0x24, 0x22 };
	/* a signal frame: the registers saved in a ucontext at rsp + 40 on */
	static const uint8_t sig[] = { 0x0f, 3, 0x77, 48, 0x06,	/* CFA = *(rsp + 48) */
				       0x10, 16, 2, 0x77, 40,	/* rip at rsp + 40 */
				       0x10, 7, 2, 0x77, 48 };	/* rsp at rsp + 48 */
	uint64_t stack[8] = { 0x404444, 0x405555, 0, 0, 0, 0x406666, 0, 0 };
	struct frame_bytes f;
	struct cfi_regs r;

	(void)state;
	make(&f, "zR", usual_cie, sizeof(usual_cie), plt, sizeof(plt));
	r = at(stack, 0);
	r.r[CFI_RIP] = BEGIN + 4;
	assert_int_equal(step(&f, BEGIN + 4, stack, 8, &r), CFI_STEP_CALLER);
	assert_int_equal(r.r[CFI_RIP], 0x404444);
	r = at(stack, 0);
	r.r[CFI_RIP] = BEGIN + 12;	/* after the push: 8 more */
	assert_int_equal(step(&f, BEGIN + 12, stack, 8, &r), CFI_STEP_CALLER);
	assert_int_equal(r.r[CFI_RIP], 0x405555);

	make(&f, "zRS", (const uint8_t *)"", 0, sig, sizeof(sig));
	struct eh_span span = { f.b, f.b + f.len };
	struct eh_fde fde;
	assert_int_equal(eh_fde_read(&span, f.b + f.fde, &fde), 0);
	assert_true(fde.signal);
	stack[6] = (uintptr_t)&stack[1];	/* the interrupted stack pointer */
	r = at(stack, 0);
	assert_int_equal(step(&f, BEGIN, stack, 8, &r), CFI_STEP_CALLER);
	assert_int_equal(r.r[CFI_RIP], 0x406666);
	assert_int_equal(r.r[CFI_RSP], (uintptr_t)&stack[1]);
	/* a deref that leaves the stack */
	stack[6] = 0x10;
	r = at(stack, 0);
	r.r[CFI_RSP] = (uintptr_t)&stack[2];	/* the CFA's slot lies past the end */
	assert_int_equal(step(&f, BEGIN, stack, 8, &r), CFI_STEP_STOP);
}

static void test_hostile_bytes_stop(void **state)
{
	uint64_t stack[4] = { 0x401234, 0, 0, 0 };
	struct frame_bytes f;
	struct cfi_regs r;
	struct eh_span span;
	struct eh_fde fde;

	(void)state;
	/* LEB128 that never ends: to the end of the FDE, and of the segment */
	static const uint8_t endless[] = { 0x0e, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80 };
	make(&f, "zR", usual_cie, sizeof(usual_cie), endless, sizeof(endless));
	r = at(stack, 0);
	assert_int_equal(step(&f, BEGIN + 1, stack, 4, &r), CFI_STEP_STOP);
	uint8_t many[16];
	memset(many, 0x80, sizeof(many));
	many[0] = 0x0e;
	make(&f, "zR", usual_cie, sizeof(usual_cie), many, sizeof(many));
	r = at(stack, 0);
	assert_int_equal(step(&f, BEGIN + 1, stack, 4, &r), CFI_STEP_STOP);
	/* an FDE whose length runs past the segment */
	make(&f, "zR", usual_cie, sizeof(usual_cie), (const uint8_t *)"\0", 1);
	uint32_t huge = 0x7fffff00;
	memcpy(f.b + f.fde, &huge, 4);
	span = (struct eh_span){ f.b, f.b + f.len };
	assert_int_equal(eh_fde_read(&span, f.b + f.fde, &fde), -1);
	/* a CIE whose length runs past the segment */
	make(&f, "zR", usual_cie, sizeof(usual_cie), (const uint8_t *)"\0", 1);
	memcpy(f.b, &huge, 4);
	assert_int_equal(eh_fde_read(&span, f.b + f.fde, &fde), -1);
	/* a CIE pointer before the segment */
	make(&f, "zR", usual_cie, sizeof(usual_cie), (const uint8_t *)"\0", 1);
	memcpy(f.b + f.fde + 4, &huge, 4);
	assert_int_equal(eh_fde_read(&span, f.b + f.fde, &fde), -1);
	/* restore_state with nothing remembered; remembered too deep */
	make(&f, "zR", usual_cie, sizeof(usual_cie), (const uint8_t *)"\x0b", 1);
	r = at(stack, 0);
	assert_int_equal(step(&f, BEGIN, stack, 4, &r), CFI_STEP_STOP);
	make(&f, "zR", usual_cie, sizeof(usual_cie), (const uint8_t *)"\x0a\x0a\x0a\x0a\x0a", 5);
	r = at(stack, 0);
	assert_int_equal(step(&f, BEGIN, stack, 4, &r), CFI_STEP_STOP);
	/* an opcode no unwinder knows */
	make(&f, "zR", usual_cie, sizeof(usual_cie), (const uint8_t *)"\x3f", 1);
	r = at(stack, 0);
	assert_int_equal(step(&f, BEGIN, stack, 4, &r), CFI_STEP_STOP);
	/* a return address below the stack: never read */
	make(&f, "zR", usual_cie, sizeof(usual_cie), (const uint8_t *)"\x0c\x07\x00", 3);
	r = at(stack, 0);
	r.r[CFI_RSP] = (uintptr_t)stack - 64;
	assert_int_equal(step(&f, BEGIN, stack, 4, &r), CFI_STEP_STOP);
	/* a CFA in a register the frame does not know */
	make(&f, "zR", usual_cie, sizeof(usual_cie), (const uint8_t *)"\x0d\x0a", 2);
	r = at(stack, 0);
	r.known &= ~(1u << 10);
	assert_int_equal(step(&f, BEGIN, stack, 4, &r), CFI_STEP_STOP);
	/* an expression whose operations run past its block */
	make(&f, "zR", usual_cie, sizeof(usual_cie), (const uint8_t *)"\x0f\x02\x77\x80", 4);
	r = at(stack, 0);
	assert_int_equal(step(&f, BEGIN, stack, 4, &r), CFI_STEP_STOP);
	/* a PC outside the FDE */
	make(&f, "zR", usual_cie, sizeof(usual_cie), (const uint8_t *)"\0", 1);
	r = at(stack, 0);
	assert_int_equal(step(&f, BEGIN + 0x100, stack, 4, &r), CFI_STEP_STOP);
	/* every byte of a valid FDE cut short: a stop or a step, no fault */
	static const uint8_t insns[] = { 0x41, 0x0e, 16, 0x83, 2, 0x44, 0x0e, 32 };
	make(&f, "zR", usual_cie, sizeof(usual_cie), insns, sizeof(insns));
	for (size_t cut = 0; cut < f.len; cut++) {
		span = (struct eh_span){ f.b, f.b + cut };
		if (eh_fde_read(&span, f.b + f.fde, &fde) == 0) {
			struct cfi_stack st = { (uintptr_t)stack, (uintptr_t)(stack + 4) };
			r = at(stack, 0);
			cfi_step(&span, &fde, BEGIN + 6, &st, &r);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_steps_through_a_prologue),
		cmocka_unit_test(test_remember_restore_and_frame_register),
		cmocka_unit_test(test_undefined_return_address_is_the_first_frame),
		cmocka_unit_test(test_expressions),
		cmocka_unit_test(test_hostile_bytes_stop),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
