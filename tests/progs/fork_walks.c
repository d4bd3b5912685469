/*
 * Forks N children (argument 1, default 300) one after another; each walks
 * the loaded objects, as an exception's unwinder or a dlopen would, and
 * exits 0.  A child that has not ended after 3 s is reported hung (it
 * waits on a lock no thread of its will ever free) and killed.  Prints
 * "N forks, H hung" and exits 1 when any hung.
 */
#define _GNU_SOURCE
#include <link.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static int count_object(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)info;
	(void)size;
	++*(int *)data;
	return 0;
}

__attribute__((noinline)) int objects_seen(void)
{
	int n = 0;

	dl_iterate_phdr(count_object, &n);
	return n;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 300, hung = 0;

	for (int i = 0; i < n; i++) {
		pid_t child = fork();
		if (child < 0)
			return 2;
		if (child == 0)
			_exit(objects_seen() > 0 ? 0 : 1);
		int status, waited_ms = 0;
		while (waitpid(child, &status, WNOHANG) == 0) {
			if (++waited_ms > 3000) {
				kill(child, SIGKILL);
				waitpid(child, &status, 0);
				hung++;
				break;
			}
			usleep(1000);
		}
	}
	printf("%d forks, %d hung\n", n, hung);
	return hung != 0;
}
