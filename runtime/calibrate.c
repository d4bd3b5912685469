/*
 * Measures what the hooks cost, so the analyzer can subtract it.  A call
 * recorded by the hooks pays an entry and an exit; part of that lands
 * inside the callee's measured interval (after the entry's clock read and
 * before the exit's: "inner"), the rest in the caller's ("outer").
 *
 * It is measured in place: the calling thread's own state is pointed at
 * scratch buffers for a moment and a function made of its hook alone
 * (arch/x86_64/calibration_targets.S, or the -finstrument-functions pair)
 * is called through the entry point the program uses, the procedure
 * linkage, the return trampoline and the mispredicted return that follows
 * it, from callers that then return themselves (call_from_callers()),
 * writing a stream that moves on through memory as the real one does.
 * The cost of a call is the difference from the same function without
 * its hook; the inner part is what the recording itself says those calls
 * took.  Each batch is timed alone and the fastest batch counts, so an
 * interrupt or a busy neighbour during start-up does not inflate what is
 * subtracted; many short batches make that fastest one a stable figure.
 * The result is in clock units times 256.
 *
 * A neighbour that keeps the core's other half busy through all of
 * start-up still doubles the figure (the batches take a few milliseconds
 * together), so a trace measures it again as the process exits, and the
 * analyzer subtracts the lower of the two: the cost a call has when
 * nothing else slows it, in both runs of a program that the machine's
 * load treated differently.  Count mode subtracts in the program, as each
 * call ends, and keeps the figure of start-up.
 *
 * A library call traced through its GOT slot (libcall/) pays more: a
 * stub, an entry point that saves every argument register, and a C side
 * of its own, before the same return trampoline.  So when library calls
 * are traced, a second function, the empty one reached through such a
 * stub (callscope_calibration_library), is measured the same way, and the
 * analyzer subtracts each figure from the calls of its kind.
 *
 * The fastest batch is one the scheduler did not interrupt, but the
 * program's calls are: on a busy machine a thread waits for a CPU, and
 * the clock runs on, for a share of its run that lands on its code and
 * on the hooks alike, and no per-call figure can take that out.  So the
 * exit's record also says how long the main thread ran and waited since
 * the start's measurement (the kernel's schedstat: waiting while
 * runnable, not sleeping), for `info` to say how much of the times is
 * such waiting.
 */
#include "runtime.h"
#include "libcall/libcall.h"
#include "stream.h"

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define BATCHES 31
#define CALLS_PER_BATCH 500
/* a batch writes at most this much: a function definition, then an
 * entry and an exit per call */
#define BATCH_BYTES (CALLS_PER_BATCH * 2 * STREAM_RECORD_MAX + 64)
#define SCRATCH_STREAM (512u << 10)

static struct thread_file_header scratch_header;
static struct func_slot scratch_slots[64];
static struct shadow_frame scratch_stack[16];
/* for the aggregate mode's hooks, which are what a call costs there */
static struct cct_record scratch_records[32];
static struct cct_cache_slot scratch_cache[AGGREGATE_CACHE_SLOTS];
static struct cct_func_slot scratch_func_slots[16];

void callscope_calibration_mcount(void) HIDDEN;
void callscope_calibration_fentry(void) HIDDEN;
void callscope_calibration_plain(void) HIDDEN;
void callscope_calibration_library(void) HIDDEN;

/* What the stub of callscope_calibration_library hands the library
 * calls' entry point: the empty function, as a library function would be. */
HIDDEN const struct libcall_target callscope_calibration_library_target = {
	.jump = (uintptr_t)callscope_calibration_plain,
	.id = (uintptr_t)callscope_calibration_plain,
	.kind = LIBCALL_RETURNS,
};

/* What -finstrument-functions makes of an empty function. */
static void __attribute__((noinline)) calibration_cyg(void)
{
	__cyg_profile_func_enter((void *)calibration_cyg, __builtin_return_address(0));
	__asm__ volatile("" ::: "memory");
	__cyg_profile_func_exit((void *)calibration_cyg, __builtin_return_address(0));
}

