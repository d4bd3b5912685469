/*
 * The aggregate mode (record --mode=count): instead of writing every
 * entry and exit, each thread keeps its calling-context tree in a
 * file-backed array of records and adds each finished call to its path:
 * calls, inclusive time, and with -e each counter's increase.  With
 * record --call-stats each function also has a record of its own for
 * what a trace would give per call: shortest, longest, the sums for the
 * mean and spread, a histogram of durations and the period between
 * consecutive calls (sections.h has both layouts).  They are asked for,
 * not kept by default: their updates cost each call about a fifth of
 * count mode's price (bench/RESULTS.md), for numbers most reports do
 * not show.  Memory is bounded by the record count the user chose; a
 * path that no longer fits goes to record 1, "<truncated>", which counts
 * its calls (and the time of its outermost activations), so nothing is
 * silently dropped.  Like the event buffers, the array is a shared file
 * mapping: it survives the program dying, and calls still running then
 * are closed by the analyzer from `open_since`.
 *
 * The file's space is reserved ahead of use, a step at a time, so a full
 * disk sends new paths to "<truncated>" rather than raising SIGBUS.
 */
#include "runtime.h"
#include "aggregate_count.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define RESERVE_STEP 8192u	/* records reserved at a time at most: 1 MiB */
#define RESERVE_FIRST 512u	/* the first reservation: 64 KiB */

/* The next reservation: 64 KiB first, then doubling up to a step, so a
 * short-lived thread does not fill and fault in a whole megabyte as it
 * starts. */
static uint32_t reserve_step(const struct thread_state *t)
{
	return t->node_reserved < RESERVE_FIRST ? RESERVE_FIRST
	       : t->node_reserved < RESERVE_STEP ? t->node_reserved
						   : RESERVE_STEP;
}

struct reservation {
	struct thread_state *t;
	uint32_t records;
};

static int reserve_now(void *arg)
{
	struct thread_state *t = ((struct reservation *)arg)->t;
	uint32_t records = ((struct reservation *)arg)->records;
	/* not into the program's file, should it have closed ours */
	if (!rt_fd_is(t->fd, &t->fd_id))
		return -1;
	if (posix_fallocate(t->fd, THREAD_FILE_DATA_OFFSET,
			    (off_t)records * CCT_RECORD_SIZE) != 0)
		return -1;
	/* fault the new pages in now, in one go, as the event buffers do:
	 * not one at a time inside the program's calls, where the faults
	 * (and their time) would be charged to whatever runs */
	thread_buffer_fill(t->fd,
			   THREAD_FILE_DATA_OFFSET + (uint64_t)t->node_reserved * CCT_RECORD_SIZE,
			   (uint64_t)(records - t->node_reserved) * CCT_RECORD_SIZE);
	madvise(&t->nodes[t->node_reserved], (size_t)(records - t->node_reserved) * CCT_RECORD_SIZE,
		MADV_POPULATE_WRITE);
	t->node_reserved = records;
	return 0;
}

/* Reserves room for RECORDS records in all, from inside a hook as a
 * buffer's growth (thread_paused_call(): posix_fallocate may fall back to
 * fstatfs and writes). */
static int reserve(struct thread_state *t, uint32_t records)
{
	if (records > t->node_cap)
		records = t->node_cap;
	if (records <= t->node_reserved)
		return records > t->node_used ? 0 : -1;
	struct reservation r = { t, records };
	int rc = thread_paused_call(t, reserve_now, &r);
	if (rc == 0)	/* the root record's page is in the file now */
		t->nodes[0].paused = t->paused;
	return rc;
}

static void publish(struct thread_state *t)
{
	__atomic_store_n(&t->hdr->committed_end,
			 THREAD_FILE_DATA_OFFSET + (uint64_t)t->node_used * CCT_RECORD_SIZE,
			 __ATOMIC_RELEASE);
}

/* N new records in a row, zeroed; 0 when they do not fit. */
static uint32_t new_records(struct thread_state *t, uint32_t n)
{
	while (t->node_used + n > t->node_reserved)
		if (reserve(t, t->node_reserved + reserve_step(t)) != 0 ||
		    t->node_used + n > t->node_reserved)
			return 0;
	uint32_t first = t->node_used;
	memset(&t->nodes[first], 0, (size_t)n * CCT_RECORD_SIZE);
	t->node_used += n;
	return first;
}

/* Writes the root and "<truncated>" and enters the frames T is inside of. */
static void start_tree(struct thread_state *t)
{
	memset(t->nodes, 0, 2 * CCT_RECORD_SIZE);
	t->nodes[AGGREGATE_TRUNCATED_NODE].addr = CCT_TRUNCATED_ADDR;
	t->nodes[0].paused = t->paused;
	t->nodes[0].sample_period_ns = runtime_config.sample_period_ns;
	t->node_used = 2;
	t->cur_node = 0;
	t->hooks_q = 0;
	t->hdr->flags |= THREAD_CCT;
	publish(t);
	/* A forked child is inside its parent's calls: give them nodes of
	 * its own.  They count their time here, not as calls. */
	uint64_t now = thread_now(t);
	if (t->ncounters)
		counters_read(t);
	for (uint32_t i = 0; i < t->depth; i++)
		aggregate_count_enter(t, &t->stack[i], now, 1);
}

