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


/*
 * The whole extended state, for the rare paths that call libc, which may
 * use any vector or x87 register: XSAVE_STATE saves it in an area below
 * %rsp, aligned to 64 bytes (the caller keeps its stack in %rbp or a
 * callee-saved register and leaves through it); XRSTOR_STATE restores it
 * and keeps %eax, the C side's result.  Bits 0-2 and 5-7: x87, SSE, AVX
 * and the AVX-512 state.
 */
#define XSAVE_MASK 0xe7
#define XSAVE_AREA 4096

.macro XSAVE_STATE
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
.endm

.macro XRSTOR_STATE
	movl	%eax, XSAVE_AREA(%rsp)
	movl	$XSAVE_MASK, %eax
	xorl	%edx, %edx
	xrstor	(%rsp)
	movl	XSAVE_AREA(%rsp), %eax
.endm
