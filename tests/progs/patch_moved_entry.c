/*
 * A hot function whose time is all in its first instructions: `fill`
 * begins with the `rep stosb` that fills the buffer it is given, which
 * with the `mov` before it makes up the 5 bytes a patched entry's jump
 * displaces.  Under record --patch they run moved, in the trampoline;
 * perf on the same binary charges their time to fill.  The function
 * after it keeps fill from ending its section, where annotate could not
 * read past it.  `patch_moved_entry ROUNDS fork` runs the rounds in a
 * forked child too, on the trampolines it inherited.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

void fill(void *buf, unsigned long len);
void after_fill(void);
__asm__(".text\n"
	".globl fill\n"
	".type fill, @function\n"
	"fill:\n"
	".cfi_startproc\n"
	"	mov %rsi, %rcx\n"	/* 3 bytes */
	"	rep stosb\n"		/* 2 bytes: the time, at one PC */
	"	ret\n"
	".cfi_endproc\n"
	".size fill, .-fill\n"
	".globl after_fill\n"
	".type after_fill, @function\n"
	"after_fill:\n"
	".cfi_startproc\n"
	"	.fill 32, 1, 0x90\n"
	"	ret\n"
	".cfi_endproc\n"
	".size after_fill, .-after_fill\n");

static unsigned char buf[1 << 16];

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 300000;
	pid_t child = argc > 2 && !strcmp(argv[2], "fork") ? fork() : -1;
	unsigned sum = 0;

	after_fill();
	for (long i = 0; i < rounds; i++) {
		fill(buf, sizeof(buf));
		sum += buf[i & 0xffff];
	}
	if (child > 0)
		waitpid(child, NULL, 0);
	printf("%u\n", sum);
	return 0;
}
