/*
 * Performance counters read at every entry and exit (record -e): up to
 * two perf_event counters per thread, opened when the thread's buffer is.
 * Where the kernel lets user space read a counter (cap_user_rdpmc in its
 * mapped page) it is read with rdpmc, a few nanoseconds; otherwise with
 * read(), a system call per counter per event.  A counter the kernel had
 * to time-share with others (enabled time above running time) makes the
 * thread's figures "possibly incorrect", which the reports show.
 */
#define _GNU_SOURCE
#include "runtime.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static int open_counter(const struct contract_counter *c)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = c->type;
	attr.config = c->config;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	attr.exclude_hv = 1;
	return rt_fd_above_limit(
		(int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC));
}

void counters_close(struct thread_state *t)
{
	for (uint32_t i = 0; i < t->ncounters; i++) {
		if (t->counter_page[i])
			munmap(t->counter_page[i], (size_t)getpagesize());
		if (t->counter_fd[i] >= 0)
			close(t->counter_fd[i]);
		t->counter_page[i] = NULL;
		t->counter_fd[i] = -1;
	}
	t->ncounters = 0;
}

/*
 * Opens this thread's counters.  The launcher opened the same events
 * before starting the program, so a failure here is unexpected: the
 * thread then records times only, and says so once.
 */
int counters_open(struct thread_state *t)
{
	uint32_t n = runtime_config.contract.ncounters;
	int rdpmc = 1;

	t->ncounters = 0;
	for (uint32_t i = 0; i < n; i++) {
		int fd = open_counter(&runtime_config.contract.counters[i]);
		if (fd < 0) {
			int saved = errno;
			for (uint32_t k = 0; k < i; k++)
				close(t->counter_fd[k]);
			rt_warn("cannot open a counter in a new thread; it records times only",
				strerror(saved));
			return -1;
		}
		t->counter_fd[i] = fd;
		t->counter_page[i] = NULL;
		void *page = mmap(NULL, (size_t)getpagesize(), PROT_READ, MAP_SHARED, fd, 0);
		if (page != MAP_FAILED) {
			struct perf_event_mmap_page *pc = page;
			if (pc->cap_user_rdpmc && pc->index)
				t->counter_page[i] = pc;
			else
				munmap(page, (size_t)getpagesize());
		}
		rdpmc &= t->counter_page[i] != NULL;
	}
	t->ncounters = n;
	t->counter_rdpmc = rdpmc && n;
	memset(t->counter_last, 0, sizeof(t->counter_last));
	return 0;
}

#if defined(__x86_64__)
static inline uint64_t rdpmc(uint32_t counter)
{
	uint32_t lo, hi;
	__asm__ volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(counter));
	return (uint64_t)hi << 32 | lo;
}

/*
 * The kernel's protocol for reading a counter from its mapped page.
 * *SHARED is set when the page's enabled and running times differ: the
 * kernel has time-shared the counter (both advance together while it is
 * on the PMU, so only multiplexing sets them apart).
 */
static uint64_t read_mapped(volatile struct perf_event_mmap_page *pc, int *shared)
{
	uint32_t seq, idx;
	uint64_t count;

	do {
		seq = pc->lock;
		__asm__ volatile("" ::: "memory");
		idx = pc->index;
		count = (uint64_t)pc->offset;
		*shared = pc->time_enabled != pc->time_running;
		if (pc->cap_user_rdpmc && idx) {
			unsigned width = pc->pmc_width;
			uint64_t pmc = rdpmc(idx - 1);
			pmc <<= 64 - width;
			count += (uint64_t)((int64_t)pmc >> (64 - width));
		}
		__asm__ volatile("" ::: "memory");
	} while (pc->lock != seq);
	return count;
}
#endif

/* Reads every counter of the thread into t->counter_now. */
void counters_read(struct thread_state *t)
{
	for (uint32_t i = 0; i < t->ncounters; i++) {
#if defined(__x86_64__)
		if (t->counter_rdpmc) {
			int shared;
			t->counter_now[i] = read_mapped(t->counter_page[i], &shared);
			if (UNLIKELY(shared) && t->hdr)
				t->hdr->counter_info |= THREAD_COUNTERS_UNRELIABLE;
			continue;
		}
#endif
		uint64_t v[3];
		if (read(t->counter_fd[i], v, sizeof(v)) != (ssize_t)sizeof(v))
			continue;
		t->counter_now[i] = v[0];
		if (v[1] != v[2] && t->hdr)
			t->hdr->counter_info |= THREAD_COUNTERS_UNRELIABLE;
	}
}
