/*
 * A program that takes fixed low descriptors for itself, as a shell's
 * `exec 3>` or a daemon does: it closes every descriptor below
 * sysconf(_SC_OPEN_MAX) but 0-2, opens one file and dup2()s it onto 3 to
 * 15, makes argv[1] calls, then writes one line through each of those
 * descriptors.  A profiler whose own descriptors sat at those numbers
 * loses them.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define FIRST 3
#define LAST 15

__attribute__((noinline)) long step(long x)
{
	return x * 3 + 1;
}

int main(int argc, char **argv)
{
	long calls = argc > 1 ? atol(argv[1]) : 1000;
	long open_max = sysconf(_SC_OPEN_MAX);
	long sum = 0;

	for (long fd = FIRST; fd < open_max; fd++)
		close((int)fd);
	int mine = open("low_fds.txt", O_CREAT | O_TRUNC | O_WRONLY | O_APPEND, 0644);
	for (int fd = FIRST; fd <= LAST; fd++)
		if (fd != mine && dup2(mine, fd) != fd)
			return 1;
	for (long i = 0; i < calls; i++)
		sum += step(i);
	for (int fd = FIRST; fd <= LAST; fd++)
		dprintf(fd, "fd %d\n", fd);
	printf("%ld\n", sum);
	return 0;
}
