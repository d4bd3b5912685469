/*
 * The floor under any in-process sampler on this kernel, preloaded into
 * the benchmark's program (bench/sampling.sh): a perf_event task-clock
 * event of the thread overflowing at 999 Hz, as callscope's sampler opens
 * it, that either signals nothing (SAMPLE_FLOOR=timer: the kernel's timer
 * interrupts alone) or sends a SIGTRAP to an empty handler
 * (SAMPLE_FLOOR=signal: interrupt and signal delivery, no sample taken).
 * Only the main thread, which is all the benchmark runs.
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static void on_trap(int sig)
{
	(void)sig;
}

__attribute__((constructor)) static void start_floor(void)
{
	const char *mode = getenv("SAMPLE_FLOOR");
	struct perf_event_attr attr;

	if (!mode)
		return;
	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_SOFTWARE;
	attr.size = sizeof(attr);
	attr.config = PERF_COUNT_SW_TASK_CLOCK;
	attr.sample_period = 1000000000 / 999;
	attr.disabled = 1;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	if (!strcmp(mode, "signal")) {
		struct sigaction act;
		memset(&act, 0, sizeof(act));
		act.sa_handler = on_trap;
		act.sa_flags = SA_RESTART;
		sigaction(SIGTRAP, &act, NULL);
		attr.sigtrap = 1;
		attr.remove_on_exec = 1;
	}
	int fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0)
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
}
