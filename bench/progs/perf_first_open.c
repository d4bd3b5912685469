/*
 * perf_first_open: opens one task-clock perf event of its own thread and
 * prints how long perf_event_open() took, in ms.  About 0.01 ms when
 * another per-thread event was open on the machine in the last second or
 * so; 8–20 ms on a virtual machine when none was, as the kernel then
 * turns its hooks for such events back on and waits for an RCU grace
 * period (bench/sampling-cold.sh tells cold rounds from warm ones by it).
 * Prints -1 when perf events are not allowed.
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int main(void)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_SOFTWARE;
	attr.size = sizeof(attr);
	attr.config = PERF_COUNT_SW_TASK_CLOCK;
	attr.disabled = 1;
	attr.exclude_kernel = 1;
	double start = now_ms();
	int fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	double took = now_ms() - start;
	printf("%.3f\n", fd < 0 ? -1.0 : took);
	return 0;
}
