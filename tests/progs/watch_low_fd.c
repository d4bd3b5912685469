/*
 * Takes descriptor 3 as a program may at any time of its run, and says
 * whether it ever found it taken by someone else: first it closes what
 * it may have been given there (a test harness's), then it spins for
 * argv[1] ms of CPU time, checking all along that 3 stays free (nothing of
 * the profiler's may show there, even for a moment); then it dup2()s a
 * file of its own onto 3 and writes through it, argv[2] times.  With
 * argv[3], it first dlopen()s that library (a relative path, which the
 * runtime describes by the file it finds mapped).  Exits 1 with a line on
 * stderr at the first surprise.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	double spin_ms = argc > 1 ? atof(argv[1]) : 200;
	long writes = argc > 2 ? atol(argv[2]) : 10000;
	long checks = 0;

	close(3);
	if (argc > 3 && !dlopen(argv[3], RTLD_NOW)) {
		fprintf(stderr, "dlopen: %s\n", dlerror());
		return 1;
	}
	while (cpu_ms() < spin_ms) {
		checks++;
		if (fcntl(3, F_GETFD) != -1 || errno != EBADF) {
			char what[256] = "";
			ssize_t n = readlink("/proc/self/fd/3", what, sizeof(what) - 1);
			what[n > 0 ? n : 0] = '\0';
			fprintf(stderr, "descriptor 3 was taken after %ld checks: %s\n", checks, what);
			return 1;
		}
	}
	/* at 10: open() gives the lowest free number, 3 itself */
	int file = fcntl(open("watch_low_fd.out", O_WRONLY | O_CREAT | O_TRUNC, 0644), F_DUPFD, 10);
	for (long i = 0; i < writes; i++) {
		if (dup2(file, 3) != 3 || write(3, "x", 1) != 1 || close(3) != 0) {
			fprintf(stderr, "descriptor 3, write %ld: %s\n", i, strerror(errno));
			return 1;
		}
	}
	off_t size = lseek(file, 0, SEEK_END);
	if (size != writes) {
		fprintf(stderr, "the file holds %ld bytes of %ld written\n", (long)size, writes);
		return 1;
	}
	printf("%ld checks, %ld writes\n", checks, writes);
	return 0;
}
