/*
 * Tail calls around C++ exceptions and threads: jumper() ends in a jump
 * to thrower(), which throws through both; the catch in catcher() must
 * close them and leave catcher open, so after_catch() is its call.  Each
 * std::thread's _M_run() ends in an indirect jump to the thread's
 * function (body), which itself jumps to work().
 */
#include <cstdio>
#include <thread>

static volatile int sink;

extern "C" {

__attribute__((noinline)) void thrower(int x)
{
	sink += x;
	if (x >= 0)
		throw x;
}

__attribute__((noinline)) void jumper(int x)
{
	sink++;
	thrower(x + 1);
}

__attribute__((noinline)) void after_catch(void)
{
	sink++;
}

__attribute__((noinline)) void catcher(int i)
{
	try {
		jumper(i);
	} catch (int) {
		after_catch();
	}
}

__attribute__((noinline)) void work(int n)
{
	for (int i = 0; i < n; i++)
		sink += i;
}

__attribute__((noinline)) void body(int n)
{
	sink++;
	work(n);
}

}

int main()
{
	for (int i = 0; i < 20; i++)
		catcher(i);
	/* one after the other: both add to sink, and at once they could
	 * lose each other's additions */
	std::thread a(body, 1000);
	a.join();
	std::thread b(body, 2000);
	b.join();
	std::printf("%d\n", sink);
	return 0;
}
