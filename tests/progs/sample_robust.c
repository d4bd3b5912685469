/*
 * Hard cases for the sampler, one per mode:
 *   deep    burn at the bottom of a 3000-deep recursion (stacks truncated)
 *   fork    parent and child both burn CPU (each process sampled)
 *   rtsig   handle every real-time signal itself, then raise each once:
 *           the program's handlers must all run exactly once
 *   block   burn with every signal blocked, then unblock
 *   calls   five million calls of a tiny function: built with hooks, most
 *           of the time is spent in the hooks, where samples are lost
 *   exec    burn, then exec this program again in mode "fork": the new
 *           image (same pid) is sampled by the runtime it loads
 *   trap    handle SIGTRAP (which the sampler may use itself), burn, raise
 *           it 50 times: the handler must run once per raise and be what
 *           sigaction() shows; prints "handled N of 50 own"
 *   trapdfl burn, then raise SIGTRAP left at its default action: the
 *           program must end by the signal; prints nothing
 *   trapign ignore SIGTRAP, burn, raise it
 * Each prints "ok" (rtsig: "handled N of N") and exits 0.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile double sink;
static volatile int handled;

__attribute__((noinline)) void burn(long n)
{
	double x = 0;
	for (long i = 0; i < n; i++)
		x += (double)i * 0.5;
	sink = x;
}

__attribute__((noinline)) void tiny(long i)
{
	sink += (double)i;
}

__attribute__((noinline)) int descend(int depth)
{
	if (depth == 0) {
		burn(150000000);
		return 0;
	}
	return descend(depth - 1) + 1;
}

/* counts the signals the program itself handles */
static void on_rt(int sig)
{
	(void)sig;
	handled++;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "deep";

	if (!strcmp(mode, "deep")) {
		printf("%s\n", descend(3000) == 3000 ? "ok" : "wrong");
	} else if (!strcmp(mode, "fork")) {
		pid_t child = fork();
		burn(100000000);
		if (child == 0)
			_exit(0);
		int status;
		waitpid(child, &status, 0);
		printf("%s\n", WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "ok" : "child failed");
	} else if (!strcmp(mode, "rtsig")) {
		struct sigaction act;
		int n = 0;
		memset(&act, 0, sizeof(act));
		act.sa_handler = on_rt;
		sigemptyset(&act.sa_mask);
		for (int s = SIGRTMIN; s <= SIGRTMAX; s++)
			sigaction(s, &act, NULL);
		burn(100000000);
		for (int s = SIGRTMIN; s <= SIGRTMAX; s++, n++)
			raise(s);
		printf("handled %d of %d\n", handled, n);
	} else if (!strcmp(mode, "calls")) {
		for (long i = 0; i < 5000000; i++)
			tiny(i);
		printf("ok\n");
	} else if (!strcmp(mode, "exec")) {
		burn(100000000);
		fflush(stdout);
		execl("/proc/self/exe", argv[0], "fork", (char *)NULL);
		printf("exec failed\n");
	} else if (!strcmp(mode, "block")) {
		sigset_t all;
		sigfillset(&all);
		sigprocmask(SIG_BLOCK, &all, NULL);
		burn(100000000);
		sigprocmask(SIG_UNBLOCK, &all, NULL);
		printf("ok\n");
	} else if (!strcmp(mode, "trap")) {
		struct sigaction act, old;
		memset(&act, 0, sizeof(act));
		act.sa_handler = on_rt;
		sigemptyset(&act.sa_mask);
		sigaction(SIGTRAP, &act, NULL);
		burn(100000000);
		for (int i = 0; i < 50; i++)
			raise(SIGTRAP);
		sigaction(SIGTRAP, NULL, &old);
		printf("handled %d of 50 %s\n", handled, old.sa_handler == on_rt ? "own" : "other");
	} else if (!strcmp(mode, "trapdfl")) {
		burn(100000000);
		raise(SIGTRAP);
		printf("survived\n");
	} else if (!strcmp(mode, "trapign")) {
		signal(SIGTRAP, SIG_IGN);
		burn(100000000);
		raise(SIGTRAP);
		printf("ok\n");
	}
	return 0;
}
