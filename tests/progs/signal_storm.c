/*
 * A timer signal every 100 us while the program does little but call a
 * short function: nearly every signal arrives while a hook of the
 * profiler runs.  The program prints how many times its handler ran;
 * each run must be recorded as a call, and the program must see its
 * signals as without the profiler.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

static volatile sig_atomic_t ticks;
static volatile long sink;

__attribute__((noinline)) void on_alarm(int sig)
{
	(void)sig;
	ticks++;
}

__attribute__((noinline)) void leaf(int i)
{
	sink += i;
}

int main(void)
{
	struct sigaction sa;
	struct itimerval it = { { 0, 100 }, { 0, 100 } };

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	setitimer(ITIMER_REAL, &it, NULL);
	for (int i = 0; ticks < 1000; i++)
		leaf(i);
	signal(SIGALRM, SIG_IGN);
	printf("%d\n", ticks);
	return 0;
}
