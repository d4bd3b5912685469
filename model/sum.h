/*
 * A summed profile: many runs of one program added into call paths and
 * per-function statistics whose size depends on the program, not on the
 * number of runs.  This is what `callscope merge` builds and writes as a
 * count-mode recording (formats/sum_write.c).
 *
 * Functions are named by where their code is, not by their names, so no
 * symbol table is needed to sum: an object (its path, build ID and
 * segments) and a link-time address in it.  Addresses outside every
 * object (a "<signal N>" pseudo-call, "<truncated>", code in no known
 * object) keep their address with no object.  Times are nanoseconds with
 * the hooks' cost already subtracted, so a sum needs no hook cost of its
 * own.
 *
 * The timer samples are kept per path and per PC too (where the PC was
 * known), so the reports of source lines and instructions read a sum as
 * they read the runs.
 *
 * Every number is summed as an integer or kept as a minimum or maximum,
 * so adding runs in any order, or adding sums of parts, gives the same
 * sum; the writer puts everything in an order of its own (objects by
 * path, functions by object and address, paths depth-first), so the same
 * sum is written as the same bytes.  No I/O here.
 */
#ifndef CALLSCOPE_MODEL_SUM_H
#define CALLSCOPE_MODEL_SUM_H

#include <stddef.h>
#include <stdint.h>

#include "lib/u64map.h"
#include "sections.h"

#define SUM_NO_OBJECT UINT32_MAX

struct sum_segment {
	uint64_t vaddr, memsz;	/* link-time */
	uint32_t flags;
};

struct sum_object {
	char *path;		/* owned */
	uint8_t *build_id;	/* owned, may be NULL */
	size_t build_id_len;
	struct sum_segment *segs;	/* owned */
	size_t nseg;
	struct u64map funcs;	/* link-time address -> function */
	struct u64map places;	/* link-time address -> sampled place */
};

/* An instruction a timer sample interrupted, named as a function is. */
struct sum_place {
	uint32_t object;	/* SUM_NO_OBJECT: ADDR is an address of no object */
	uint64_t addr;
};

/* The samples of one call path whose PC was one place. */
struct sum_pc {
	uint32_t node;
	uint32_t place;
	uint64_t samples;	/* weighted */
};

/* One function's per-call statistics, summed over every run. */
struct sum_func {
	uint32_t object;	/* SUM_NO_OBJECT: ADDR is an address of no object */
	uint64_t addr;		/* link-time in its object */
	uint64_t calls;		/* calls in the sums below */
	unsigned __int128 sum_ns, sum_sq_ns;
	uint64_t min_ns, max_ns;	/* UINT64_MAX, 0 while calls is 0 */
	uint64_t periods, period_sum_ns;
	uint64_t period_min_ns, period_max_ns;	/* UINT64_MAX, 0 while none */
	uint64_t buckets[CCT_FUNC_BUCKETS];	/* by duration in ns, as cct_func_record */
};

/* One call path. */
struct sum_node {
	uint32_t func;		/* UINT32_MAX for the root */
	uint32_t parent;	/* UINT32_MAX for the root */
	uint64_t calls;
	uint64_t total_ns;	/* inclusive, hooks' cost subtracted */
	uint64_t counter_total[CONTRACT_COUNTERS_MAX];
	uint64_t closed_at_end;	/* calls still running when their run ended */
	uint64_t unwound;	/* calls closed by stack repair */
	uint64_t thrown;	/* of those, the ones an exception left */
	uint64_t samples;	/* timer samples with this path innermost, weighted */
};

struct profile_sum {
	struct sum_object *objects;
	size_t nobjects, objects_alloc;
	struct sum_func *funcs;
	size_t nfuncs, funcs_alloc;
	struct u64map loose_funcs;	/* functions of no object, by address */
	struct sum_node *nodes;	/* nodes[0] is the root */
	size_t nnodes, nodes_alloc;
	struct u64map children;	/* (parent, func) -> node */
	struct sum_place *places;
	size_t nplaces, places_alloc;
	struct u64map loose_places;	/* places of no object, by address */
	struct sum_pc *pcs;	/* the samples per path and PC, for the
				 * reports of lines and instructions */
	size_t npcs, pcs_alloc;
	struct u64map pc_index;	/* (node, place) -> pcs */

	/* what the runs were */
	uint64_t runs, processes, threads;
	uint64_t lost_events;
	uint64_t span_ns;	/* the runs' durations, added */
	uint32_t counter_flags;	/* THREAD_COUNTERS_UNRELIABLE if any run's was */
	uint32_t sample_clocks;	/* the runs' THREAD_SAMPLES_* flags, together */
};

void sum_init(struct profile_sum *s);
void sum_release(struct profile_sum *s);

/*
 * The object PATH, added if new.  When two runs name one path with
 * different build IDs, the smaller build ID (then segment table) is kept,
 * so the choice does not depend on the order runs are added.
 */
uint32_t sum_object(struct profile_sum *s, const char *path, const uint8_t *build_id,
		    size_t build_id_len, const struct sum_segment *segs, size_t nseg);

/* The function at ADDR in OBJECT (SUM_NO_OBJECT: an address of no object),
 * added with empty statistics if new. */
uint32_t sum_func(struct profile_sum *s, uint32_t object, uint64_t addr);

/* The path PARENT -> FUNC, added empty if new (the root is node 0). */
uint32_t sum_child(struct profile_sum *s, uint32_t parent, uint32_t func);

/* Adds SAMPLES timer samples of path NODE whose PC was at ADDR in OBJECT
 * (SUM_NO_OBJECT: an address of no object). */
void sum_pc_add(struct profile_sum *s, uint32_t node, uint32_t object, uint64_t addr,
		uint64_t samples);

/* Adds one function's statistics of a run (or of another sum) to F. */
void sum_func_add(struct sum_func *f, const struct sum_func *more);

/* The duration bucket of NS (0 for 0, K for 2^(K-1) .. 2^K - 1). */
unsigned sum_bucket(uint64_t ns);

#endif
