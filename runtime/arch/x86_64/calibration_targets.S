/*
 * Functions made of their profiling hook alone, for calibrate.c: a call
 * of one costs what the hooks add to a call of an instrumented function,
 * through the same entry point, procedure linkage and return trampoline
 * the program's calls go through.  callscope_calibration_plain is the
 * same function without its hook, the part the program pays anyway.
 */
	.text

	.globl	callscope_calibration_mcount
	.hidden	callscope_calibration_mcount
	.type	callscope_calibration_mcount, @function
	.p2align 4
callscope_calibration_mcount:		/* gcc -pg: after the prologue */
	.cfi_startproc
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	movq	%rsp, %rbp
	call	mcount@PLT
	popq	%rbp
	.cfi_adjust_cfa_offset -8
	ret
	.cfi_endproc
	.size	callscope_calibration_mcount, .-callscope_calibration_mcount

	.globl	callscope_calibration_fentry
	.hidden	callscope_calibration_fentry
	.type	callscope_calibration_fentry, @function
	.globl	callscope_calibration_plain
	.hidden	callscope_calibration_plain
	.type	callscope_calibration_plain, @function
	.p2align 4
callscope_calibration_fentry:		/* gcc -pg -mfentry: before the prologue */
	.cfi_startproc
	call	__fentry__@PLT
callscope_calibration_plain:		/* the rest: the function alone */
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	movq	%rsp, %rbp
	popq	%rbp
	.cfi_adjust_cfa_offset -8
	ret
	.cfi_endproc
	.size	callscope_calibration_fentry, .-callscope_calibration_fentry
	.size	callscope_calibration_plain, .-callscope_calibration_plain

/*
 * An empty function reached as a library call is: through a stub like
 * those libcall/patch.c writes, which hands its target to the library
 * calls' entry point in %r11 (that target's jump is
 * callscope_calibration_plain).
 */
	.globl	callscope_calibration_library
	.hidden	callscope_calibration_library
	.type	callscope_calibration_library, @function
	.p2align 4
callscope_calibration_library:
	.cfi_startproc
	endbr64
	leaq	callscope_calibration_library_target(%rip), %r11
	jmp	callscope_libcall_entry
	.cfi_endproc
	.size	callscope_calibration_library, .-callscope_calibration_library

	.section .note.GNU-stack,"",@progbits
