/*
 * A hot loop in the last bytes of the function that ends the program's
 * .text: spin, written in assembly after every C function (gcc -O2 puts
 * main in .text.startup, before .text), so that its loop's instructions
 * lie within an instruction's length of the section's end.
 */
#include <stdio.h>
#include <stdlib.h>

unsigned long spin(unsigned long n);

int main(int argc, char **argv)
{
	printf("%lu\n", spin(argc > 1 ? strtoul(argv[1], NULL, 10) : 300000000));
	return 0;
}

/* x = n + (n - 1) + ... + 1, by a loop of three instructions and a ret */
__asm__(".text\n"
	".globl spin\n"
	".type spin, @function\n"
	"spin:\n"
	"	xorl %eax, %eax\n"
	"1:	addq %rdi, %rax\n"
	"	subq $1, %rdi\n"
	"	jnz 1b\n"
	"	ret\n"
	".size spin, . - spin\n");
