/*
 * A program whose SIGCHLD handler runs once (its forked child ends at
 * once), then spins: a sampled run of it has a handler of the program's
 * and no traced call.  Prints how often the handler ran.
 *
 *   sample_signal N   N rounds of the spin
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t handled;

static void on_child(int sig)
{
	(void)sig;
	handled++;
}

__attribute__((noinline)) static double spin(long n)
{
	double x = 0;

	for (long i = 0; i < n; i++)
		x += (double)i * 0.5;
	return x;
}

int main(int argc, char **argv)
{
	signal(SIGCHLD, on_child);
	if (fork() == 0)
		_exit(0);
	while (wait(NULL) < 0)
		;
	double x = spin(argc > 1 ? atol(argv[1]) : 100000000);
	printf("handled %d%s\n", (int)handled, x < 0 ? "?" : "");
	return 0;
}
