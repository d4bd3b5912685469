/*
 * libcallscope-idle-hooks.so: compiler hooks that do nothing, for
 * `callscope record --mode=sample` on a program built with hooks.  Preloaded
 * ahead of libcallscope.so, its definitions are the ones the program's
 * calls bind to, so the runtime sees no hook and only samples, at the cost
 * of a call and a return per instrumented function.  A bare return keeps
 * every register, as mcount and __fentry__ must (they run before the
 * function has read its arguments).
 */
	.text

.macro IDLE name
	.globl	\name
	.type	\name, @function
\name:
	.cfi_startproc
	ret
	.cfi_endproc
	.size	\name, . - \name
.endm

	IDLE mcount
	IDLE _mcount
	IDLE __fentry__
	IDLE __cyg_profile_func_enter
	IDLE __cyg_profile_func_exit

	.section .note.GNU-stack, "", @progbits
