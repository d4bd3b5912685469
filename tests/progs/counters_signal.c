/*
 * A timer signal whose handler calls an instrumented function, while the
 * program calls tiny() in a loop.  With counters read by read(), the
 * signal is delivered as the system call in a hook returns, so the
 * handler's calls land inside a hook: they are dropped and counted, and
 * the thread's counters are marked possibly incorrect.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

static volatile sig_atomic_t ticks;
static volatile long sink;

__attribute__((noinline)) void in_handler(void) { sink++; }

__attribute__((noinline)) void on_alarm(int sig)
{
	(void)sig;
	in_handler();
	ticks++;
}

__attribute__((noinline)) void tiny(void) { sink++; }

int main(void)
{
	struct sigaction sa;
	struct itimerval it = { { 0, 1000 }, { 0, 1000 } };

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	while (ticks < 50)
		tiny();
	signal(SIGALRM, SIG_IGN);
	printf("%d\n", ticks);
	return 0;
}