/*
 * The address -> function record table of --call-stats: room for one
 * function per CCT_FUNC_RECORDS records at most half full, up to
 * FUNC_SLOTS_MAX slots (2 MiB, faulted in at the start like the records, so
 * the table's first touches are not charged to the program's calls); a
 * thread that meets more functions than half that keeps no statistics for
 * the rest.
 */
#define FUNC_SLOTS_MAX (1u << 17)

static uint32_t func_slot_count(uint32_t records)
{
	uint32_t want = records / CCT_FUNC_RECORDS * 2 + 2, n = 64;
	while (n < want && n < FUNC_SLOTS_MAX)
		n *= 2;
	return n;
}

#define CALL_MEMO_ENTRIES (1u << CALL_MEMO_BITS)
#define CALL_MEMO_BYTES (CALL_MEMO_ENTRIES * sizeof(struct thread_call_memo))

/* A thread's call memo when it has none: no entry matches a call (no
 * function is at address 0), so the entry hooks' fast path declines and
 * count_call() counts in the nodes. */
static struct thread_call_memo no_call_memo[CALL_MEMO_ENTRIES];

void aggregate_use(struct thread_state *t, struct cct_record *records, uint32_t nrecords,
		   struct cct_cache_slot *cache, struct cct_func_slot *func_slots,
		   uint32_t nfunc_slots)
{
	t->nodes = records;
	t->node_cap = t->node_reserved = nrecords;
	t->node_cache = cache;
	t->call_memo = no_call_memo;
	t->call_memo_on = 0;
	t->func_slots = func_slots;
	t->func_slot_mask = nfunc_slots - 1;
	t->funcs_used = 0;
	start_tree(t);
}



/*
 * The call memo, in the thread's file past the nodes' room, which ends at
 * NODES_END (a file offset): in the file, so that its counts are there
 * however the process ends; faulted in now, as the records are.  Without
 * room for it (a file size limit), calls go to the nodes.
 */
static void call_memo_open(struct thread_state *t, uint64_t nodes_end)
{
	uint64_t at = (nodes_end + 4095) & ~(uint64_t)4095;

	t->call_memo = no_call_memo;
	t->call_memo_on = 0;
	if (rt_file_room(at, CALL_MEMO_BYTES) != CALL_MEMO_BYTES ||
	    ftruncate(t->fd, (off_t)(at + CALL_MEMO_BYTES)) != 0)
		return;
	void *p = mmap(NULL, CALL_MEMO_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED, t->fd, (off_t)at);
	if (p == MAP_FAILED)
		return;
	madvise(p, CALL_MEMO_BYTES, MADV_POPULATE_WRITE);
	t->call_memo = p;
	t->call_memo_on = 1;
	t->hdr->call_memo_offset = at;
	t->hdr->call_memo_entries = CALL_MEMO_ENTRIES;
}

