/*
 * A hot loop behind bytes capstone 4 cannot decode: a VEX-encoded kmovd
 * (c5 fb 92 d1, as glibc's __memcmp_evex_movbe has it) and two nops after
 * it, jumped over so that the program runs on any x86-64.  Usage:
 * undecoded ROUNDS
 */
#include <stdlib.h>

static volatile double sink;

__attribute__((noinline, noipa)) void behind(long n)
{
	double x = 0;

	__asm__ volatile("jmp 1f\n\t.byte 0xc5, 0xfb, 0x92, 0xd1\n\tnop\n\tnop\n1:");
	for (long i = 0; i < n; i++)
		x += (double)i * 0.5;
	sink = x;
}

int main(int argc, char **argv)
{
	behind(argc > 1 ? strtol(argv[1], NULL, 10) : 1000);
	return 0;
}
