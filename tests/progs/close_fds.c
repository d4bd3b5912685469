/*
 * A program that closes every descriptor but 0-2, as daemons do, then
 * opens files of its own, which get the numbers it closed, and makes
 * argv[1] calls before it writes one line into each file.  Whatever a
 * profiler kept open under those numbers must not end up in its files.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define FILES 8

__attribute__((noinline)) long step(long x)
{
	return x * 3 + 1;
}

int main(int argc, char **argv)
{
	long calls = argc > 1 ? atol(argv[1]) : 1000;
	int fds[FILES];
	long sum = 0;

	for (int fd = 3; fd < 1024; fd++)
		close(fd);
	for (int i = 0; i < FILES; i++) {
		char name[32];
		snprintf(name, sizeof(name), "closed_fds.%d", i);
		fds[i] = open(name, O_CREAT | O_TRUNC | O_WRONLY, 0644);
	}
	for (long i = 0; i < calls; i++)
		sum += step(i);
	for (int i = 0; i < FILES; i++)
		dprintf(fds[i], "file %d\n", i);
	printf("%ld\n", sum);
	return 0;
}
