/*
 * Library calls the runtime stands in for, each made a known number of
 * times: pthread_sigmask and sigprocmask three times each, bsd_signal and
 * sysv_signal once.  Traced, each must count as a call of its own name.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>

/* libc has it still; its header no longer declares it */
sighandler_t bsd_signal(int sig, sighandler_t handler);

int main(void)
{
	sigset_t set, old;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	for (int i = 0; i < 3; i++) {
		pthread_sigmask(SIG_BLOCK, &set, &old);
		sigprocmask(SIG_SETMASK, &old, NULL);
	}
	bsd_signal(SIGUSR1, SIG_IGN);
	sysv_signal(SIGUSR2, SIG_IGN);
	printf("done\n");
	return 0;
}
