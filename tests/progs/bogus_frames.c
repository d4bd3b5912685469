/*
 * A plain program (no hooks) for record --pid whose frame-pointer chains
 * run into data: bogus_frame_spin spins with %rbp pointing at an array of
 * words that look like saved frame pointers and return addresses but are
 * not, as code built without frame pointers leaves %rbp holding any
 * pointer; fp_spin, called the same way, keeps a true chain.  Each takes
 * about half the CPU.  It runs until the file "quit" appears or for at
 * most about a minute.
 */
#include <stdint.h>
#include <unistd.h>

static volatile unsigned long sink;
static uint64_t fake_frames[16];

__attribute__((noinline)) void bogus_frame_spin(long n)
{
	/* %rbp is callee-saved: put back before returning */
	__asm__ volatile("push %%rbp\n\t"
			 "mov %1, %%rbp\n"
			 "1:\n\t"
			 "dec %0\n\t"
			 "jnz 1b\n\t"
			 "pop %%rbp"
			 : "+r"(n)
			 : "r"(fake_frames)
			 : "cc", "memory");
}

__attribute__((noinline)) void fp_spin(long n)
{
	for (long i = 0; i < n; i++)
		sink += (unsigned long)i;
}

int main(void)
{
	/* each "frame": the next frame's address, then a return address
	 * that is no return address (into data, the middle of code, nothing) */
	for (int i = 0; i < 16; i += 2) {
		fake_frames[i] = (uint64_t)(uintptr_t)&fake_frames[(i + 2) % 16];
		fake_frames[i + 1] = i == 0   ? 0x80000000005ull
				     : i == 2 ? (uint64_t)(uintptr_t)&sink
				     : i == 4 ? (uint64_t)(uintptr_t)fp_spin + 3
						: 0x316d766c6c344e59ull + (uint64_t)i;
	}
	for (int k = 0; k < 20000; k++) {
		bogus_frame_spin(6000000);
		fp_spin(3000000);
		if (access("quit", F_OK) == 0)
			return 0;
	}
	return 0;
}
