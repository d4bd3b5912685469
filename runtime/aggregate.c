/*
 * The aggregate mode (record --mode=count): instead of writing every
 * entry and exit, each thread keeps its calling-context tree in a
 * file-backed array of call-path nodes and adds each finished call to its
 * node: calls, inclusive time, shortest and longest.  Memory is bounded by
 * the node count the user chose; a path that no longer fits goes to node 1,
 * "<truncated>", which counts its calls (and the time of its outermost
 * activations), so nothing is silently dropped.  Like the event buffers,
 * the array is a shared file mapping: it survives the program dying, and
 * calls still running then are closed by the analyzer from `open_since`.
 *
 * The file's space is reserved ahead of use, a step at a time, so a full
 * disk sends new paths to "<truncated>" rather than raising SIGBUS.
 */
#include "runtime.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define RESERVE_STEP 16384u	/* nodes reserved at a time: 1 MiB */
#define CACHE_SLOTS 4096u	/* (parent, address) -> node cache */
#define TRUNCATED_NODE 1u

static void enter(struct thread_state *t, struct shadow_frame *f, uint64_t now, int inherited);

static int reserve(struct thread_state *t, uint32_t nodes)
{
	if (nodes > t->node_cap)
		nodes = t->node_cap;
	if (nodes <= t->node_reserved)
		return nodes > t->node_used ? 0 : -1;
	if (posix_fallocate(t->fd, THREAD_FILE_DATA_OFFSET,
			    (off_t)nodes * CCT_RECORD_SIZE) != 0)
		return -1;
	t->node_reserved = nodes;
	return 0;
}

static void publish(struct thread_state *t)
{
	__atomic_store_n(&t->hdr->committed_end,
			 THREAD_FILE_DATA_OFFSET + (uint64_t)t->node_used * CCT_RECORD_SIZE,
			 __ATOMIC_RELEASE);
}

int aggregate_open(struct thread_state *t)
{
	uint64_t want = (uint64_t)runtime_config.contract.count_nodes * CCT_RECORD_SIZE;
	/* the nodes a file size limit leaves room for: the file is sized
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
	if (ftruncate(t->fd, (off_t)(THREAD_FILE_DATA_OFFSET + bytes)) != 0)
		return -1;
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, t->fd,
		       THREAD_FILE_DATA_OFFSET);
	if (p == MAP_FAILED)
		return -1;
	t->nodes = p;
	t->node_cache = mmap(NULL, CACHE_SLOTS * sizeof(*t->node_cache), PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (t->node_cache == MAP_FAILED || reserve(t, RESERVE_STEP) != 0) {
		if (t->node_cache != MAP_FAILED)
			munmap(t->node_cache, CACHE_SLOTS * sizeof(*t->node_cache));
		munmap(p, bytes);
		t->nodes = NULL;
		t->node_cache = NULL;
		return -1;
	}
	/* node 0: the root; node 1: where paths go when the array is full */
	memset(t->nodes, 0, 2 * CCT_RECORD_SIZE);
	t->nodes[TRUNCATED_NODE].addr = CCT_TRUNCATED_ADDR;
	t->node_used = 2;
	t->cur_node = 0;
	t->hdr->flags |= THREAD_CCT;
	publish(t);
	/* A forked child is inside its parent's calls: give them nodes of
	 * its own.  They count their time here, not as calls. */
	uint64_t now = thread_now(t);
	for (uint32_t i = 0; i < t->depth; i++)
		enter(t, &t->stack[i], now, 1);
	return 0;
}

void aggregate_close(struct thread_state *t)
{
	if (!t->nodes)
		return;
	munmap(t->nodes, (size_t)t->node_cap * CCT_RECORD_SIZE);
	munmap(t->node_cache, CACHE_SLOTS * sizeof(*t->node_cache));
	t->nodes = NULL;
	t->node_cache = NULL;
}

