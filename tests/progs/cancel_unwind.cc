/*
 * A thread cancelled deep in calls that hold objects with destructors:
 * the cancellation unwinds the thread (a forced unwind) and runs them,
 * innermost first, through every frame between.
 */
#include <cstdio>
#include <pthread.h>
#include <unistd.h>

static volatile int ready;

struct guard {
	const char *name;
	~guard() { printf("unwound %s\n", name); }
};

extern "C" __attribute__((noinline)) void cancel_leaf(void)
{
	ready = 1;
	for (;;) {
		pthread_testcancel();
		usleep(1000);
	}
}

extern "C" __attribute__((noinline)) void cancel_mid(void)
{
	guard g{ "cancel_mid" };
	cancel_leaf();
	__asm__ volatile("");
}

extern "C" __attribute__((noinline)) void cancel_top(void)
{
	guard g{ "cancel_top" };
	cancel_mid();
	__asm__ volatile("");
}

static void *run(void *)
{
	cancel_top();
	return nullptr;
}

int main()
{
	pthread_t t;
	void *r;

	pthread_create(&t, nullptr, run, nullptr);
	while (!ready)
		usleep(1000);
	pthread_cancel(t);
	pthread_join(t, &r);
	printf("%s\n", r == PTHREAD_CANCELED ? "canceled" : "returned");
	return 0;
}
