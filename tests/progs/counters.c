/*
 * Known counter behaviour: touch_pages() touches N fresh pages (N page
 * faults, argv[1]), called through outer(); nap() sleeps, so each of its
 * 5 calls leaves the CPU at least once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

__attribute__((noinline)) long touch_pages(long n)
{
	volatile char *p = mmap(NULL, (size_t)n * 4096, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long s = 0;
	if (p == MAP_FAILED)
		return -1;
	/* one fault per 4K page even where transparent huge pages are on
	 * for every mapping: a 2M page would take 512 touches in one fault */
	madvise((void *)p, (size_t)n * 4096, MADV_NOHUGEPAGE);
	for (long i = 0; i < n; i++) {
		p[i * 4096] = 1;
		s += p[i * 4096];
	}
	return s;
}

__attribute__((noinline)) long outer(long n) { return touch_pages(n) + 1; }

__attribute__((noinline)) void nap(void) { usleep(2000); }

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;
	long s = outer(n);
	for (int i = 0; i < 5; i++)
		nap();
	printf("%ld\n", s);
	return 0;
}
