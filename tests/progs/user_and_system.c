/*
 * Two functions of about equal CPU time: in_user() computes, in_kernel()
 * reads 64 KiB of /dev/zero again and again, so nearly all of its time is
 * the kernel's on its behalf (clearing the buffer).
 *
 *   user_and_system MS   each runs for about MS ms of the thread's CPU time
 */
#include <fcntl.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;

static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

__attribute__((noinline)) void in_user(double ms)
{
	double end = cpu_ms() + ms;

	while (cpu_ms() < end)
		for (int i = 0; i < 20000; i++)
			sink = sink * 2862933555777941757ul + 3037000493ul;
}

__attribute__((noinline)) void in_kernel(double ms)
{
	static char buf[65536];
	double end = cpu_ms() + ms;
	int fd = open("/dev/zero", O_RDONLY);

	if (fd < 0)
		exit(2);
	while (cpu_ms() < end)
		sink += (unsigned long)read(fd, buf, sizeof(buf));
	close(fd);
}

int main(int argc, char **argv)
{
	double ms = argc > 1 ? atof(argv[1]) : 300;

	in_user(ms);
	in_kernel(ms);
	return 0;
}
