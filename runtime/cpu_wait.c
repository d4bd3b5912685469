/*
 * The time a thread waited, preempted, for a CPU, left out of its clock.
 *
 * A call's time is the difference of two clock readings, so on a busy
 * machine it includes whatever the scheduler gave to other threads while
 * the call's thread was runnable but not running; a sampling profiler
 * counting CPU time (perf's cpu-clock) has none of that.  Each recording
 * thread opens a software perf event that only reports its context
 * switches (PERF_RECORD_SWITCH, no hardware counter needed).  A switch
 * out that the kernel marks as a preemption and the switch back in bound
 * a wait; the hooks look at the ring's head (one load) after their clock
 * reading and, when records arrived, add the waits to the thread's
 * pauses, which every later clock reading leaves out, as it leaves out
 * the runtime's own pauses, and read the clock again.  Looking first, a
 * hook preempted between its look and its reading kept that wait in its
 * call's time, as a tenth of the preemptions did of a program whose time
 * is mostly the hooks' (Lua's interpreter built with -pg, beside a busy
 * process on its CPU).  A thread that blocks (I/O, a lock, sleep) is
 * switched out without that mark: its calls keep that time, as a wall
 * clock profile should.
 *
 * Where the kernel refuses the event (a container's seccomp filter, a
 * strict perf_event_paranoid) the thread's times include the waits, as
 * before; the main thread's CPU and wait times in the CALIBRATION section
 * then tell how much.
 *
 * The main thread's event is opened by a thread of the runtime's own,
 * unseen by glibc (own_thread.c says why), started with the runtime
 * (cpu_wait_open_aside()), as the sampler's is
 * (see sampler.c's handover): the first per-thread perf event opened on a
 * machine that had none for about a second waits in perf_event_open() for
 * an RCU grace period, 8-20 ms that would otherwise be the program's.
 * It opens it in a table of descriptors of its own, where the number the
 * kernel reserves for the event meanwhile is none the program may take.
 * From the thread's first hook until the ring is ready its head points at
 * aside.ready, which the opener sets once the ring waits in aside.ring:
 * the next hook then sees records pending and takes the ring on the thread
 * itself (cpu_wait_take()), so the hooks' one load stays all they pay.
 * The records are read from the ring's first: a wait between the opening
 * and that hook is left out like any other.  One before the opening is not
 * seen, as one before a thread's first hook is not.
 */
#define _GNU_SOURCE
#include "runtime.h"
#include "raw_syscall.h"

#include <linux/perf_event.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Pages of records after the control page, at most: 8192 switches of
 * 16 bytes, read at the next hook.  A long stretch of the program with no
 * hook on a busy machine is switched out every millisecond or so, and a
 * ring that fills loses the switches after (PERF_RECORD_LOST): those
 * waits stay in the times.  The kernel counts every thread's ring against
 * the user's perf_event_mlock_kb, so past it a thread gets a smaller one,
 * down to one page. */
#define WAIT_RING_PAGES_MAX 32u

static size_t page_bytes(void)
{
	return (size_t)getpagesize();
}

/* TID's switch records (0: the calling thread's).  Here and in
 * map_switch_ring(), raw system calls: the thread that opens the main
 * thread's has no errno of its own. */
static int open_switch_event(pid_t tid)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_DUMMY;
	attr.context_switch = 1;
	/* each switch record then ends with its time */
	attr.sample_id_all = 1;
	attr.sample_type = PERF_SAMPLE_TIME;
	attr.use_clockid = 1;
	attr.clockid = CLOCK_MONOTONIC;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	long fd = raw_syscall6(SYS_perf_event_open, (long)&attr, tid, -1, -1, PERF_FLAG_FD_CLOEXEC, 0);
	return raw_failed(fd) ? -1 : (int)fd;
}

/* The ring of TID's switch records, mapped, with its PAGES of records;
 * NULL when the kernel refuses the event. */
