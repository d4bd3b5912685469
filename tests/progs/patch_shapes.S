/*
 * Functions whose first bytes are known exactly, for patching tests with
 * hand-made plans (tests/progs/patch_plan_write.c): each comment gives the
 * window a plan displaces and what makes it a hard case.
 */
	.text

/* window 6: push; mov; mov, position-independent */
	.globl	shape_plain
	.type	shape_plain, @function
shape_plain:
	pushq	%rbp			/* 55 */
	movq	%rsp, %rbp		/* 48 89 e5 */
	movl	%edi, %eax		/* 89 f8 */
	addl	$1, %eax
	popq	%rbp
	ret
	.size	shape_plain, .-shape_plain

/* window 6: a RIP-relative load, relocated with a fixup */
	.globl	shape_riprel
	.type	shape_riprel, @function
shape_riprel:
	movl	shape_counter(%rip), %eax	/* 8b 05 disp32 */
	addl	%edi, %eax
	movl	%eax, shape_counter(%rip)
	ret
	.size	shape_riprel, .-shape_riprel

/* window 7: the loop's head is the entry: a jump back to it is no call */
	.globl	shape_loop0
	.type	shape_loop0, @function
shape_loop0:
	addl	$1, shape_counter(%rip)	/* 83 05 disp32 01 */
	subl	$1, %edi
	jnz	shape_loop0
	movl	shape_counter(%rip), %eax
	ret
	.size	shape_loop0, .-shape_loop0

/* window 5: a tail call, relocated with a fixup, no resume */
	.globl	shape_tail
	.type	shape_tail, @function
shape_tail:
	{disp32} jmp shape_plain	/* e9 rel32 */
	.size	shape_tail, .-shape_tail

/* window 5: a tail call into the loop at the entry above, which then
 * jumps back to its entry with this function's trampoline in the slot */
	.globl	shape_tailloop
	.type	shape_tailloop, @function
shape_tailloop:
	{disp32} jmp shape_loop0	/* e9 rel32 */
	.size	shape_tailloop, .-shape_tailloop

/* window 5: a call (a rel32 fixup) as the window's last instruction */
	.globl	shape_calls
	.type	shape_calls, @function
shape_calls:
	pushq	%rbx			/* 53 */
	movl	%edi, %ebx		/* 89 fb */
	call	shape_plain		/* e8 rel32 */
	addl	%ebx, %eax
	popq	%rbx
	ret
	.size	shape_calls, .-shape_calls

	.data
	.globl	shape_counter
shape_counter:
	.long	0

	.section .note.GNU-stack,"",@progbits
