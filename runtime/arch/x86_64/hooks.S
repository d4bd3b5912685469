/*
 * Entry points the compilers call, and the return trampoline, for x86-64.
 *
 * mcount (-pg) runs after the instrumented function's prologue, so its
 * return address lies at 8(%rbp); __fentry__ (-pg -mfentry) runs before
 * the prologue, so it lies just above our own return address.  Both save
 * every integer register that can carry an argument (the function has not
 * read its arguments yet) and call C with (return-address slot, address
 * inside the function).  The C fast path is built with
 * -mgeneral-regs-only and calls nothing that touches vector registers, so
 * xmm0-7 are saved only when it asks for the slow path (a thread's first
 * hook, which opens files through libc).  The C side may replace the
 * return address with callscope_return_trampoline, which saves the
 * return-value registers, asks C where the function really returns to,
 * and jumps there.
 *
 * Frame: 8 integer registers (64 bytes) + 8 bytes of padding = 72, which
 * keeps %rsp 16-byte aligned at the call (it is 8 mod 16 on entry); the
 * slow path adds 128 bytes for xmm0-7.
 */
	.text

#include "save_regs.h"

/*
 * An entry hook: SLOT_FROM_FRAME is the return-address slot's offset from
 * %rsp once SAVE_INT has run (FRAME + 8 for __fentry__), or -1 to take it
 * from the frame pointer (mcount runs after the prologue: 8(%rbp)).
 */
.macro ENTRY_HOOK name, slot_from_frame
	.globl	\name
	.type	\name, @function
	.p2align 4
\name:
	.cfi_startproc
	SAVE_INT
	.if \slot_from_frame < 0
	leaq	8(%rbp), %rdi
	.else
	leaq	\slot_from_frame(%rsp), %rdi
	.endif
	movq	FRAME(%rsp), %rsi	/* our return address: inside the function */
	call	callscope_hook_enter
	/* from here on the callee's clock runs (runtime/hook_samples.c) */
	.globl	\name\()_hooked
	.hidden	\name\()_hooked
\name\()_hooked:
	testl	%eax, %eax
	jnz	1f
2:	RESTORE_INT
	ret
1:	SAVE_XMM
	.if \slot_from_frame < 0
	leaq	8(%rbp), %rdi
	.else
	leaq	\slot_from_frame+XMM_FRAME(%rsp), %rdi
	.endif
	movq	FRAME+XMM_FRAME(%rsp), %rsi
	call	callscope_hook_enter_slow
	RESTORE_XMM
	jmp	2b
	.globl	\name\()_end
	.hidden	\name\()_end
\name\()_end:
	.cfi_endproc
	.size	\name, .-\name
.endm

	ENTRY_HOOK mcount, -1
	.globl	_mcount
	.set	_mcount, mcount
	ENTRY_HOOK __fentry__, FRAME+8

/*
 * Reached by the instrumented function's `ret`: %rsp is 8 past the slot
 * that held the return address, and 16-byte aligned.  Only the integer
 * return registers need saving: the C side is built with
 * -mgeneral-regs-only and, when it grows the buffer, makes only system
 * calls, so xmm0/xmm1 and st(0) come through untouched.
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
	call	callscope_hook_return
	/* from here on the caller's clock runs again (runtime/hook_samples.c) */
	.globl	callscope_return_trampoline_hooked
	.hidden	callscope_return_trampoline_hooked
callscope_return_trampoline_hooked:
	movq	%rax, %r11
	addq	$8, %rsp
	popq	%rdx
	popq	%rax
	addq	$8, %rsp
	jmp	*%r11
	.globl	callscope_return_trampoline_end
	.hidden	callscope_return_trampoline_end
callscope_return_trampoline_end:
	.size	callscope_return_trampoline, .-callscope_return_trampoline
	.size	callscope_redirected_return, .-callscope_redirected_return

	.section .note.GNU-stack,"",@progbits
