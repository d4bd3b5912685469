/*
 * The in-memory profile: functions, call arcs and threads, built by
 * replaying each thread's entries and exits.  No I/O here: the loader
 * (load/load.c) reads the file, resolves addresses to functions with the
 * symbolizer, and calls the profile_* builder functions below; reports and
 * exporters only read the result.
 *
 * The numbers, per function F:
 *   calls        activations of F (calls that began in the recorded stream)
 *   self_ns      time in F itself, summed over all its activations
 *   total_ns     time in F and its callees, counting only outermost
 *                activations: a recursive F never counts a nested
 *                activation twice, so total_ns <= the thread's wall time
 *   min/max_ns   the shortest and longest single activation (inclusive)
 *   sum_call_ns  inclusive time summed over every activation (for avg)
 *   continued_ns time of F's outermost activations that were no calls: open
 *                where their thread's data begins (a forked child's
 *                inherited frames, a capture resumed, a flight ring); in
 *                total_ns, not in calls nor sum_call_ns; continued_self_ns
 *                likewise the part of self_ns, so that self/call and
 *                total/call both describe whole calls
 * Every time has the hooks' measured cost subtracted: each activation loses
 * the part of its own hooks that fell inside it ("inner") and every call it
 * (transitively) made loses both parts.
 *
 * Per arc P -> C: count is the number of calls; self_ns and child_ns are
 * C's self and descendant time during C's outermost activations called
 * from P, so summing them over C's callers gives C's self and total.
 */
#ifndef CALLSCOPE_MODEL_PROFILE_H
#define CALLSCOPE_MODEL_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "contract.h"
#include "sampling.h"
#include "model/unhooked.h"

#define FUNC_NONE UINT32_MAX	/* the caller of a thread's outermost calls */

struct aggregate_thread;

struct func {
	char *name;		/* owned; as a reader knows it (C++ demangled) */
	char *symbol;		/* owned; the linkage name, as in the object's
				 * symbol table (what linkers and ELF lookups
				 * need); the same text as name for C */
	char *object;		/* owned; path of the object, may be "" */
	char *file;		/* owned; source file of the start, or NULL */
	int line;
	uint64_t addr;		/* link-time start address in its object */
	uint64_t size;		/* bytes, 0 if unknown */

	uint64_t calls;
	uint64_t self_ns;
	uint64_t total_ns;
	uint64_t min_ns;
	uint64_t max_ns;
	uint64_t sum_call_ns;
	uint64_t continued_ns;
	uint64_t continued_self_ns;
	/* the calls total_ns lost the hooks' cost of: its outermost
	 * activations and every call made under them */
	uint64_t calls_within;
	uint64_t virtual_returns;	/* activations still open at the end */
	uint64_t unwound;		/* activations closed by stack repair */
	uint64_t thrown;		/* of those, the ones an exception left */

	/* record -e: counter C (0 or 1) in the function itself and in its
	 * outermost activations with callees, like self_ns and total_ns;
	 * counters_unreliable when a thread's counter was time-shared, or a
	 * hook's reading was taken while a signal handler interrupted it */
	uint64_t counter_self[CONTRACT_COUNTERS_MAX];
	uint64_t counter_total[CONTRACT_COUNTERS_MAX];
	int counters_unreliable;
	/* report --untimed: counted, not timed; its self time went to its
	 * callers (profile_untime_short()) */
	int untimed;

	int cycle;		/* cycle number (1-based) or 0; set by profile_find_cycles() */

	/* Spread of the inclusive time per call, kept as exact integer sums
	 * of the deviations from the first call's time (and of their
	 * squares): shifting by a typical value keeps a small spread beside
	 * a large mean precise, and integers cost no division and no
	 * floating-point latency per call; see func_stddev_ns(). */
	uint64_t call_shift_ns;
	uint64_t dev_calls;	/* calls in the two sums */
	__int128 call_dev_sum;
	unsigned __int128 call_dev_sq_sum;
	/* The period: from the start of one call to the start of the next
	 * call of the same function on the same thread, hooks' cost
	 * subtracted like every time.  periods counts the intervals. */
	uint64_t periods;
	uint64_t period_min_ns;	/* UINT64_MAX while periods is 0 */
	uint64_t period_max_ns;
	uint64_t period_sum_ns;

