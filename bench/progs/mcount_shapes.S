/*
 * mcount in several shapes, for bench/hook-shapes.sh: each build, with
 * its -D flags, is one shape of entry hook preloaded over a -pg program,
 * so that what the shape alone does to the program's own timer samples
 * can be measured without callscope.  The flags:
 *
 *   FRAME N    bytes of stack frame;   NSAVE N   argument registers saved
 *   NEST 1     a call of the C side (an empty function) from the hook
 *   ARGS       the C side's two arguments loaded, as glibc's mcount does
 *   GLOBAL     a global tested first, as callscope's hooks do
 *   WORK N     N dependent multiplications before the hook's return
 *   NOPS N     N nops before it
 *   CLOCK      glibc's `lock cmpxchg` and store in the C side
 *   CIC N      N taken jumps in the C side, each to its own cache line
 *   CBR        4 branches on bits of a pseudo-random number in the C side
 *
 * WORK uses %r11, which carries no argument at a function's entry;
 * CLOCK and CBR use %rax and %rdx, so they need NSAVE 3 or more.
 */
#ifndef FRAME
#define FRAME 0
#endif
#ifndef NSAVE
#define NSAVE 0
#endif
#ifndef NEST
#define NEST 0
#endif

	.data
	.p2align 6
	.hidden	shape_flag
shape_flag:
	.long	1
	.p2align 6
	.hidden	shape_lock
shape_lock:
	.quad	0
	.hidden	shape_lcg
shape_lcg:
	.quad	1

	.text
	.p2align 4
	.hidden	shape_c_side
shape_c_side:
#ifdef CLOCK
	xorl	%eax, %eax
	movl	$1, %edx
	lock cmpxchgq %rdx, shape_lock(%rip)
	movq	$0, shape_lock(%rip)
#endif
#ifdef CIC
	.rept	CIC
	jmp	1f
	.p2align 6
1:
	.endr
#endif
#ifdef CBR
	movq	shape_lcg(%rip), %rax
	movabsq	$6364136223846793005, %rdx
	imulq	%rdx, %rax
	movabsq	$1442695040888963407, %rdx
	addq	%rdx, %rax
	movq	%rax, shape_lcg(%rip)
	.irp	bit, 40, 41, 42, 43
	btq	$\bit, %rax
	jc	1f
	nop
1:
	.endr
#endif
	xorl	%eax, %eax
	ret

	.globl	mcount
	.type	mcount, @function
	.p2align 4
mcount:
#if FRAME
	subq	$FRAME, %rsp
#endif
#if NSAVE > 0
	movq	%rax, 0(%rsp)
#endif
#if NSAVE > 1
	movq	%rcx, 8(%rsp)
#endif
#if NSAVE > 2
	movq	%rdx, 16(%rsp)
#endif
#if NSAVE > 3
	movq	%rsi, 24(%rsp)
#endif
#if NSAVE > 4
	movq	%rdi, 32(%rsp)
#endif
#if NSAVE > 5
	movq	%r8, 40(%rsp)
#endif
#if NSAVE > 6
	movq	%r9, 48(%rsp)
#endif
#if NSAVE > 7
	movq	%r10, 56(%rsp)
#endif
#ifdef GLOBAL
	cmpl	$0, shape_flag(%rip)
	je	9f
#endif
#ifdef ARGS
	leaq	8(%rbp), %rdi
	movq	FRAME(%rsp), %rsi
#endif
#if NEST
	call	shape_c_side
#endif
#ifdef GLOBAL
	testl	%eax, %eax
	jnz	9f
#endif
#ifdef WORK
	.rept	WORK
	imulq	%r11, %r11
	.endr
#endif
#ifdef NOPS
	.rept	NOPS
	nop
	.endr
#endif
9:
#if NSAVE > 7
	movq	56(%rsp), %r10
#endif
#if NSAVE > 6
	movq	48(%rsp), %r9
#endif
#if NSAVE > 5
	movq	40(%rsp), %r8
#endif
#if NSAVE > 4
	movq	32(%rsp), %rdi
#endif
#if NSAVE > 3
	movq	24(%rsp), %rsi
#endif
#if NSAVE > 2
	movq	16(%rsp), %rdx
#endif
#if NSAVE > 1
	movq	8(%rsp), %rcx
#endif
#if NSAVE > 0
	movq	0(%rsp), %rax
#endif
#if FRAME
	addq	$FRAME, %rsp
#endif
	ret
	.size	mcount, .-mcount

	.section .note.GNU-stack,"",@progbits
