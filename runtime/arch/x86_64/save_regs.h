/*
 * Saving the registers an entry hook must keep around its call into C, for
 * the compiler hooks (hooks.S) and the library-call stubs (libcall.S).
 *
 * FRAME holds the 8 integer registers that can carry an argument (64
 * bytes) and one more slot at 64(%rsp), padding for the compiler hooks and
 * %r11 for the library calls; 72 bytes keep %rsp 16-byte aligned at the
 * call (it is 8 mod 16 on entry).
 */
#define FRAME 72

.macro SAVE_INT
	subq	$FRAME, %rsp
	.cfi_adjust_cfa_offset FRAME
	movq	%rdi, 0(%rsp)
	movq	%rsi, 8(%rsp)
	movq	%rdx, 16(%rsp)
	movq	%rcx, 24(%rsp)
	movq	%r8, 32(%rsp)
	movq	%r9, 40(%rsp)
	movq	%rax, 48(%rsp)
	movq	%r10, 56(%rsp)
.endm

.macro RESTORE_INT
	movq	56(%rsp), %r10
	movq	48(%rsp), %rax
	movq	40(%rsp), %r9
	movq	32(%rsp), %r8
	movq	24(%rsp), %rcx
	movq	16(%rsp), %rdx
	movq	8(%rsp), %rsi
	movq	0(%rsp), %rdi
	leaq	FRAME(%rsp), %rsp	/* lea: the flags stay as they were */
	.cfi_adjust_cfa_offset -FRAME
.endm