int aggregate_open(struct thread_state *t)
{
	uint64_t want = (uint64_t)runtime_config.contract.count_nodes * CCT_RECORD_SIZE;
	/* the records a file size limit leaves room for: the file is sized
	 * for all of them at once, and growing past the limit would raise
	 * SIGXFSZ; paths past them go to "<truncated>" */
	size_t bytes = (size_t)(rt_file_room(THREAD_FILE_DATA_OFFSET, want) / CCT_RECORD_SIZE *
				CCT_RECORD_SIZE);

	if (bytes < 2 * CCT_RECORD_SIZE) {
		errno = EFBIG;
		return -1;
	}
	t->node_cap = (uint32_t)(bytes / CCT_RECORD_SIZE);
	t->node_reserved = 0;
	t->node_used = 0;
	t->func_slot_mask = func_slot_count(t->node_cap) - 1;
	t->funcs_used = 0;
	if (ftruncate(t->fd, (off_t)(THREAD_FILE_DATA_OFFSET + bytes)) != 0)
		return -1;
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, t->fd,
		       THREAD_FILE_DATA_OFFSET);
	if (p == MAP_FAILED)
		return -1;
	t->nodes = p;
	t->node_cache = mmap(NULL, AGGREGATE_CACHE_SLOTS * sizeof(*t->node_cache),
			     PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	/* the function table serves --call-stats alone */
	t->func_slots = !runtime_config.contract.call_stats
				? NULL
				: mmap(NULL, ((size_t)t->func_slot_mask + 1) * sizeof(*t->func_slots),
				       PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (t->node_cache != MAP_FAILED)
		madvise(t->node_cache, AGGREGATE_CACHE_SLOTS * sizeof(*t->node_cache),
			MADV_POPULATE_WRITE);
	if (t->node_cache == MAP_FAILED || t->func_slots == MAP_FAILED ||
	    reserve(t, reserve_step(t)) != 0) {
		int saved = errno;
		if (t->node_cache != MAP_FAILED)
			munmap(t->node_cache, AGGREGATE_CACHE_SLOTS * sizeof(*t->node_cache));
		if (t->func_slots && t->func_slots != MAP_FAILED)
			munmap(t->func_slots,
			       ((size_t)t->func_slot_mask + 1) * sizeof(*t->func_slots));
		munmap(p, bytes);
		t->nodes = NULL;
		t->node_cache = NULL;
		t->func_slots = NULL;
		errno = saved;
		return -1;
	}
	if (runtime_config.contract.time_by_samples)
		call_memo_open(t, THREAD_FILE_DATA_OFFSET + bytes);
	start_tree(t);
	return 0;
}

void aggregate_close(struct thread_state *t)
{
	if (!t->nodes)
		return;
	munmap(t->nodes, (size_t)t->node_cap * CCT_RECORD_SIZE);
	munmap(t->node_cache, AGGREGATE_CACHE_SLOTS * sizeof(*t->node_cache));
	if (t->func_slots)
		munmap(t->func_slots, ((size_t)t->func_slot_mask + 1) * sizeof(*t->func_slots));
	if (t->call_memo_on)
		munmap(t->call_memo, CALL_MEMO_BYTES);
	t->nodes = NULL;
	t->node_cache = NULL;
	t->call_memo = no_call_memo;
	t->call_memo_on = 0;
	t->func_slots = NULL;
}

uint32_t aggregate_find_func(struct thread_state *t, uint64_t addr)
{
	if (!runtime_config.contract.call_stats)
		return 0;
	uint32_t h = (uint32_t)((addr * 0x9E3779B97F4A7C15ull) >> 40) & t->func_slot_mask;

	while (t->func_slots[h].record) {
		if (t->func_slots[h].addr == addr)
			return t->func_slots[h].record;
		h = (h + 1) & t->func_slot_mask;
	}
	if (t->funcs_used >= (t->func_slot_mask + 1) / 2)
		return 0;
	uint32_t r = new_records(t, CCT_FUNC_RECORDS);
	if (!r)
		return 0;
	t->funcs_used++;
	struct cct_func_record *fr = count_func_record(t, r);
	fr->addr = addr;
	fr->kind = CCT_KIND_FUNC;
	fr->min = fr->period_min = fr->last_start = UINT64_MAX;
	t->func_slots[h].addr = addr;
	t->func_slots[h].record = r;
	publish(t);
	return r;
}

uint32_t aggregate_child_slow(struct thread_state *t, struct cct_cache_slot *slot, uint32_t parent,
			      uint64_t addr)
{
	if (parent == AGGREGATE_TRUNCATED_NODE)
		return AGGREGATE_TRUNCATED_NODE;
	uint32_t c = t->nodes[parent].first_child;
	while (c && t->nodes[c].addr != addr)
		c = t->nodes[c].next_sibling;
	if (!c) {
		/* the function's record first, so a path never names a
		 * record that is not there */
		uint32_t fr = aggregate_find_func(t, addr);
		c = new_records(t, 1);
		if (!c)
			return AGGREGATE_TRUNCATED_NODE;
		struct cct_record *n = &t->nodes[c];
		n->addr = addr;
		n->parent = parent;
		n->func_record = fr;
		n->next_sibling = t->nodes[parent].first_child;
		t->nodes[parent].first_child = c;
		publish(t);
	}
	slot->addr = addr;
	slot->parent = parent;
	slot->node = c;
	return c;
}

void call_memo_take(struct thread_state *t, struct thread_call_memo *entry, uint32_t parent,
		    uint64_t addr, uint32_t node)
{
	/* each store after the one before it, as sealing may find them
	 * (sections.h): the count that leaves, then the entry marked empty
	 * while it changes, then its new path */
	if (entry->node)
		t->nodes[entry->node].calls = entry->calls;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	entry->node = 0;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	entry->addr = addr;
	entry->parent = parent;
	entry->calls = t->nodes[node].calls + (uint64_t)t->capturing;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	entry->node = node;
}

/*
 * Capture stopped or resumed with calls open, as a trace would show it: a
 * stop closes the counted ones there (their calls count, their time ends
 * at the stop); a resume counts the open ones' time from then on, as
 * calls already running (no call counted), like a SYNC's open frames.
 */
void aggregate_capture(struct thread_state *t, int on, uint64_t now)
{
	if (!on) {
		for (uint32_t i = t->depth; i-- > 0;) {
			struct shadow_frame *f = &t->stack[i];
			if (f->counted) {
				count_until(t, f, now, t->ncounters, 1);
				f->counted = 0;
			}
		}
		return;
	}
	for (uint32_t i = 0; i < t->depth; i++) {
		struct shadow_frame *f = &t->stack[i];
		if (!f->counted)
			count_from(t, f, now, 1, t->ncounters, 1, 0, frame_is_library(f));
	}
}
