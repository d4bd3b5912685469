/*
 * The hooks a patched function's trampoline calls (runtime/patch/patch.h
 * has the trampoline, runtime/patch/enter.c the C side).
 *
 * The compiler built the program believing the patched function would
 * run alone: with -fipa-ra a caller may keep values in any register the
 * function leaves alone, caller-saved or not.  So both hooks keep every
 * integer register the C side may touch (the 9 caller-saved ones); the C
 * side is built with -mgeneral-regs-only, and where it calls libc, which
 * may use any vector or x87 register (a thread's first hook opens its
 * files, a buffer's growth asks for room), it keeps their whole state
 * itself (keep_vectors.S): so they come through untouched.
 * The flags need no care: no code reads them across a call or entry.
 *
 * Frame: save_regs.h's 8 registers and %r11, and 8 bytes of padding = 80,
 * which keeps %rsp 16-byte aligned at the call into C (it is 16-aligned on
 * entry: the function's return address and the trampoline's call lie
 * above).
 */
	.text

#include "save_regs.h"

/* FRAME (save_regs.h) with %r11 in its last slot, and 8 bytes of padding */
#define PFRAME (FRAME + 8)

.macro SAVE_ALL_INT
	SAVE_INT
	movq	%r11, 64(%rsp)
	subq	$8, %rsp
	.cfi_adjust_cfa_offset 8
.endm

/* Restores them without touching the flags (lea, not add). */
.macro RESTORE_ALL_INT
	leaq	8(%rsp), %rsp
	.cfi_adjust_cfa_offset -8
	movq	64(%rsp), %r11
	RESTORE_INT
.endm

/*
 * Called by the trampoline at its entry: (%rsp) is the trampoline's
 * return address, 8(%rsp) the function's return-address slot.  Returns
 * with ZF set when the C side redirected the return (the trampoline then
 * calls the body), clear when the body must run in place.
 */
	.globl	callscope_patch_entry
	.hidden	callscope_patch_entry
	.type	callscope_patch_entry, @function
	.p2align 4
callscope_patch_entry:
	.cfi_startproc
	endbr64				/* reached by an indirect call */
	SAVE_ALL_INT
	leaq	PFRAME+8(%rsp), %rdi	/* the slot */
	movq	PFRAME(%rsp), %rsi	/* the trampoline, past its entry */
	call	callscope_patch_enter
	testl	%eax, %eax
	RESTORE_ALL_INT
	ret
	.cfi_endproc
	.size	callscope_patch_entry, .-callscope_patch_entry

/*
 * Called by the trampoline once the body returned: (%rsp) is the
 * trampoline's return address, 8(%rsp) the function's return-address
 * slot, which gets the real return address from the shadow stack.
 */
	.globl	callscope_patch_exit
	.hidden	callscope_patch_exit
	.type	callscope_patch_exit, @function
	.p2align 4
callscope_patch_exit:
	.cfi_startproc
	endbr64
	SAVE_ALL_INT
	leaq	PFRAME+8(%rsp), %rdi
	call	callscope_hook_return
	movq	%rax, PFRAME+8(%rsp)
	RESTORE_ALL_INT
	ret
	.cfi_endproc
	.size	callscope_patch_exit, .-callscope_patch_exit

	.section .note.GNU-stack,"",@progbits
