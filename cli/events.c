#include "cli/events.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "perf_paranoid.h"

#define HW_CACHE(cache, op, result) \
	((uint64_t)(cache) | (uint64_t)(op) << 8 | (uint64_t)(result) << 16)
#define CACHE_READ_MISS(cache) \
	HW_CACHE(cache, PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_MISS)

const struct event_desc event_table[] = {
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "CPU time of the thread, ns" },
	{ "cpu-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, "CPU clock, ns" },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, "page faults" },
	{ "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN, "page faults served from memory" },
	{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ, "page faults that waited for I/O" },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, "times the thread left the CPU" },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, "moves to another CPU" },
	{ "alignment-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_ALIGNMENT_FAULTS, "unaligned accesses fixed up" },
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "CPU cycles" },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, "instructions executed" },
	{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES, "last-level cache accesses" },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, "last-level cache misses" },
	{ "branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, "branches executed" },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, "mispredicted branches" },
	{ "stalled-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, "cycles the front end stalled" },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES, "cycles at the reference clock" },
	{ "L1-icache-load-misses", PERF_TYPE_HW_CACHE, CACHE_READ_MISS(PERF_COUNT_HW_CACHE_L1I), "instruction cache misses" },
	{ "L1-dcache-load-misses", PERF_TYPE_HW_CACHE, CACHE_READ_MISS(PERF_COUNT_HW_CACHE_L1D), "data cache load misses" },
	{ "LLC-load-misses", PERF_TYPE_HW_CACHE, CACHE_READ_MISS(PERF_COUNT_HW_CACHE_LL), "last-level cache load misses" },
	{ "dTLB-load-misses", PERF_TYPE_HW_CACHE, CACHE_READ_MISS(PERF_COUNT_HW_CACHE_DTLB), "data TLB misses" },
	{ "iTLB-load-misses", PERF_TYPE_HW_CACHE, CACHE_READ_MISS(PERF_COUNT_HW_CACHE_ITLB), "instruction TLB misses" },
};
const size_t event_table_len = sizeof(event_table) / sizeof(event_table[0]);

const struct event_desc *event_find(const char *name)
{
	for (size_t i = 0; i < event_table_len; i++)
		if (!strcmp(event_table[i].name, name))
			return &event_table[i];
	if (!strcmp(name, "cpu-cycles"))
		return event_find("cycles");
	return NULL;
}

/* The setting, or the kernel's default when it cannot be read. */
static int paranoid_level(void)
{
	int level = 2;

	perf_paranoid_read(&level);
	return level;
}

const char *event_state_name(enum event_state state)
{
	switch (state) {
	case EVENT_SUPPORTED: return "supported";
	case EVENT_UNSUPPORTED: return "not supported";
	case EVENT_FORBIDDEN: return "forbidden";
	default: return "unavailable";
	}
}

enum event_state event_probe(const struct event_desc *e, char *why, size_t size)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = e->type;
	attr.config = e->config;
	attr.exclude_hv = 1;
	int fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		return EVENT_SUPPORTED;
	}
	switch (errno) {
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
	case EINVAL:
		snprintf(why, size, "'%s' is not supported on this machine (no such %s counter); "
			 "see 'callscope list'", e->name,
			 e->type == PERF_TYPE_SOFTWARE ? "software" : "hardware");
		return EVENT_UNSUPPORTED;
	case EACCES:
	case EPERM:
		snprintf(why, size, "'%s' is forbidden by kernel.perf_event_paranoid=%d; run as root, "
			 "or lower it with 'sysctl kernel.perf_event_paranoid=1'",
			 e->name, paranoid_level());
		return EVENT_FORBIDDEN;
	case ENOSYS:
		snprintf(why, size, "this kernel has no perf_event_open, so '%s' cannot be read",
			 e->name);
		break;
	default:
		snprintf(why, size, "cannot open '%s': %s", e->name, strerror(errno));
	}
	return EVENT_UNAVAILABLE;
}
