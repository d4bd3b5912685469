/*
 * Measures what the hooks cost, so the analyzer can subtract it.  A call
 * recorded by the hooks pays an entry and an exit; part of that lands
 * inside the callee's measured interval (after the entry's clock read and
 * before the exit's: "inner"), the rest in the caller's ("outer").  Both
 * are measured here on a scratch thread state that writes into a static
 * buffer, taking the fastest of several batches so that an interrupt
 * during calibration does not inflate what is subtracted.  The result is
 * in clock units times 256.
 */
#include "runtime.h"

#include <string.h>

#define BATCHES 7
#define CALLS_PER_BATCH 2000

static uint8_t scratch_stream[64 << 10];
static struct thread_file_header scratch_header;
static struct func_slot scratch_slots[64];
static struct shadow_frame scratch_stack[16];
/* for the aggregate mode's hooks, which are what a call costs there */
static struct cct_record scratch_records[32];
static struct cct_cache_slot scratch_cache[AGGREGATE_CACHE_SLOTS];
static struct cct_func_slot scratch_func_slots[16];

/*
 * What reading the counters alone costs a call (two readings: entry and
 * exit), fastest batch, in clock units: so that `info` can say how much
 * of the hooks' cost is the counters'.
 */
static uint32_t counter_cost(struct thread_state *t)
{
	uint64_t best = UINT64_MAX;

	for (int batch = 0; batch < BATCHES; batch++) {
		uint64_t start = runtime_now();
		for (int i = 0; i < CALLS_PER_BATCH / 4; i++) {
			counters_read(t);
			counters_read(t);
		}
		uint64_t took = runtime_now() - start;
		if (took < best)
			best = took;
	}
	best /= CALLS_PER_BATCH / 4;
	return (uint32_t)(best < 1 ? 1 : best > THREAD_COUNTERS_COST_MAX ? THREAD_COUNTERS_COST_MAX
									 : best);
}

/* The time of every call path in the scratch records. */
static uint64_t scratch_paths_total(void)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < sizeof(scratch_records) / sizeof(scratch_records[0]); i++)
		if (scratch_records[i].kind == CCT_KIND_PATH)
			sum += scratch_records[i].total;
	return sum;
}

void calibrate_overhead(uint32_t *inner_x256, uint32_t *outer_x256)
{
	struct thread_state t;
	uint64_t best_total = UINT64_MAX, best_inner = 0;

	memset(&t, 0, sizeof(t));
	t.status = THREAD_RECORDING;
	t.hdr = &scratch_header;
	t.win_base = scratch_stream;
	t.end = scratch_stream + sizeof(scratch_stream);
	t.slots = scratch_slots;
	t.slot_mask = 63;
	t.next_id = 1;
	t.id_limit = 48;
	t.stack = scratch_stack;
	t.capacity = 16;
	t.fd = -1;
	t.capturing = 1;
	t.gen = 1;
	t.ring_end = (uint8_t *)UINTPTR_MAX;
	/* with counters, what a call costs is mostly reading them */
	if (runtime_config.contract.ncounters)
		counters_open(&t);
	if (runtime_config.contract.count_nodes)
		aggregate_use(&t, scratch_records, 32, scratch_cache, scratch_func_slots, 16);

	uint64_t paths_total = scratch_paths_total();
	for (int batch = 0; batch < BATCHES; batch++) {
		uint64_t inner = 0;
		uint64_t start = runtime_now();
		for (int i = 0; i < CALLS_PER_BATCH; i++) {
			t.cur = scratch_stream;
			trace_enter(&t, 0x1000, 0x7000, NULL);
			uint64_t entered = t.last_time;
			trace_exit_named(&t, 0x1000);
			inner += t.last_time - entered;
		}
		uint64_t total = runtime_now() - start;
		/* the aggregate mode keeps no last time: its calls' time,
		 * the inner part, is summed in their path instead */
		if (t.nodes) {
			uint64_t after = scratch_paths_total();
			inner = after - paths_total;
			paths_total = after;
		}
		if (total < best_total) {
			best_total = total;
			best_inner = inner;
		}
	}
	if (t.ncounters)
		runtime_config.counter_cost = counter_cost(&t);
	counters_close(&t);
	uint64_t total_x256 = best_total * 256 / CALLS_PER_BATCH;
	uint64_t in_x256 = best_inner * 256 / CALLS_PER_BATCH;
	if (in_x256 > total_x256)
		in_x256 = total_x256;
	*inner_x256 = (uint32_t)(in_x256 > UINT32_MAX ? UINT32_MAX : in_x256);
	uint64_t out = total_x256 - in_x256;
	*outer_x256 = (uint32_t)(out > UINT32_MAX ? UINT32_MAX : out);
}
