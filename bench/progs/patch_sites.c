/*
 * One kind of patched entry, called N times, for bench/patch-sites.sh:
 * site_jump's entry takes a 5-byte jump, site_short's (a loop head 2
 * bytes in) a 2-byte jump to a 5-byte one in an island nearby, site_trap's
 * (a 1-byte body packed against the next function) an int3.
 * The plain build, untraced, gives the cost of the loop and the call.
 *
 * usage: patch_sites jump|short|trap N
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__asm__(".text\n"
	".p2align 4\n"
	".globl site_jump\n.type site_jump,@function\n"
	"site_jump:\n"
	"	mov %edi, %eax\n"
	"	add $1, %eax\n"
	"	ret\n"
	".size site_jump, .-site_jump\n"
	".p2align 4\n"
	".globl site_short\n.type site_short,@function\n"
	"site_short:\n"
	"	mov %edi, %eax\n"
	"1:	inc %eax\n"
	"	cmp $0, %eax\n"
	"	jl 1b\n"
	"	ret\n"
	".size site_short, .-site_short\n"
	".p2align 4\n"
	".globl site_trap\n.type site_trap,@function\n"
	"site_trap:\n"
	"	ret\n"
	".size site_trap, .-site_trap\n"
	".globl site_after\n.type site_after,@function\n"
	"site_after:\n"
	"	ret\n"
	".size site_after, .-site_after\n");

int site_jump(int x);
int site_short(int x);
void site_trap(void);
void site_after(void);

int main(int argc, char **argv)
{
	const char *kind = argc > 1 ? argv[1] : "jump";
	long n = argc > 2 ? atol(argv[2]) : 1000;
	int (*volatile fn)(int) = strcmp(kind, "short") ? site_jump : site_short;
	void (*volatile trap)(void) = site_trap;
	long sum = 0;

	for (long i = 0; i < n; i++) {
		if (!strcmp(kind, "trap"))
			trap();
		else
			sum += fn((int)i & 0xff);
	}
	site_after();
	printf("%ld\n", sum);
	return 0;
}
