/*
 * int callscope_call_keeping_vectors(int (*fn)(void *), void *arg)
 *
 * Calls FN(ARG) with the vector and x87 state saved around it (xsave, as
 * patch.S's slow path, or fxsave where the processor or the kernel has no
 * xsave: callscope_xsave_ok), and returns what it returns.  The hooks' fast and
 * full paths keep only the integer registers, for the C side is built
 * with -mgeneral-regs-only; but when a hook grows a thread's buffer it
 * calls libc (fstatvfs copies its result through xmm0-3), and at that
 * moment xmm0-7 may hold the instrumented function's arguments, or xmm0-1
 * the value it returns.  Growing is rare (a few times per thread, then
 * once per chunk), so it pays for the whole state.
 */
	.text

#include "save_regs.h"

	.globl	callscope_call_keeping_vectors
	.hidden	callscope_call_keeping_vectors
	.type	callscope_call_keeping_vectors, @function
	.p2align 4
callscope_call_keeping_vectors:
	.cfi_startproc
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_offset %rbp, -16
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	pushq	%rbx
	pushq	%r12
	.cfi_offset %rbx, -24
	.cfi_offset %r12, -32
	movq	%rdi, %rbx
	movq	%rsi, %r12
	cmpl	$0, callscope_xsave_ok(%rip)
	je	1f
	XSAVE_STATE
	movq	%r12, %rdi
	call	*%rbx
	XRSTOR_STATE
	jmp	2f
	/* a processor without xsave has x87 and SSE alone, all of which
	 * fxsave keeps */
1:	subq	$512, %rsp
	andq	$-16, %rsp
	fxsave64 (%rsp)
	movq	%r12, %rdi
	call	*%rbx
	fxrstor64 (%rsp)
2:	leaq	-16(%rbp), %rsp
	popq	%r12
	.cfi_restore %r12
	popq	%rbx
	.cfi_restore %rbx
	popq	%rbp
	.cfi_def_cfa %rsp, 8
	.cfi_restore %rbp
	ret
	.cfi_endproc
	.size	callscope_call_keeping_vectors, .-callscope_call_keeping_vectors

	.section .note.GNU-stack,"",@progbits
