/*
 * int callscope_call_on_stack(int (*fn)(void *), void *arg, void *top)
 *
 * Calls FN(ARG) with the stack pointer at TOP (rounded down to 16 bytes)
 * and returns what it returns, back on the caller's stack.  The child of
 * clone() (clone.c) starts on the runtime's own stack, where it makes
 * itself a process of its own, and then runs the program's function on
 * the stack the program gave it, which may be a page or two.
 */
	.text
	.globl	callscope_call_on_stack
	.hidden	callscope_call_on_stack
	.type	callscope_call_on_stack, @function
	.p2align 4
callscope_call_on_stack:
	.cfi_startproc
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_offset %rbp, -16
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	movq	%rdx, %rsp
	andq	$-16, %rsp
	movq	%rdi, %rax
	movq	%rsi, %rdi
	call	*%rax
	movq	%rbp, %rsp
	.cfi_def_cfa_register %rsp
	popq	%rbp
	.cfi_adjust_cfa_offset -8
	.cfi_restore %rbp
	ret
	.cfi_endproc
	.size	callscope_call_on_stack, .-callscope_call_on_stack

	.section .note.GNU-stack,"",@progbits
