/*
 * Spins with rbp pointing at a frame on the stack whose saved frame
 * pointer is -8 and whose return address is in the program's text: a
 * frame-pointer walk that takes the next frame for one lands at the top
 * of the address space, where fp + 16 wraps around to 8.  Hand-written
 * assembly and code built without frame pointers leave rbp so.
 *
 *   wild_frame_pointer ITERATIONS
 */
#include <stdint.h>
#include <stdlib.h>

/* Keeps FRAME where the compiler put it: above the stack pointer, since a
 * function that calls has no red zone to use. */
__attribute__((noinline)) void keep(volatile uintptr_t *frame)
{
	(void)frame[0];
}

__attribute__((noinline)) void spin_on_wild_chain(long n)
{
	volatile uintptr_t frame[2] = { (uintptr_t)-8, (uintptr_t)&spin_on_wild_chain + 1 };
	uintptr_t saved;

	keep(frame);
	__asm__ volatile("mov %%rbp, %1\n\t"
			 "mov %2, %%rbp\n"
			 "1:\tdec %0\n\t"
			 "jnz 1b\n\t"
			 "mov %1, %%rbp"
			 : "+r"(n), "=&r"(saved)
			 : "r"(frame)
			 : "memory", "cc");
	keep(frame);
}

int main(int argc, char **argv)
{
	spin_on_wild_chain(argc > 1 ? atol(argv[1]) : 300000000);
	return 0;
}
