/*
 * Saving the registers an entry hook must keep around its call into C, for
 * the compiler hooks (hooks.S) and the library-call stubs (libcall.S).
 *
 * FRAME holds the 8 integer registers that can carry an argument (64
 * bytes) and one more slot at 64(%rsp), padding for the compiler hooks and
 * %r11 for the library calls; 72 bytes keep %rsp 16-byte aligned at the
 * call (it is 8 mod 16 on entry).  XMM_FRAME holds xmm0-7, saved only on
 * the slow path.
 */
#define FRAME 72
#define XMM_FRAME 128

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

.macro SAVE_XMM
	subq	$XMM_FRAME, %rsp
	.cfi_adjust_cfa_offset XMM_FRAME
	movdqu	%xmm0, 0(%rsp)
	movdqu	%xmm1, 16(%rsp)
	movdqu	%xmm2, 32(%rsp)
	movdqu	%xmm3, 48(%rsp)
	movdqu	%xmm4, 64(%rsp)
	movdqu	%xmm5, 80(%rsp)
	movdqu	%xmm6, 96(%rsp)
	movdqu	%xmm7, 112(%rsp)
.endm

.macro RESTORE_XMM
	movdqu	112(%rsp), %xmm7
	movdqu	96(%rsp), %xmm6
	movdqu	80(%rsp), %xmm5
	movdqu	64(%rsp), %xmm4
	movdqu	48(%rsp), %xmm3
	movdqu	32(%rsp), %xmm2
	movdqu	16(%rsp), %xmm1
	movdqu	0(%rsp), %xmm0
	addq	$XMM_FRAME, %rsp
	.cfi_adjust_cfa_offset -XMM_FRAME
.endm

