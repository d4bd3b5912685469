/*
 * A SIGALRM handler that runs handler_work() at least 20 times while busy()
 * is interrupted; busy() itself spins.  For --signal-filter.  The timer can
 * fire once more between busy() returning and the handler being ignored,
 * so the program prints how many times its handler really ran.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

static volatile sig_atomic_t ticks;
static volatile long sink;

__attribute__((noinline)) void handler_work(void)
{
	for (int i = 0; i < 20000; i++)
		sink += i;
}

__attribute__((noinline)) void on_alarm(int sig)
{
	(void)sig;
	handler_work();
	ticks++;
}

__attribute__((noinline)) void busy(void)
{
	while (ticks < 20)
		sink++;
}

int main(void)
{
	struct sigaction sa;
	struct itimerval it = { { 0, 2000 }, { 0, 2000 } };

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	struct sigaction check;
	sigaction(SIGALRM, NULL, &check);
	if (check.sa_handler != on_alarm)
		return 3;	/* the program must see its own handler */
	setitimer(ITIMER_REAL, &it, NULL);
	busy();
	signal(SIGALRM, SIG_IGN);
	printf("%d\n", ticks);
	return 0;
}
