/*
 * libuser_only_perf.so: refuses, with EACCES, every perf event that would
 * count time in the kernel (exclude_kernel clear), as the kernel does for
 * a user without CAP_PERFMON where perf_event_paranoid is 2, Debian's
 * default.  Preloaded (LD_PRELOAD) into a recorded program, it lets the
 * tests, which run as root, see the sampler fall back to user time and
 * the reports say so.  Other calls of syscall() go through.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <sys/syscall.h>
#include <unistd.h>

typedef long (*syscall_fn)(long, ...);

/* Resolved as the library loads: syscall() is called from the runtime's
 * hooks, where a lazy dlsym() would run inside the first hook. */
static syscall_fn real;

__attribute__((constructor)) static void user_only_perf_init(void)
{
	real = (syscall_fn)dlsym(RTLD_NEXT, "syscall");
}

long syscall(long number, ...)
{
	va_list ap;
	long a[6];

	va_start(ap, number);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (number == SYS_perf_event_open && !((const struct perf_event_attr *)a[0])->exclude_kernel) {
		errno = EACCES;
		return -1;
	}
	return real(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}