	/* record --sample (model/samples.h): samples with F innermost, and
	 * samples with F anywhere on the stack (once per sample, however
	 * often F recurses), each weighted by the timer periods it stands for */
	uint64_t self_samples;
	uint64_t samples;
};

struct arc {
	uint32_t caller;	/* FUNC_NONE: spontaneous */
	uint32_t callee;
	uint64_t count;
	uint64_t self_ns;
	uint64_t child_ns;
	/* where the caller calls the callee: the return address of its
	 * first direct call to it (link-time, in the caller's object), or 0
	 * when unknown; only the gmon.out export looks for it */
	uint64_t site;
	/* an arc found in the code (graph --static) that never ran and is
	 * only a tail call there: the caller jumps to the callee */
	int static_tail;
};

/*
 * A caller -> callee pair seen on sampled stacks (record --sample), apart
 * from the traced arcs so that call counts stay exact: samples counts
 * the samples with CALLER directly above CALLEE (once per sample however
 * often the pair recurs in it), self_samples those with CALLEE innermost.
 * CALLER is FUNC_NONE for a stack's outermost function.
 */
struct sample_arc {
	uint32_t caller;
	uint32_t callee;
	uint64_t samples;
	uint64_t self_samples;
};

struct thread_info {
	uint32_t pid;
	uint32_t image;
	uint32_t tid;
	uint32_t flags;		/* enum thread_flags of common/sections.h */
	uint64_t start_ns;	/* relative to the session start */
	uint64_t end_ns;
	uint64_t events;
	uint64_t lost_events;
	uint64_t overwritten_events;	/* flight recorder: older events the ring dropped */
	uint32_t counter_info;	/* THREAD_COUNTERS_* of common/sections.h */
	uint64_t calls;
	int hooks_in_place;	/* the hooks' cost subtracted was measured in
				 * place: short calls are summed below 0
				 * (model/hook_cost.h) */
};

struct cycle {
	uint32_t *members;	/* function indices, owned */
	size_t nmembers;
	uint64_t calls;		/* calls into the cycle from outside */
	uint64_t internal_calls;	/* calls between members */
	uint64_t self_ns;	/* sum of members' self */
	uint64_t total_ns;	/* self + time in callees outside the cycle */
};

struct profile {
	struct func *funcs;
	size_t nfuncs, funcs_alloc;
	struct arc *arcs;
	size_t narcs, arcs_alloc;
	struct thread_info *threads;
	size_t nthreads, threads_alloc;
	struct cycle *cycles;
	size_t ncycles;

	uint64_t lost_events;
	uint64_t overwritten_events;
	uint64_t calls;
	/* record -e: how many counters, and their names (owned) */
	size_t ncounters;
	char *counter_names[CONTRACT_COUNTERS_MAX];
	uint64_t overhead_ns;	/* hook cost subtracted, in all */
	uint64_t overhead_q;	/* the same in 1/256 ns, as it is summed */
	/* of the calls, those told apart as library calls, and their part
	 * of overhead_q (their hooks cost more: load/hook_cost.h) */
	uint64_t library_calls, library_overhead_q;
	/* count mode timed by samples (--time-by=samples): the sampling
	 * period, the samples that timed the program, and those taken in
	 * the hooks, left out of every time */
	uint64_t time_sample_period_ns;
	uint64_t time_samples, time_hook_samples;
	/* how count-mode threads' samples (--time-by=samples', a sum's) were
	 * taken: their THREAD_SAMPLES_* flags of common/sections.h, together,
	 * and whether some thread with samples did not say (recorded before
	 * threads said) */
	uint32_t path_sample_clocks;
	int path_samples_unsaid;
	/* the hooks' cost taken off a call: over all calls, overhead_ns
	 * spread evenly (each thread's calls lose its process's figure);
	 * with no call yet, inner + outer of the last thread begun */
	double overhead_per_call_ns;
	/* where that figure comes from: the samples beside a trace that fell
	 * in the hooks (OVERHEAD_SAMPLES of them, one standard error of
	 * OVERHEAD_REL_ERROR of the figure) when OVERHEAD_IN_PLACE, else the
	 * calibration, OVERHEAD_CALIBRATED_NS (load/hook_cost.h) */
	int overhead_in_place;
	uint64_t overhead_samples;
	double overhead_rel_error, overhead_calibrated_ns;
	/* the figures per call apart, over all processes' calls as
	 * overhead_per_call_ns is: a compiler hook's, and a library call's,
	 * whose hooks cost more (0 when no library call was told apart) */
	double overhead_hook_ns, overhead_library_ns;
	/* a trace's processes' main threads ran RUN_CPU_NS and waited,
	 * runnable, RUN_WAIT_NS for a CPU, which the clock readings include
	 * (0, 0: not known), less RUN_WAIT_LEFT_OUT_NS their clocks left out;
	 * RUN_WAIT_UNSEEN_NS of it was that of main threads whose context
	 * switches the runtime could not see, all of it in the readings.  A
	 * thread whose switches it saw left out its preempted waits; the
	 * rest came as it woke from blocking, which stays with the blocked
	 * time in the call that blocked, or outside any call. */
	uint64_t run_cpu_ns, run_wait_ns, run_wait_left_out_ns, run_wait_unseen_ns;
	uint64_t wall_ns;	/* longest thread's span */

