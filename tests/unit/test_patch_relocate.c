/* Relocating the instructions a patched entry displaces (patch/relocate.c):
 * what is copied as it is, what becomes a fixup, what is re-encoded and
 * what is refused. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "patch/relocate.h"

#define AT 0x401000ull

static csh cs;

static enum patch_skip relocate(const uint8_t *bytes, size_t len, struct patch_reloc *r)
{
	return patch_relocate(cs, bytes, len, AT, AT + len, r);
}

static void assert_fixup(const struct patch_reloc *r, size_t i, uint64_t target, uint32_t at,
			 uint32_t end)
{
	assert_true(i < r->nfixups);
	assert_int_equal(r->fixups[i].target, target);
	assert_int_equal(r->fixups[i].at, at);
	assert_int_equal(r->fixups[i].insn_end, end);
}

static void test_plain_copied(void **state)
{
	/* push rbp; mov rbp,rsp; sub rsp,0x10 */
	static const uint8_t b[] = { 0x55, 0x48, 0x89, 0xe5, 0x48, 0x83, 0xec, 0x10 };
	struct patch_reloc r;

	(void)state;
	assert_int_equal(relocate(b, sizeof(b), &r), PATCH_OK);
	assert_int_equal(r.len, sizeof(b));
	assert_memory_equal(r.code, b, sizeof(b));
	assert_int_equal(r.nfixups, 0);
	assert_int_equal(r.ends, 0);
}

static void test_rip_operands(void **state)
{
	static const uint8_t b[] = {
		0x48, 0x8b, 0x05, 0x10, 0x00, 0x00, 0x00,	/* mov rax,[rip+0x10] */
		0xc7, 0x05, 0xf0, 0xff, 0xff, 0xff, 0x05, 0x00, 0x00, 0x00,	/* mov dword [rip-0x10],5 */
		0xf2, 0x0f, 0x59, 0x05, 0x00, 0x01, 0x00, 0x00,	/* mulsd xmm0,[rip+0x100] */
		0x66, 0x0f, 0x6f, 0x0d, 0x20, 0x00, 0x00, 0x00,	/* movdqa xmm1,[rip+0x20] */
	};
	struct patch_reloc r;

	(void)state;
	assert_int_equal(relocate(b, sizeof(b), &r), PATCH_OK);
	/* the bytes stay, each disp32 becomes a fixup reaching the same place */
	assert_memory_equal(r.code, b, sizeof(b));
	assert_int_equal(r.nfixups, 4);
	assert_fixup(&r, 0, AT + 7 + 0x10, 3, 7);
	/* relative to the end of the whole instruction, immediate included */
	assert_fixup(&r, 1, AT + 17 - 0x10, 9, 17);
	assert_fixup(&r, 2, AT + 25 + 0x100, 21, 25);
	/* capstone 4 calls this disp 2 bytes long after the 66 prefix */
	assert_fixup(&r, 3, AT + 33 + 0x20, 29, 33);
}

static void test_short_branches_widened(void **state)
{
	/* test rdi,rdi; je +0x10; jmp -0x20 */
	static const uint8_t b[] = { 0x48, 0x85, 0xff, 0x74, 0x10, 0xeb, 0xe0 };
	static const uint8_t want[] = { 0x48, 0x85, 0xff, 0x0f, 0x84, 0, 0, 0, 0, 0xe9, 0, 0, 0, 0 };
	struct patch_reloc r;

	(void)state;
	assert_int_equal(relocate(b, sizeof(b), &r), PATCH_OK);
	assert_int_equal(r.len, sizeof(want));
	assert_memory_equal(r.code, want, sizeof(want));
	assert_int_equal(r.nfixups, 2);
	assert_fixup(&r, 0, AT + 5 + 0x10, 5, 9);
	assert_fixup(&r, 1, AT + 7 - 0x20, 10, 14);
	assert_int_equal(r.ends, 1);
}

static void test_loop_to_entry(void **state)
{
	/* dec edi; jnz AT (back to the window's own start) */
	static const uint8_t b[] = { 0xff, 0xcf, 0x75, 0xfc, 0xc3 };
	struct patch_reloc r;

	(void)state;
	assert_int_equal(relocate(b, sizeof(b), &r), PATCH_OK);
	assert_int_equal(r.code[2], 0x0f);
	assert_int_equal(r.code[3], 0x85);
	assert_fixup(&r, 0, AT, 4, 8);
	assert_int_equal(r.ends, 1);
}