static struct perf_event_mmap_page *map_switch_ring(pid_t tid, uint32_t *pages)
{
	int fd = open_switch_event(tid);
	if (fd < 0)
		return NULL;
	long map = -1;
	uint32_t n = WAIT_RING_PAGES_MAX;
	for (; n && raw_failed(map); n /= 2)
		map = raw_syscall6(SYS_mmap, 0, (long)((1 + n) * page_bytes()),
				   PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	/* the mapping keeps the event alive: no descriptor is left open */
	raw_syscall3(SYS_close, fd, 0, 0);
	if (raw_failed(map))
		return NULL;
	*pages = n * 2;
	return (struct perf_event_mmap_page *)map;
}

/*
 * The main thread's ring while a thread of the runtime's own opens it.
 * Whichever comes first opens it: that thread, or the main thread at its
 * first hook, which then opens its own as any thread does.  On a quiet
 * machine, where the kernel may wait, the thread comes first; on a busy
 * one it may not run for milliseconds, whose waits for a CPU would stay
 * in the main thread's times, and the main thread does not wait for it.
 */
#define ASIDE_WAITING ((struct perf_event_mmap_page *)1)
enum { ASIDE_FREE, ASIDE_OPENING, ASIDE_DECIDED };
static struct {
	uint64_t ready;		/* the main thread's head meanwhile: 1 once done */
	struct perf_event_mmap_page *ring;	/* ASIDE_WAITING, the ring, or NULL */
	uint32_t pages;
	pid_t tid;		/* the main thread */
	int state;		/* ASIDE_: taken by the thread, by the main thread */
} aside = { .state = ASIDE_DECIDED };

static int open_aside(void *arg)
{
	uint32_t pages = 0;
	struct perf_event_mmap_page *waiting = ASIDE_WAITING;
	int free = ASIDE_FREE;

	(void)arg;
	if (!__atomic_compare_exchange_n(&aside.state, &free, ASIDE_OPENING, 0, __ATOMIC_ACQ_REL,
					 __ATOMIC_RELAXED))
		return 0;	/* the main thread opened its own */
	/* the event's number, reserved while the kernel waits, none of the
	 * program's: the ring needs no descriptor once mapped */
	runtime_thread_own_descriptors();
	struct perf_event_mmap_page *ring = map_switch_ring(aside.tid, &pages);
	aside.pages = pages;
	if (!__atomic_compare_exchange_n(&aside.ring, &waiting, ring, 0, __ATOMIC_RELEASE,
					 __ATOMIC_RELAXED)) {
		/* the thread stopped recording meanwhile */
		if (ring)
			raw_syscall3(SYS_munmap, (long)ring, (long)((1 + pages) * page_bytes()), 0);
		return 0;
	}
	__atomic_store_n(&aside.ready, 1, __ATOMIC_RELEASE);
	return 0;
}

/* On the main thread, once aside.ready is set: its ring, or none. */
static void adopt_aside(struct thread_state *t)
{
	struct perf_event_mmap_page *ring = __atomic_exchange_n(&aside.ring, NULL, __ATOMIC_ACQ_REL);

	thread_waits_none(t);
	if (!ring || ring == ASIDE_WAITING)
		return;
	t->wait_page = ring;
	t->wait_pages = aside.pages;
	/* from the ring's first record: the waits since it opened */
	t->wait_tail = 0;
	t->wait_head = (const volatile uint64_t *)&ring->data_head;
}

void cpu_wait_close(struct thread_state *t)
{
	if (t->wait_head == &aside.ready) {
		/* the ring opened aside will not be wanted */
		struct perf_event_mmap_page *ring =
			__atomic_exchange_n(&aside.ring, NULL, __ATOMIC_ACQ_REL);
		if (ring && ring != ASIDE_WAITING)
			munmap(ring, (1 + aside.pages) * page_bytes());
	}
	if (t->wait_page)
		munmap(t->wait_page, (1 + t->wait_pages) * page_bytes());
	t->wait_page = NULL;
	thread_waits_none(t);
}

/* The event clock and CLOCK_MONOTONIC when the process started: with the
 * TSC, the ticks per ns since then turn a wait (CLOCK_MONOTONIC ns, as the
 * switch records give it) into the clock's units, as the analyzer turns
 * ticks into ns from the session's start and end (a VM's kernel may offer
 * no conversion of its own: cap_user_time unset). */
static uint64_t clock_at_start, mono_at_start;

void cpu_wait_start(void)
{
	struct clock_pair start = runtime_now_pair();
	clock_at_start = start.clock;
	mono_at_start = start.mono_ns;
}

void cpu_wait_open_aside(void)
{
	aside.tid = getpid();
	aside.ring = ASIDE_WAITING;
	aside.ready = 0;
	aside.state = ASIDE_FREE;
	static struct unseen_stack opener_stack;

	if (runtime_thread_spawn_unseen(open_aside, NULL, &opener_stack) != 0)
		aside.state = ASIDE_DECIDED;	/* the main thread opens its own */
}

/* Opens the calling thread's switch records; when the kernel refuses,
 * nothing is left out.  The main thread's first take those opened aside. */
void cpu_wait_open(struct thread_state *t)
{
	t->wait_page = NULL;
	thread_waits_none(t);
	t->wait_out = 0;
	t->waited_ns = 0;
	t->pause_ended = 0;
	if (t->tid == (uint32_t)aside.tid &&
	    __atomic_exchange_n(&aside.state, ASIDE_DECIDED, __ATOMIC_ACQ_REL) == ASIDE_OPENING) {
		/* the ring is read from its first record, which may be older
		 * than the thread's start: a wait before now is not the thread's
		 * (taken off, it would run its clock back past its start) */
		t->clock_last = runtime_now();
		t->wait_tail = 0;
		t->wait_head = &aside.ready;
		return;
	}
	struct perf_event_mmap_page *ring = map_switch_ring(0, &t->wait_pages);
	if (!ring)
		return;
	t->wait_page = ring;
	t->wait_tail = __atomic_load_n(&ring->data_head, __ATOMIC_ACQUIRE);
	t->clock_last = runtime_now();
	t->wait_head = (const volatile uint64_t *)&ring->data_head;
}

int cpu_wait_left_out(const struct thread_state *t)
{
	if (t->wait_head == &aside.ready) {
		/* opened aside, not yet taken: the next hook would */
		struct perf_event_mmap_page *ring = __atomic_load_n(&aside.ring, __ATOMIC_ACQUIRE);
		return ring && ring != ASIDE_WAITING;
	}
	return t->wait_page != NULL;
}

/* LEN bytes of the ring at stream offset AT, which may wrap its end. */
static void ring_copy(void *out, const uint8_t *ring, uint64_t ring_len, uint64_t at, size_t len)
{
	uint64_t off = at % ring_len;
	size_t first = ring_len - off < len ? (size_t)(ring_len - off) : len;

	memcpy(out, ring + off, first);
	memcpy((uint8_t *)out + first, ring, len - first);
}

/* The event clock's ticks and CLOCK_MONOTONIC's ns since the start, for
 * converting between the two (equal with the monotonic clock). */
struct clock_rate {
	uint64_t ticks, ns;
};

static struct clock_rate clock_rate_now(void)
{
	if (runtime_config.contract.clock != CONTRACT_CLOCK_TSC)
		return (struct clock_rate){ 1, 1 };
	struct clock_pair now = runtime_now_pair();
	return (struct clock_rate){ now.clock - clock_at_start, now.mono_ns - mono_at_start };
}

static uint64_t ns_to_clock(struct clock_rate r, uint64_t ns)
{
	return r.ns ? (uint64_t)((unsigned __int128)ns * r.ticks / r.ns) : 0;
}

/* CLOCK_MONOTONIC's reading at event clock reading RAW. */
static uint64_t clock_to_mono(struct clock_rate r, uint64_t raw)
{
	if (runtime_config.contract.clock != CONTRACT_CLOCK_TSC)
		return raw;
	if (!r.ticks || raw < clock_at_start)
		return mono_at_start;
	return mono_at_start + (uint64_t)((unsigned __int128)(raw - clock_at_start) * r.ns / r.ticks);
}

void cpu_wait_take(struct thread_state *t)
{
	if (t->wait_head == &aside.ready) {
		adopt_aside(t);
		if (!t->wait_page)
			return;
	}
	struct perf_event_mmap_page *pc = t->wait_page;
	const uint8_t *ring = (const uint8_t *)pc + page_bytes();
	uint64_t ring_len = (uint64_t)t->wait_pages * page_bytes();
	uint64_t head = __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = t->wait_tail, waited = 0, in_pause = 0;
	struct clock_rate rate = clock_rate_now();
	/* A wait before the thread's last clock reading is in it already:
	 * the runtime's own pause, that ended there, left it out (a hook
	 * looks at the ring after its reading, thread_clock()), or it came
	 * before the ring was the thread's.  Taking it off now would run the
	 * clock backwards, and the next stretch of the program's time would
	 * be lost instead; the part inside the pause is counted once, as
	 * left out. */
	uint64_t seen = clock_to_mono(rate, t->clock_last);
	uint64_t pause_from = t->pause_ended == t->clock_last && t->pause_ended
				      ? clock_to_mono(rate, t->pause_began)
				      : seen;

	while (head - tail >= sizeof(struct perf_event_header)) {
		struct perf_event_header h;
		ring_copy(&h, ring, ring_len, tail, sizeof(h));
		if (h.size < sizeof(h) || h.size > head - tail)
			break;
		if (h.type == PERF_RECORD_SWITCH && h.size >= sizeof(h) + sizeof(uint64_t)) {
			uint64_t when;
			ring_copy(&when, ring, ring_len, tail + h.size - sizeof(when), sizeof(when));
			if (h.misc & PERF_RECORD_MISC_SWITCH_OUT)
				t->wait_out = h.misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT ? when : 0;
			else if (t->wait_out) {
				uint64_t from = t->wait_out > seen ? t->wait_out : seen;
				waited += when > from ? when - from : 0;
				uint64_t paused = t->wait_out > pause_from ? t->wait_out : pause_from;
				uint64_t resumed = when < seen ? when : seen;
				in_pause += resumed > paused ? resumed - paused : 0;
				t->wait_out = 0;
			}
		} else if (h.type == PERF_RECORD_LOST) {
			/* the switch that would close an open wait may be gone */
			t->wait_out = 0;
		}
		tail += h.size;
	}
	/* the records are read: the kernel may write over them */
	__atomic_store_n(&pc->data_tail, head, __ATOMIC_RELEASE);
	t->wait_tail = head;
	t->waited_ns += waited + in_pause;
	if (!waited)
		return;
	thread_pause_add(t, ns_to_clock(rate, waited));
	if (t->nodes)
		t->nodes[0].paused = t->paused;
}