	/* Optional: called at the end of every counted activation with its
	 * inclusive time (hooks' cost subtracted), e.g. for a histogram of
	 * one function's call durations.  Set before the replay. */
	void (*call_observer)(void *ctx, uint32_t func, uint64_t total_ns);
	/* The same for a count-mode thread, whose program bucketed its calls
	 * itself: called with the thread (model/aggregate.h) once it is added. */
	void (*aggregate_observer)(void *ctx, const struct aggregate_thread *at);
	void *call_observer_ctx;
	/* Optional: set before the replay when nothing will read the spread
	 * of the call durations nor the periods between calls
	 * (func_stddev_ns(), periods, period_*): the replay then leaves them
	 * at zero, a sixth of its work per call. */
	int skip_spread;

	/* private: lookup tables */
	struct profile_index *index;

	/* record --sample: weighted samples in all; samples the threads could
	 * not write; samples whose PC was in no known object (counted in
	 * "<outside>" too); stacks that do not reach the thread's first
	 * frame; samples per stack method (enum sample_method); wall-clock
	 * ones */
	uint64_t samples;
	uint64_t samples_lost;
	uint64_t samples_outside;
	/* those of a trace's that fell in its hooks: their cost, counted by
	 * the processes (data_hook_samples) and left out of the samples */
	uint64_t samples_in_hooks;
	uint64_t samples_truncated;
	uint64_t samples_by_method[SAMPLE_METHODS];	/* by sample_method_of() */
	struct sample_arc *sample_arcs;
	size_t nsample_arcs, sample_arcs_alloc;
	int samples_wall;
	uint64_t samples_tick;	/* those from a tick-grained CPU timer (weighted) */
	/* those of CPU time in user space alone: the task-clock event where
	 * it could not count the kernel's time, or a recording before it
	 * did (weighted) */
	uint64_t samples_user_only;

	/* a trace's samples, split by whether hooks saw their time */
	struct unhooked unhooked;
};

/* Returns a new empty profile; free it with profile_free(). */
struct profile *profile_new(void);
void profile_free(struct profile *p);

/*
 * Returns the index of the function SYMBOL (its linkage name) in OBJECT,
 * adding it if new, shown as NAME.  Functions are identified by (object,
 * symbol, address): the same function seen from several processes or
 * threads is one entry, while two symbols that demangle alike (a C++
 * constructor's complete and base-object variants) stay two, and so do
 * two static functions of one name in one object.
 */
uint32_t profile_intern_symbol(struct profile *p, const char *symbol, const char *name,
			       const char *object, uint64_t addr, uint64_t size,
			       const char *file, int line);
/* The same for a function whose name is its symbol (C, or a synthesized
 * name such as "<signal 11>"). */
uint32_t profile_intern_func(struct profile *p, const char *name,
			     const char *object, uint64_t addr, uint64_t size,
			     const char *file, int line);

/* Returns the arc index of CALLER -> CALLEE, adding it if new. */
uint32_t profile_intern_arc(struct profile *p, uint32_t caller, uint32_t callee);
/* The same for the sampled pairs (struct sample_arc). */
uint32_t profile_intern_sample_arc(struct profile *p, uint32_t caller, uint32_t callee);

/*
 * Replay of one thread.  Times are nanoseconds since the session start and
 * must not decrease.  INNER_NS and OUTER_NS are the hooks' measured cost
 * per call (see above).  profile_thread_end() closes whatever is still open
 * at END_NS as virtual returns and frees the builder.
 */