/* The function whose calls go through the hooks the program calls. */
static void (*hooked_target(void))(void)
{
	uint32_t hooks = runtime_config.contract.hooks;

	if (runtime_config.contract.patch && !hooks && patch_calibration_target())
		return patch_calibration_target();
	if (hooks & CONTRACT_HOOKS_MCOUNT || !hooks)
		return callscope_calibration_mcount;
	if (hooks & CONTRACT_HOOKS_FENTRY)
		return callscope_calibration_fentry;
	return calibration_cyg;
}

/*
 * What reading the counters alone costs a call (two readings: entry and
 * exit), fastest batch, in clock units: so that `info` can say how much
 * of the hooks' cost is the counters'.
 */
static uint32_t counter_cost(struct thread_state *t)
{
	uint64_t best = UINT64_MAX;

	for (int batch = 0; batch < 7; batch++) {
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

/* The time the exits in [P, END) say their calls took: the stream's
 * exit deltas, as the analyzer reads them. */
static uint64_t stream_inner(const uint8_t *p, const uint8_t *end, uint32_t ncounters)
{
	uint64_t sum = 0, v, skip;

	while (p < end && stream_get_varint(&p, end, &v) == 0) {
		unsigned kind = (unsigned)(v & 3);
		if (kind == STREAM_EXIT)
			sum += v >> 2;
		else if (kind == STREAM_ENTRY)
			stream_get_varint(&p, end, &skip);
		else if ((v >> 2) == STREAM_FUNC_DEF) {
			stream_get_varint(&p, end, &skip);
			stream_get_varint(&p, end, &skip);
			continue;
		} else
			return sum;	/* nothing else is written here */
		for (uint32_t i = 0; i < ncounters; i++)
			stream_get_varint(&p, end, &skip);
	}
	return sum;
}

/* Points T, the calling thread's state, at the scratch buffers. */
static void use_scratch(struct thread_state *t, uint8_t *stream)
{
	memset(t, 0, sizeof(*t));
	thread_waits_none(t);
	t->status = THREAD_RECORDING;
	t->hdr = &scratch_header;
	t->win_base = t->cur = stream;
	t->end = stream + SCRATCH_STREAM;
	t->slots = scratch_slots;
	t->slot_mask = 63;
	t->next_id = 1;
	t->id_limit = 48;
	t->stack = scratch_stack;
	t->capacity = 16;
	t->fd = -1;
	t->capturing = 1;
	t->gen = 1;
	t->ring_end = (uint8_t *)UINTPTR_MAX;
	t->epoch = __atomic_load_n(&capture_state.epoch, __ATOMIC_ACQUIRE);
	t->reset_epoch = __atomic_load_n(&capture_state.reset_epoch, __ATOMIC_ACQUIRE);
	/* with counters, what a call costs is mostly reading them */
	if (runtime_config.contract.ncounters)
		counters_open(t);
	if (runtime_config.contract.count_nodes)
		aggregate_use(t, scratch_records, 32, scratch_cache, scratch_func_slots, 16);
}

/*
 * The calls of a batch come from four callers in an order no predictor
 * can learn, each a function that returns after FN does, as calls in a
 * program do: the way back out of the return trampoline then leads to a
 * different place from call to call, and a redirected return that put
 * the return predictions off would show in the caller's own return,
 * neither of which a loop calling FN from one place would see.  The
 * plain batches are made the same way, so only the hooks' part remains.
 */
typedef void (*calibration_fn)(void);
#define RELAY(name)                                                      \
	static __attribute__((noinline)) void name(calibration_fn fn) \
	{                                                                \
		fn();                                                    \
		__asm__ volatile("" ::: "memory"); /* not a tail call */ \
	}
RELAY(relay_0)
RELAY(relay_1)
RELAY(relay_2)
RELAY(relay_3)

static inline void call_from_callers(calibration_fn fn, uint32_t *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	switch ((*seed >> 16) & 3) {
	case 0: relay_0(fn); break;
	case 1: relay_1(fn); break;
	case 2: relay_2(fn); break;
	default: relay_3(fn); break;
	}
}

/* The fastest of BATCHES batches of calls of FN, in clock units; with
 * INNER, the recorded time of the fastest hooked batch's calls too. */
static uint64_t fastest_batch(struct thread_state *t, void (*fn)(void), uint64_t *inner)
{
	uint64_t best = UINT64_MAX;
	uint64_t paths_total = scratch_paths_total();

	for (int batch = 0; batch < BATCHES; batch++) {
		if ((size_t)(t->end - t->cur) < BATCH_BYTES) {
			t->cur = t->win_base;
			t->gen++;	/* the stream starts again: ids too */
			t->next_id = 1;
		}
		uint8_t *from = t->cur;
		uint32_t seed = 2463534242u;	/* the same order for both kinds */
		uint64_t start = runtime_now();
		for (int i = 0; i < CALLS_PER_BATCH; i++)
			call_from_callers(fn, &seed);
		uint64_t took = runtime_now() - start;
		/* the aggregate mode keeps no stream: its calls' time, the
		 * inner part, is summed in their path instead */
		uint64_t in = 0;
		if (t->nodes) {
			uint64_t after = scratch_paths_total();
			in = after - paths_total;
			paths_total = after;
		} else if (inner) {
			in = stream_inner(from, t->cur, t->ncounters);
		}
		if (took < best) {
			best = took;
			if (inner)
				*inner = in;
		}
	}
	return best;
}

/* The cost per call of a batch that took HOOKED, of which the calls
 * themselves recorded INNER, beside one without hooks that took PLAIN. */
static struct hook_cost_x256 per_call(uint64_t hooked, uint64_t inner, uint64_t plain)
{
	uint64_t total_x256 = (hooked > plain ? hooked - plain : 0) * 256 / CALLS_PER_BATCH;
	uint64_t in_x256 = inner * 256 / CALLS_PER_BATCH;

	if (in_x256 > total_x256)
		in_x256 = total_x256;
	uint64_t out = total_x256 - in_x256;
	return (struct hook_cost_x256){
		(uint32_t)(in_x256 > UINT32_MAX ? UINT32_MAX : in_x256),
		(uint32_t)(out > UINT32_MAX ? UINT32_MAX : out),
	};
}

void calibrate_overhead(struct hook_cost_x256 *hooks, struct hook_cost_x256 *library)
{
	struct thread_state *t = trace_current();
	struct thread_state saved = *t;
	uint64_t hooked_inner = 0, library_inner = 0, library_took = 0;
	uint8_t *stream = mmap(NULL, SCRATCH_STREAM, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	*hooks = *library = (struct hook_cost_x256){ 0, 0 };
	if (stream == MAP_FAILED)
		return;
	use_scratch(t, stream);
	uint64_t hooked = fastest_batch(t, hooked_target(), &hooked_inner);
	if (libcall_traced())
		library_took = fastest_batch(t, callscope_calibration_library, &library_inner);
	uint64_t plain = fastest_batch(t, callscope_calibration_plain, NULL);
	if (t->ncounters)
		runtime_config.counter_cost = counter_cost(t);
	counters_close(t);
	*t = saved;
	munmap(stream, SCRATCH_STREAM);

	*hooks = per_call(hooked, hooked_inner, plain);
	if (library_took)
		*library = per_call(library_took, library_inner, plain);
}

/* The main thread's times when the start's figure was measured (0 for
 * a forked child's thread, a new task), and that thread. */
static struct sched_times sched_at_start;
static pid_t sched_tid;
static int sched_known;
/* The start's figures were measured in this process, not taken from the
 * run's first measurement (a fork's parent, hook_cost_shared.c). */
static int measured_here;

static void use_figures(const struct hook_cost_figures *f)
{
	runtime_config.hook_inner_x256 = f->hooks.inner;
	runtime_config.hook_outer_x256 = f->hooks.outer;
	runtime_config.library_inner_x256 = f->library.inner;
	runtime_config.library_outer_x256 = f->library.outer;
	runtime_config.library_extra_inner_x256 =
		f->library.inner > f->hooks.inner ? f->library.inner - f->hooks.inner : 0;
	runtime_config.library_extra_outer_x256 =
		f->library.outer > f->hooks.outer ? f->library.outer - f->hooks.outer : 0;
	if (runtime_config.contract.ncounters)
		runtime_config.counter_cost = f->counter_cost;
}

void calibrate_at_start(const char *contract_text)
{
	struct hook_cost_figures f = { 0 };
	/* a patched image's calls cost what its own patched entries do */
	int shared = !runtime_config.contract.patch;
	uint64_t key = hook_cost_shared_key(contract_text, libcall_traced());

	if (!shared || hook_cost_shared_read(key, &f) != 0) {
		calibrate_overhead(&f.hooks, &f.library);
		f.counter_cost = runtime_config.counter_cost;
		measured_here = 1;
		if (shared)
			hook_cost_shared_write(key, &f);
	}
	use_figures(&f);
	/* a thread the scheduler has not yet accounted may say 0 ns */
	sched_known = process_sched_times(&sched_at_start) == 0;
	sched_tid = gettid();
}

void calibrate_after_fork(void)
{
	hook_samples_after_fork();
	sched_at_start = (struct sched_times){ 0, 0 };
	sched_tid = gettid();
	sched_known = 1;
	measured_here = 0;
}

/* A process that took the run's figures measures again at exit only when
 * its main thread ran this long: the batches' few milliseconds would
 * otherwise double what each of a build's short processes costs, and
 * its few calls are timed with the figure the run measured. */
#define EXIT_MEASURE_MIN_RUN_NS (100 * 1000000ull)

void calibrate_at_exit(void)
{
	const struct contract *c = &runtime_config.contract;
	struct sched_times ran = { 0, 0, 0, 0 };
	struct hook_cost_x256 hooks, library;

	if (c->sample_only || c->time_by_samples)
		return;
	/* before the measurement below, which is no part of the run; only
	 * the main thread's figures cover the run from its start */
	struct sched_times now;
	if (sched_known && gettid() == sched_tid && process_sched_times(&now) == 0) {
		if (now.cpu_ns > sched_at_start.cpu_ns && now.wait_ns >= sched_at_start.wait_ns) {
			ran.cpu_ns = now.cpu_ns - sched_at_start.cpu_ns;
			ran.wait_ns = now.wait_ns - sched_at_start.wait_ns;
		}
		struct thread_state *t = trace_current();
		ran.left_out = cpu_wait_left_out(t);
		ran.left_out_ns = t->waited_ns;
	}
	/* the thread is sampled no more (sampler_process_exiting()): no
	 * sample lands in the scratch stream, amid the batches */
	hook_samples_add_library_calls(trace_current());
	struct hook_sample_counts samples = hook_samples_counts();
	/* count mode took the start's figure off its per-call statistics in
	 * the program: its call paths' times must lose the same, so it is
	 * not measured again (the start's repeated, as a reader that does
	 * not know the flag saying so reads them right), but the section
	 * still carries the library calls' figures and count, and the waits;
	 * nor is it in a short process that took the run's figures */
	int again = !c->count_nodes &&
		    (measured_here || (ran.cpu_ns >= EXIT_MEASURE_MIN_RUN_NS));
	if (!again) {
		hooks = (struct hook_cost_x256){ runtime_config.hook_inner_x256,
						 runtime_config.hook_outer_x256 };
		library = (struct hook_cost_x256){ runtime_config.library_inner_x256,
						   runtime_config.library_outer_x256 };
	} else {
		calibrate_overhead(&hooks, &library);
	}
	process_write_calibration(hooks, library, again, ran, &samples);
}