/* The child of PARENT for ADDR, made if new; TRUNCATED_NODE when full. */
static uint32_t child(struct thread_state *t, uint32_t parent, uint64_t addr)
{
	uint32_t h = (uint32_t)(((addr * 0x9E3779B97F4A7C15ull) >> 32) ^ parent) & (CACHE_SLOTS - 1);
	struct cct_cache_slot *slot = &t->node_cache[h];

	if (LIKELY(slot->addr == addr && slot->parent == parent && slot->node))
		return slot->node;
	if (parent == TRUNCATED_NODE)
		return TRUNCATED_NODE;
	uint32_t c = t->nodes[parent].first_child;
	while (c && t->nodes[c].addr != addr)
		c = t->nodes[c].next_sibling;
	if (!c) {
		if (t->node_used >= t->node_reserved &&
		    reserve(t, t->node_reserved + RESERVE_STEP) != 0)
			return TRUNCATED_NODE;
		c = t->node_used;
		struct cct_record *n = &t->nodes[c];
		memset(n, 0, sizeof(*n));
		n->addr = addr;
		n->parent = parent;
		n->min = UINT64_MAX;
		n->next_sibling = t->nodes[parent].first_child;
		t->nodes[parent].first_child = c;
		t->node_used++;
		publish(t);
	}
	slot->addr = addr;
	slot->parent = parent;
	slot->node = c;
	return c;
}

/*
 * F's activation starts counting at NOW: its node has one more open.
 * INHERITED: it began before (a forked child's frame, or a call running
 * when capture resumed), so its time counts from now but not its call.
 */
static void count_from(struct thread_state *t, struct shadow_frame *f, uint64_t now,
		       int inherited)
{
	struct cct_record *n = &t->nodes[f->node];

	f->counted = 1;
	f->inherited = inherited;
	/* a truncated path's time counts in its outermost activation only */
	f->start = f->node == TRUNCATED_NODE && f->parent_node == TRUNCATED_NODE ? UINT64_MAX
										 : now;
	if (f->start != UINT64_MAX && !(n->open & ~CCT_OPEN_NOT_A_CALL)) {
		n->open_since = now;
		/* the analyzer closes a running call at the end: it must
		 * know not to count this one */
		n->open = inherited ? CCT_OPEN_NOT_A_CALL : 0;
	}
	n->open++;
}

/* F's activation stops counting at NOW: its call and time go to its node. */
static void count_until(struct thread_state *t, struct shadow_frame *f, uint64_t now)
{
	struct cct_record *n = &t->nodes[f->node];

	f->counted = 0;
	n->calls += !f->inherited;
	if (f->start != UINT64_MAX) {
		uint64_t d = now > f->start ? now - f->start : 0;
		n->total += d;
		/* a part of a call is not a call's duration */
		if (!f->inherited && d < n->min)
			n->min = d;
		if (!f->inherited && d > n->max)
			n->max = d;
	}
	if (n->open & ~CCT_OPEN_NOT_A_CALL)
		n->open--;
	if (!(n->open & ~CCT_OPEN_NOT_A_CALL))
		n->open = 0;
}

/*
 * While capture is off (--start-at, --stop-at) the path is still
 * followed, so that calls made once it is back on land on their true
 * paths, but nothing is counted.
 */
static void enter(struct thread_state *t, struct shadow_frame *f, uint64_t now, int inherited)
{
	uint32_t parent = t->cur_node;

	f->node = child(t, parent, f->addr);
	f->parent_node = parent;
	f->inherited = 0;
	f->counted = 0;
	t->cur_node = f->node;
	if (t->capturing)
		count_from(t, f, now, inherited);
}

void aggregate_enter(struct thread_state *t, struct shadow_frame *f, uint64_t now)
{
	enter(t, f, now, 0);
}

void aggregate_exit(struct thread_state *t, struct shadow_frame *f, uint64_t now)
{
	if (f->counted)
		count_until(t, f, now);
	t->cur_node = f->parent_node;
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
		for (uint32_t i = t->depth; i-- > 0;)
			if (t->stack[i].counted)
				count_until(t, &t->stack[i], now);
		return;
	}
	for (uint32_t i = 0; i < t->depth; i++) {
		struct shadow_frame *f = &t->stack[i];
		if (!f->counted)
			count_from(t, f, now, 1);
	}
}
