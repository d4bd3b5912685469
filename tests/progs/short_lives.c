/*
 * Many short lives, as a build has them: N children started by
 * posix_spawn (as ninja and make start their commands), one after
 * another, then N threads, one after another; each burns US microseconds
 * of its own CPU time in burn(), less than a sampling period.
 *
 *   short_lives N US
 */
#include <pthread.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>

extern char **environ;

static double cpu_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

__attribute__((noinline)) void burn(double us)
{
	double end = cpu_us() + us;

	while (cpu_us() < end)
		;
}

static void *thread_burn(void *us)
{
	burn(*(double *)us);
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc == 2) {	/* a child */
		burn(atof(argv[1]));
		return 0;
	}
	int n = atoi(argv[1]);
	double us = atof(argv[2]);
	char *child[] = { argv[0], argv[2], NULL };

	for (int i = 0; i < n; i++) {
		pid_t pid;
		int status;
		if (posix_spawn(&pid, "/proc/self/exe", NULL, NULL, child, environ) != 0)
			return 1;
		waitpid(pid, &status, 0);
	}
	for (int i = 0; i < n; i++) {
		pthread_t t;
		if (pthread_create(&t, NULL, thread_burn, &us) == 0)
			pthread_join(t, NULL);
	}
	return 0;
}
