/*
 * Reading an aggregate-mode thread (record --mode=count): the THREAD
 * section's records (common/sections.h) as recorded, in clock units and
 * runtime addresses.  The input is hostile: every index is checked, and a
 * damaged thread is refused with a reason, never half read.
 */
#ifndef CALLSCOPE_FORMATS_CCT_READ_H
#define CALLSCOPE_FORMATS_CCT_READ_H

#include <stddef.h>
#include <stdint.h>

#include "sections.h"

/* One call path.  Paths are numbered in the order they were recorded,
 * records of other kinds left out: the root is 0, <truncated> 1, and a
 * path's parent is always below it. */
struct cct_path {
	uint64_t addr;		/* 0 for the root; CCT_TRUNCATED_ADDR */
	uint32_t parent;
	uint64_t calls;		/* with those still running at the end */
	uint64_t total;		/* inclusive, clock units */
	uint64_t counter_total[CONTRACT_COUNTERS_MAX];
	int still_open;		/* a call was running at the end: closed there */
	uint64_t unwound;	/* calls stack repair closed; thrown: of those, */
	uint64_t thrown;	/* the ones an exception left */
	/* timer samples with this path innermost: --time-by=samples, or a sum's */
	uint64_t samples;
	/* a sum's (formats/sum_write.c): calls already closed at their run's end */
	uint64_t closed_at_end;
};

/* One function's per-call statistics (struct cct_func_record). */
struct cct_func {
	uint64_t addr;
	uint64_t calls;
	uint64_t sum;
	unsigned __int128 sum_sq;
	uint64_t min, max;
	uint64_t periods, period_sum, period_min, period_max;
	uint64_t buckets[CCT_FUNC_BUCKETS];
};

struct cct_thread {
	struct cct_path *paths;
	size_t npaths;
	struct cct_func *funcs;
	size_t nfuncs;
	/* --time-by=samples: the period (0: times are the clock's), and
	 * the samples taken in the hooks */
	uint64_t sample_period_ns;
	uint64_t hook_samples;
};

/*
 * Parses LEN bytes of records holding NCOUNTERS counters into OUT.  Calls
 * still running are closed at END (clock units), their counters at the
 * thread's latest readings.  Returns 0, or -1 with *WHY saying what is
 * damaged (OUT then holds nothing).
 */
int cct_thread_parse(const uint8_t *data, size_t len, unsigned ncounters, uint64_t end,
		     struct cct_thread *out, const char **why);
void cct_thread_release(struct cct_thread *t);

/*
 * CT as the models take it (model/aggregate.h): times in ns at NS_PER_UNIT,
 * each function address named by FUNC_OF(CTX, ADDR) as a function of
 * NAMES (the root is no function, <truncated> one of its own).  INNER_NS
 * and OUTER_NS are the hooks' cost per call.  AT's arrays are the
 * caller's to free.
 */
struct aggregate_thread;
struct profile;
void cct_thread_to_aggregate(const struct cct_thread *ct, double ns_per_unit, double inner_ns,
			     double outer_ns, struct profile *names,
			     uint32_t (*func_of)(void *ctx, uint64_t addr), void *ctx,
			     struct aggregate_thread *at);

#endif
