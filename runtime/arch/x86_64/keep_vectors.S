/*
 * int callscope_call_keeping_vectors(int (*fn)(void *), void *arg)
 *
 * Calls FN(ARG) with the vector and x87 state saved around it (xsave, or
 * fxsave where the processor or the kernel has no xsave:
 * callscope_xsave_ok), and returns what it returns.  The hooks keep only
 * the integer registers, for the C side is built with
 * -mgeneral-regs-only; but a hook sometimes calls libc: a thread's first
 * hook opens the thread's files, and a buffer's growth asks the file
 * system for room (fstatvfs copies its result through xmm0-3).  At that
 * moment the vector registers may hold the instrumented function's
 * arguments (xmm0-7, or ymm and zmm ones, whose upper halves libc's AVX
 * string functions clear with vzeroupper), or its return value.  Both
 * are rare (once per thread, a few growths per thread, then one per
 * chunk), so they pay for the whole state.
 */
	.text

/* xsave's components: bits 0-2 and 5-7, x87, SSE, AVX and the AVX-512
 * state, which fit in XSAVE_AREA bytes */
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
	cmpl	$0, callscope_xsave_ok(%rip)
	je	1f
	/* the area lies below the stack, aligned to 64 bytes, and %rbp
	 * finds the frame again */
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
	movl	%eax, %r12d		/* FN's result, past xrstor's use of %eax */
	movl	$XSAVE_MASK, %eax
	xorl	%edx, %edx
	xrstor	(%rsp)
	movl	%r12d, %eax
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