static void test_jrcxz_expanded(void **state)
{
	/* jrcxz +0x30; mov eax,1 */
	static const uint8_t b[] = { 0xe3, 0x30, 0xb8, 0x01, 0x00, 0x00, 0x00 };
	static const uint8_t want[] = { 0xe3, 0x02, 0xeb, 0x05, 0xe9, 0, 0, 0, 0,
					0xb8, 0x01, 0x00, 0x00, 0x00 };
	struct patch_reloc r;

	(void)state;
	assert_int_equal(relocate(b, sizeof(b), &r), PATCH_OK);
	assert_int_equal(r.len, sizeof(want));
	assert_memory_equal(r.code, want, sizeof(want));
	assert_fixup(&r, 0, AT + 2 + 0x30, 5, 9);
	assert_int_equal(r.ends, 0);
}

static void test_call_keeps_return_address(void **state)
{
	/* push rbx; call +0x100 */
	static const uint8_t b[] = { 0x53, 0xe8, 0x00, 0x01, 0x00, 0x00 };
	static const uint8_t want[] = {
		0x53,
		0x48, 0x8d, 0x64, 0x24, 0xf8,	/* lea rsp,[rsp-8] */
		0x50,				/* push rax */
		0x48, 0x8d, 0x05, 0, 0, 0, 0,	/* lea rax,[rip+RET] */
		0x48, 0x89, 0x44, 0x24, 0x08,	/* mov [rsp+8],rax */
		0x58,				/* pop rax */
		0xe9, 0, 0, 0, 0,		/* jmp target */
	};
	struct patch_reloc r;

	(void)state;
	assert_int_equal(relocate(b, sizeof(b), &r), PATCH_OK);
	assert_int_equal(r.len, sizeof(want));
	assert_memory_equal(r.code, want, sizeof(want));
	assert_fixup(&r, 0, AT + 6, 10, 14);
	assert_fixup(&r, 1, AT + 6 + 0x100, 21, 25);
	assert_int_equal(r.ends, 1);
}

static void test_indirect_call(void **state)
{
	/* call [rip+0x200] becomes jmp [rip+...] after the return address */
	static const uint8_t b[] = { 0xff, 0x15, 0x00, 0x02, 0x00, 0x00 };
	struct patch_reloc r;

	(void)state;
	assert_int_equal(relocate(b, sizeof(b), &r), PATCH_OK);
	assert_int_equal(r.len, 19 + 6);
	assert_int_equal(r.code[19], 0xff);
	assert_int_equal(r.code[20], 0x25);
	assert_fixup(&r, 0, AT + 6, 9, 13);
	assert_fixup(&r, 1, AT + 6 + 0x200, 21, 25);
}

static void test_refused(void **state)
{
	struct patch_reloc r;
	/* a call returning into the window: call +0; nop */
	static const uint8_t call_mid[] = { 0xe8, 0, 0, 0, 0, 0x90 };
	/* call [rsp+8]: the operand moves with the emulation */
	static const uint8_t call_rsp[] = { 0xff, 0x54, 0x24, 0x08, 0x90 };
	/* xbegin: relative, with no relocated form */
	static const uint8_t xbegin[] = { 0xc7, 0xf8, 0, 0, 0, 0 };
	/* code after a jump is reached by something else */
	static const uint8_t after_jmp[] = { 0xeb, 0x10, 0x31, 0xc0, 0xc3 };
	/* not an instruction */
	static const uint8_t junk[] = { 0x06, 0x06, 0x06, 0x06, 0x06 };

	(void)state;
	assert_int_equal(relocate(call_mid, sizeof(call_mid), &r), PATCH_SKIP_CALL_IN_WINDOW);
	assert_int_equal(patch_relocate(cs, call_rsp, 4, AT, AT + 4, &r),
			 PATCH_SKIP_UNRELOCATABLE);
	assert_int_equal(relocate(xbegin, sizeof(xbegin), &r), PATCH_SKIP_UNRELOCATABLE);
	assert_int_equal(relocate(after_jmp, sizeof(after_jmp), &r), PATCH_SKIP_UNRELOCATABLE);
	assert_int_equal(relocate(junk, sizeof(junk), &r), PATCH_SKIP_UNDECODABLE);
}

static int setup(void **state)
{
	(void)state;
	cs = patch_capstone_open();
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	patch_capstone_close(cs);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_copied),
		cmocka_unit_test(test_rip_operands),
		cmocka_unit_test(test_short_branches_widened),
		cmocka_unit_test(test_loop_to_entry),
		cmocka_unit_test(test_jrcxz_expanded),
		cmocka_unit_test(test_call_keeps_return_address),
		cmocka_unit_test(test_indirect_call),
		cmocka_unit_test(test_refused),
	};
	return cmocka_run_group_tests_name("patch_relocate", tests, setup, teardown);
}
