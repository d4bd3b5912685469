/*
 * A function that may catch an exception and then ends in a jump to
 * another (a tail call at -O2): after a catch, its return address must
 * still be the one the program left there, so that the function it jumps
 * to returns straight to main.  main prints with std::endl, which
 * libstdc++'s operator<< reaches by a jump too.
 */
#include <iostream>

static volatile int total;

extern "C" {

__attribute__((noinline)) void fail_odd(int x)
{
	if (x & 1)
		throw x;
	total = total + 1;
}

__attribute__((noinline)) int finish(int x)
{
	total = total + x;
	return total;
}

__attribute__((noinline)) int catch_then_jump(int i)
{
	try {
		fail_odd(i);
	} catch (int odd) {
		total = total - odd;
	}
	return finish(i);
}
}

int main()
{
	int last = 0;

	for (int i = 0; i < 20; i++)
		last = catch_then_jump(i);
	std::cout << last << std::endl;
	return 0;
}
