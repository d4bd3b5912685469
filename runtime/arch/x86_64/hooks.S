/*
 * Entry points the compilers call, and the return trampoline, for x86-64.
 *
 * mcount (-pg) runs after the instrumented function's prologue, so its
 * return address lies at 8(%rbp); __fentry__ (-pg -mfentry) runs before
 * the prologue, so it lies just above our own return address.  Both save
 * every integer register that can carry an argument (the function has not
 * read its arguments yet) and call C with (return-address slot, address
 * inside the function): first the fast path, which calls nothing and so
 * saves no register of its own, and when it declines the full one.  The
 * fast path is the one compiled for the recording's kind (a trace's or a
 * flight recording's, or count mode's) or none, as the process's settings
 * say: the constructor sets callscope_hook_enter_fast_path, and its
 * return's callscope_hook_return_fast_path, once, and an indirect call
 * through it costs each kind what a direct call would.  The C side is
 * built with -mgeneral-regs-only, and its rare calls into libc (a
 * thread's first hook opens its files, a buffer's growth asks the file
 * system for room) keep the whole vector state themselves
 * (keep_vectors.S), so the hooks save no vector register: the function's
 * arguments in xmm, ymm or zmm registers come through as they were.  The
 * C side may replace the return address with
 * callscope_return_trampoline, which saves the return-value registers,
 * asks C (the fast path first, likewise) where the function really
 * returns to, and jumps there.
 *
 * Frame: 8 integer registers (64 bytes) + 8 bytes of padding = 72, which
 * keeps %rsp 16-byte aligned at the call when it is 8 mod 16 on entry, as
 * in mcount, called from the function's body.  __fentry__ is called
 * before the function's prologue, with the function's own return address
 * still on top: %rsp is 0 mod 16 on entry, and 8 more bytes of padding
 * align its calls.  The C side keeps to general registers and does not
 * care, but a thread's first hook calls libc, and libc (or a malloc the
 * user preloads) may store vector registers to the stack with
 * instructions that fault when it is misaligned.
 */
	.text

#include "save_regs.h"

/* A label the sampler knows the hooks' parts by (runtime/hook_samples.c). */
.macro HOOK_LABEL label
	.globl	\label
	.hidden	\label
\label:
.endm

/*
 * An entry hook: SLOT is the return-address slot's offset from %rsp as
 * the hook is entered (8 for __fentry__), or -1 to take it from the frame
 * pointer (mcount runs after the prologue: 8(%rbp)); PAD, 8 where %rsp is
 * 16-byte aligned on entry (__fentry__), else 0.  The fast path is tried
 * first; when it declines, the full path runs in the same frame.
 */
.macro ENTRY_HOOK name, slot, pad
	.globl	\name
	.type	\name, @function
	.p2align 4
\name:
	.cfi_startproc
	.if \pad
	subq	$\pad, %rsp
	.cfi_adjust_cfa_offset \pad
	.endif
	SAVE_INT
	movq	callscope_hook_enter_fast_path(%rip), %rax
	testq	%rax, %rax
	jz	3f
	.if \slot < 0
	leaq	8(%rbp), %rdi
	.else
	leaq	\slot+\pad+FRAME(%rsp), %rdi
	.endif
	movq	\pad+FRAME(%rsp), %rsi	/* our return address: inside the function */
	call	*%rax
	/* the callee's clock runs from here on, and after the full path's
	 * call below; the caller's before each (runtime/hook_samples.c) */
	HOOK_LABEL \name\()_fast_done
	testq	%rax, %rax
	jnz	3f
2:	.cfi_remember_state
	RESTORE_INT
	.if \pad
	leaq	\pad(%rsp), %rsp	/* lea: the flags stay as they were */
	.cfi_adjust_cfa_offset -\pad
	.endif
	ret
	/* the code below runs with the registers still saved */
	.cfi_restore_state
3:	HOOK_LABEL \name\()_full
	.if \slot < 0
	leaq	8(%rbp), %rdi
	.else
	leaq	\slot+\pad+FRAME(%rsp), %rdi
	.endif
	movq	\pad+FRAME(%rsp), %rsi
	call	callscope_hook_enter
	HOOK_LABEL \name\()_full_done
	jmp	2b
	HOOK_LABEL \name\()_end
	.cfi_endproc
	.size	\name, .-\name
.endm

	ENTRY_HOOK mcount, -1, 0
	.globl	_mcount
	.set	_mcount, mcount
	ENTRY_HOOK __fentry__, 8, 8

/*
 * Reached by the instrumented function's `ret`: %rsp is 8 past the slot
 * that held the return address, and 16-byte aligned.  Only the integer
 * return registers need saving: the C side is built with
 * -mgeneral-regs-only, and when it grows the buffer, which calls libc, it
 * saves the vector state around that (keep_vectors.S), so xmm0/xmm1 and
 * st(0) come through untouched.
 *
 * It leaves by an indirect jump through %r11 (free at a return: neither
 * kept across calls nor a return value), not by `ret`: the function's
 * own `ret` came here, so the CPU's return-address stack has already
 * given up the entry of the call that made it, and a second `ret` would
 * take the caller's entry, be mispredicted, and leave every later
 * return one entry off.  The jump is predicted from the branch history
 * instead; on the Lua benchmark it saves 3–4 ns per call.
 */
	.globl	callscope_return_trampoline
	.hidden	callscope_return_trampoline
	.type	callscope_return_trampoline, @function
	.p2align 4
/* where an unwinder looks up this return point, less one
 * (patch/unwind_info.c): a frame returning here is named by this */
	.type	callscope_redirected_return, @function
callscope_redirected_return:
	nop
callscope_return_trampoline:
	subq	$8, %rsp		/* back over the slot */
	pushq	%rax
	pushq	%rdx			/* %rsp is 8 mod 16 now */
	leaq	16(%rsp), %rdi		/* the slot */
	subq	$8, %rsp
	movq	callscope_hook_return_fast_path(%rip), %rcx
	testq	%rcx, %rcx
	je	2f
	call	*%rcx
	testq	%rax, %rax
	jnz	1f
2:	leaq	24(%rsp), %rdi		/* no fast path, or it declined */
	call	callscope_hook_return
	/* the caller's clock runs again from here on (runtime/hook_samples.c) */
1:	HOOK_LABEL callscope_return_trampoline_hooked
	movq	%rax, %r11
	addq	$8, %rsp
	popq	%rdx
	popq	%rax
	addq	$8, %rsp
	jmp	*%r11
	HOOK_LABEL callscope_return_trampoline_end
	.size	callscope_return_trampoline, .-callscope_return_trampoline
	.size	callscope_redirected_return, .-callscope_redirected_return

	.section .note.GNU-stack,"",@progbits
