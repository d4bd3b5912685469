/*
 * int callscope_call_keeping_vectors(int (*fn)(void *), void *arg)
 *
 * Calls FN(ARG) with the vector and x87 state saved around it (xsave, as
 * patch.S's slow path), and returns what it returns.  The hooks' fast and
 * full paths keep only the integer registers, for the C side is built
 * with -mgeneral-regs-only; but when a hook grows a thread's buffer it
 * calls libc (fstatvfs copies its result through xmm0-3), and at that
 * moment xmm0-7 may hold the instrumented function's arguments, or xmm0-1
 * the value it returns.  Growing is rare (a few times per thread, then
 * once per chunk), so it pays for the whole state.
 */
	.text

/* xsave: x87, SSE, AVX and the AVX-512 state (bits 0-2, 5-7). */
#define XSAVE_MASK 0xe7
#define XSAVE_AREA 4096

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
	subq	$XSAVE_AREA+64, %rsp
	andq	$-64, %rsp
	xorl	%eax, %eax
	movq	%rax, 512(%rsp)		/* the xsave header must start zeroed */
	movq	%rax, 520(%rsp)
	movq	%rax, 528(%rsp)
	movq	%rax, 536(%rsp)
	movq	%rax, 544(%rsp)
	movq	%rax, 552(%rsp)
	movq	%rax, 560(%rsp)
	movq	%rax, 568(%rsp)
	movl	$XSAVE_MASK, %eax
	xorl	%edx, %edx
	xsave	(%rsp)
	movq	%r12, %rdi
	call	*%rbx
	movl	%eax, XSAVE_AREA(%rsp)
	movl	$XSAVE_MASK, %eax
	xorl	%edx, %edx
	xrstor	(%rsp)
	movl	XSAVE_AREA(%rsp), %eax
	leaq	-16(%rbp), %rsp
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
