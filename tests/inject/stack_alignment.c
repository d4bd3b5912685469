/*
 * libstack_alignment.so: stands in for libc's syscall(), which the
 * runtime calls from inside its hooks (a thread's first hook opens its
 * files and perf events), and stops the program with a trap when it is
 * called with the stack misaligned: the ABI has %rsp 8 mod 16 at a
 * function's entry, and libc's code (and any library a user preloads,
 * such as a malloc) may store vector registers to the stack with aligned
 * instructions, which fault on a stack 8 bytes off.  Preloaded
 * (LD_PRELOAD) into a recorded program.
 */
#define _GNU_SOURCE
#include <dlfcn.h>

/* libc's syscall(), resolved as the library loads */
__attribute__((visibility("hidden"))) void *stack_alignment_real_syscall;

__attribute__((constructor)) static void stack_alignment_init(void)
{
	stack_alignment_real_syscall = dlsym(RTLD_NEXT, "syscall");
}

/* the check before any instruction of a compiler's could move %rsp */
__asm__(".text\n"
	".globl syscall\n"
	".type syscall, @function\n"
	"syscall:\n"
	"	testq $8, %rsp\n"
	"	jnz 1f\n"
	"	ud2\n"	/* misaligned: SIGILL, here, where a debugger shows it */
	"1:	jmp *stack_alignment_real_syscall(%rip)\n"
	".size syscall, .-syscall\n");
