/*
 * The way into the shadow stack for calls between objects (see
 * runtime/libcall.c).  Each hooked GOT slot leads to a small stub that
 * loads its struct libcall_target into %r11 (free at a call through the
 * PLT or GOT: the ABI lets the PLT clobber it) and jumps here.  The return
 * address of the call into the library lies at (%rsp), as __fentry__
 * finds its own.  The integer argument registers are saved around the C
 * side, which is built with -mgeneral-regs-only and keeps the vector
 * registers (floating-point arguments: sqrt, cos) around its rare calls
 * into libc itself (thread_start()).  Then the call goes on to the
 * library function, whose return the C side may have redirected through
 * callscope_return_trampoline.
 *
 * Frame: 9 integer registers (72 bytes) keeps %rsp 16-byte aligned at the
 * call (it is 8 mod 16 on entry, the call's return address just pushed).
 */
	.text

#include "save_regs.h"

	.globl	callscope_libcall_entry
	.hidden	callscope_libcall_entry
	.type	callscope_libcall_entry, @function
	.p2align 4
callscope_libcall_entry:
	.cfi_startproc
	endbr64
	SAVE_INT
	movq	%r11, 64(%rsp)
	leaq	FRAME(%rsp), %rdi	/* the return-address slot */
	movq	%r11, %rsi
	call	callscope_libcall_enter
	/* the callee's clock runs from here on, the caller's before
	 * (runtime/hook_samples.c) */
	.globl	callscope_libcall_entry_done
	.hidden	callscope_libcall_entry_done
callscope_libcall_entry_done:
	movq	64(%rsp), %r11
	RESTORE_INT
	jmp	*(%r11)			/* libcall_target.jump */
	.globl	callscope_libcall_entry_end
	.hidden	callscope_libcall_entry_end
callscope_libcall_entry_end:
	.cfi_endproc
	.size	callscope_libcall_entry, .-callscope_libcall_entry

/*
 * Where dlopen and dlmopen return instead of callscope_return_trampoline:
 * the same return, and then the objects they loaded get their GOT slots
 * hooked before the program can call into them.
 */
	.globl	callscope_libcall_load_return
	.hidden	callscope_libcall_load_return
	.type	callscope_libcall_load_return, @function
	.p2align 4
/* where an unwinder looks up this return point, less one
 * (patch/unwind_info.c): a frame returning here is named by this */
	.type	callscope_dlopen_return, @function
callscope_dlopen_return:
	nop
callscope_libcall_load_return:
	subq	$8, %rsp		/* becomes the real return address */
	pushq	%rax
	pushq	%rdx			/* %rsp is 8 mod 16 now */
	leaq	16(%rsp), %rdi
	movq	%rax, %rsi		/* the handle dlopen returned */
	subq	$8, %rsp
	call	callscope_libcall_loaded
	addq	$8, %rsp
	movq	%rax, 16(%rsp)
	popq	%rdx
	popq	%rax
	ret
	.size	callscope_libcall_load_return, .-callscope_libcall_load_return
	.size	callscope_dlopen_return, .-callscope_dlopen_return

	.section .note.GNU-stack,"",@progbits
