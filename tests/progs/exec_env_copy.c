/*
 * Execs a child with an environment of its own making, as a shell does:
 * a copy of environ taken at the start, each string duplicated, so that
 * whatever changes environ's strings later does not reach it.  A forked
 * child execs ARGV[1] with the copy (execve), another with environ itself
 * (execv), a third with the copy through execle's list form; the parent
 * waits for each.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static void run(char *const argv[], char *const env[], int how)
{
	pid_t child = fork();

	if (child == 0) {
		if (how == 0)
			execve(argv[0], argv, env);
		else if (how == 1)
			execv(argv[0], argv);
		else
			execle(argv[0], argv[0], (char *)0, env);
		_exit(127);
	}
	waitpid(child, NULL, 0);
}

int main(int argc, char **argv)
{
	size_t n = 0;

	if (argc < 2)
		return 2;
	while (environ[n])
		n++;
	char **copy = calloc(n + 1, sizeof(*copy));
	for (size_t i = 0; i < n; i++)
		copy[i] = strdup(environ[i]);
	for (int how = 0; how < 3; how++)
		run(argv + 1, copy, how);
	return 0;
}
