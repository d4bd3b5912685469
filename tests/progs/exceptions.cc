/*
 * C++ exceptions through instrumented frames, with known counts:
 *   20 rounds; in the 10 odd ones thrower() throws through middle(),
 *   whose Guard's destructor runs cleanup_call() as the exception passes,
 *   rethrower() catches it, calls rethrow_seen() and rethrows with
 *   `throw;`, and play_round() catches it and calls after_catch().
 *   Then deep(40) recurses 40 levels and throws from the bottom; the
 *   handler in main calls after_deep().  Then 3 times an exception
 *   passes a Careful object whose destructor throws and catches one of
 *   its own (inner_throw, inner_caught) while the first is in flight;
 *   main catches the first and calls outer_caught().  Last, a thread ends with
 *   pthread_exit() under a Guard, whose destructor must run too:
 *   cleanup_call() runs 21 times in all.
 * Under -pg the runtime redirects return addresses: the unwinder must
 * still find the real ones, and the frames left are closed as unwound.
 * extern "C" keeps the names plain for the tests.
 */
#include <cstdio>
#include <pthread.h>
#include <stdexcept>

static volatile int sink;

extern "C" {
__attribute__((noinline)) void cleanup_call(void) { sink++; }
__attribute__((noinline)) void after_throw_site(void) { sink++; }
__attribute__((noinline)) void rethrow_seen(void) { sink++; }
__attribute__((noinline)) void after_catch(void) { sink++; }
__attribute__((noinline)) void after_deep(void) { sink++; }
}

struct Guard {
	__attribute__((noinline)) ~Guard() { cleanup_call(); }
};

extern "C" {
__attribute__((noinline)) void thrower(int i)
{
	sink++;
	if (i % 2)
		throw std::runtime_error("odd");
}

__attribute__((noinline)) void middle(int i)
{
	Guard g;
	thrower(i);
	after_throw_site();
}

__attribute__((noinline)) void rethrower(int i)
{
	try {
		middle(i);
	} catch (...) {
		rethrow_seen();
		throw;
	}
}

__attribute__((noinline)) void play_round(int i)
{
	try {
		rethrower(i);
	} catch (const std::exception &) {
		after_catch();
	}
}

__attribute__((noinline)) int deep(int n)
{
	if (n == 0)
		throw std::runtime_error("bottom");
	return deep(n - 1) + 1;
}

__attribute__((noinline)) void inner_throw(void)
{
	sink++;
	throw std::logic_error("inner");
}

__attribute__((noinline)) void inner_caught(void) { sink++; }
__attribute__((noinline)) void outer_caught(void) { sink++; }
}

struct Careful {
	__attribute__((noinline)) ~Careful()
	{
		try {
			inner_throw();
		} catch (const std::logic_error &) {
			inner_caught();
		}
	}
};

extern "C" {
__attribute__((noinline)) void throw_past_careful(void)
{
	Careful c;
	throw std::runtime_error("outer");
}

__attribute__((noinline)) void exit_thread(void) { pthread_exit(nullptr); }

__attribute__((noinline)) void *thread_body(void *arg)
{
	Guard g;
	exit_thread();
	return arg;
}
}

int main()
{
	for (int i = 0; i < 20; i++)
		play_round(i);
	try {
		sink += deep(40);
	} catch (const std::exception &) {
		after_deep();
	}
	for (int i = 0; i < 3; i++) {
		try {
			throw_past_careful();
		} catch (const std::runtime_error &) {
			outer_caught();
		}
	}
	pthread_t t;
	if (pthread_create(&t, nullptr, thread_body, nullptr) == 0)
		pthread_join(t, nullptr);
	std::printf("%d\n", sink);
	return 0;
}
