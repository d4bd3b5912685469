/*
 * libpreempt_in_grow.so: stands in for fstatvfs(), which the runtime
 * calls when a thread's buffer grows (runtime/thread_buffer.c), and
 * spends 5 ms there yielding the CPU.  With a busy process pinned to the
 * same CPU, each yield leaves the thread runnable but switched out: the
 * kernel reports a preemption, a wait for a CPU, inside the runtime's own
 * pause.  Preloaded (LD_PRELOAD) into a recorded program.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sched.h>
#include <sys/statvfs.h>
#include <time.h>

typedef int (*fstatvfs_fn)(int, struct statvfs *);

static fstatvfs_fn real_fstatvfs;

__attribute__((constructor)) static void preempt_in_grow_init(void)
{
	real_fstatvfs = (fstatvfs_fn)dlsym(RTLD_NEXT, "fstatvfs");
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int fstatvfs(int fd, struct statvfs *buf)
{
	double until = now_ms() + 5;

	while (now_ms() < until)
		sched_yield();
	return real_fstatvfs(fd, buf);
}