struct thread_builder;
struct thread_builder *profile_thread_begin(struct profile *p,
					    const struct thread_info *info,
					    double inner_ns, double outer_ns);
void profile_enter(struct thread_builder *b, uint32_t func, uint64_t time_ns);
/* How a call ended. */
enum exit_kind {
	EXIT_RETURN = 0,
	EXIT_UNWOUND = 1,	/* closed by stack repair after a longjmp */
	EXIT_STOPPED = 2,	/* open when capture stopped or the stream ended */
	EXIT_THROWN = 3,	/* closed by stack repair after an exception */
};
void profile_exit(struct thread_builder *b, uint64_t time_ns, enum exit_kind kind);
/* A call already open when the stream began: closed, never counted. */
void profile_open_frame(struct thread_builder *b, uint32_t func, uint64_t time_ns);
/* The counters' current absolute values, for the next enter/exit/open. */
void profile_counters(struct thread_builder *b, const uint64_t values[CONTRACT_COUNTERS_MAX]);
/* Records that the thread's flight recorder ring dropped N older events. */
void profile_thread_overwritten(struct thread_builder *b, uint64_t n);
/* Current nesting depth of the replay. */
size_t profile_depth(const struct thread_builder *b);
/* The thread's LIBRARY_CALLS library calls cost LIBRARY_Q (ns << 8) more
 * than compiler hooks' calls, which the replay took off their times: the
 * overhead figures count it.  Before profile_thread_end(). */
void profile_thread_library_cost(struct thread_builder *b, uint64_t library_q,
				 uint64_t library_calls);
void profile_thread_end(struct thread_builder *b, uint64_t end_ns);

/*
 * Finds the cycles of the call graph (strongly connected components of
 * more than one function, self-arcs ignored), numbers them, sets
 * func.cycle and fills p->cycles.  Call once after all threads are built.
 */
void profile_find_cycles(struct profile *p);

/* Settles overhead_ns and overhead_per_call_ns once a thread's calls
 * have added their cost to overhead_q. */
void profile_overhead_summed(struct profile *p);

/*
 * Tells apart functions of one name (each program's `main` in a recording
 * of several, static functions of two files, a C++ destructor's variants):
 * each one's name gets a tag in brackets that the others' lack, "main
 * [make]" (model/homonyms.c has the order of choice).  Call once all
 * functions are in.
 */
void profile_name_homonyms(struct profile *p);

/* The population standard deviation of F's inclusive time per call. */
double func_stddev_ns(const struct func *f);

/*
 * Whether F's calls were timed one by one: shortest, longest, spread,
 * periods and histogram exist only then.  A count-mode run keeps them
 * only when asked (record --call-stats), one timed by samples never;
 * such a function has calls but no shortest call, and its views print
 * those numbers as unknown rather than as 0.
 */
static inline int func_calls_timed(const struct func *f)
{
	return !f->calls || f->min_ns != UINT64_MAX;
}

/* Whether some function of P has calls not timed one by one. */
int profile_has_untimed_calls(const struct profile *p);

/* F's average period (see struct func), 0 when there is none. */
uint64_t func_period_avg_ns(const struct func *f);

/*
 * Which functions' times the report cannot vouch for: DOUBTFUL_SELF where
 * the self time is less than three times what was taken from it as the
 * hooks' cost (of their own calls and of the calls they made), so that the
 * hooks' cost varying with the machine's state shows as a large part of
 * what is left; DOUBTFUL_TOTAL likewise for the total, which lost the
 * cost of every call beneath.  An array of p->nfuncs flags, to free;
 * *SHARE gets the hooks' part of the run (their cost over the run's
 * measured time plus it), 0 to 1.
 */
enum { DOUBTFUL_SELF = 1, DOUBTFUL_TOTAL = 2 };
unsigned char *profile_doubtful_times(const struct profile *p, double *share);

/*
 * TAU's throttling, applied to the numbers: a function called more than
 * MIN_CALLS times at under MAX_NS per call (inclusive) keeps its counts
 * and loses its times, its self time going to its callers' self times in
 * proportion to what it took under each (its arcs' times), so totals
 * stay whole.  Marks each such function untimed; returns how many.
 */
size_t profile_untime_short(struct profile *p, uint64_t min_calls, uint64_t max_ns);

#endif
