/*
 * From a data file to a profile: decode each selected thread's stream,
 * convert clock units to nanoseconds, resolve addresses to functions with
 * the symbolizer, and replay into the model.  Shared by every command that
 * reads a recording.
 */
#ifndef CALLSCOPE_CLI_LOAD_H
#define CALLSCOPE_CLI_LOAD_H

#include <stdint.h>

#include "formats/native.h"
#include "model/profile.h"

/* What to do with the time a signal handler ran ("<signal N>" calls). */
enum signal_filter {
	SIGNAL_SEPARATE = 0,	/* show it as a call "<signal N>" (the default) */
	SIGNAL_EXCLUDE,		/* leave it out: the interrupted call did not spend it */
	SIGNAL_NONE,		/* no "<signal N>" node: the handler's calls nest
				 * under the interrupted call */
};

struct load_filter {
	int64_t pid;		/* -1: every process */
	int64_t tid;		/* -1: every thread */
	/* nonzero: only threads of process image IMAGE (an exec starts a new
	 * image with the same pid and tid) */
	int by_image;
	uint32_t image;
	enum signal_filter signals;
};

/* Parses the value of --signal-filter; a bad one is a usage error. */
enum signal_filter load_parse_signal_filter(const char *value);

struct load_stats {
	uint64_t events;
	uint64_t marks;		/* MARK and MARK_STR */
	uint64_t tasks;
	uint64_t signals;
	uint64_t stops;
	int salvaged;		/* a stream was damaged (its prefix was used), or a
				 * binary could not be trusted (its functions are
				 * shown as addresses) */
};

/*
 * What load_replay() calls for each selected thread, in stream order.
 * Function numbers index the function table of the NAMES profile given to
 * load_replay(); times are ns since the session start and never decrease.
 * thread_end() gets the time at which calls still open are to be closed.
 */
enum replay_note_kind {
	NOTE_MARK,		/* value */
	NOTE_MARK_STR,		/* text, text_len */
	NOTE_TASK,		/* value: task id */
	NOTE_SIGNAL,		/* value: the fatal signal */
	NOTE_STOP,		/* capture stopped (open calls were just closed) */
	NOTE_OVERWRITTEN,	/* value: events the flight recorder's ring dropped
				 * before the part that was kept; sent once, just
				 * before thread_end */
};

struct replay_note {
	enum replay_note_kind kind;
	uint64_t time_ns;
	uint64_t value;
	const char *text;	/* borrowed, not NUL-ended */
	size_t text_len;
	uint32_t func;		/* the innermost open call, or FUNC_NONE */
};

/*
 * One sample of the statistical profiler (record --sample): the stack at
 * the moment a thread's timer fired, innermost first.  FUNCS[0] holds the
 * PC; the others the return addresses of the frame-pointer walk, cut
 * where an address lies in no known object (a broken walk).
 */
struct replay_sample {
	uint64_t time_ns;
	uint64_t weight;	/* timer periods it stands for (1 + overrun) */
	uint64_t missed;	/* samples the thread lost just before it */
	uint64_t flags;		/* enum sample_flags of common/sampling.h */
	const uint32_t *funcs;	/* borrowed, valid during the call */
	const uint64_t *addrs;	/* runtime addresses: the PC, then returns */
	size_t n;		/* at least 1: the PC */
	int outside;		/* the PC lies in no known object (JIT, vdso):
				 * FUNCS[0] is "<outside>" and n is 1 */
	const char *file;	/* with sample_lines: the PC's source file or NULL */
	int line;
};

/* What a replay hands each event to; a callback left NULL is not wanted. */
struct replay_visitor {
	void *ctx;
	void (*thread_begin)(void *ctx, const struct thread_info *info, double inner_ns,
			     double outer_ns);
	void (*enter)(void *ctx, uint32_t func, uint64_t time_ns);
	void (*open_frame)(void *ctx, uint32_t func, uint64_t time_ns);
	/* KIND is an enum exit_kind (model/profile.h); a STOP closes every
	 * open call with EXIT_STOPPED before its note */
	void (*exit)(void *ctx, uint64_t time_ns, int kind);
	void (*thread_end)(void *ctx, uint64_t end_ns);
	/* optional: marks, signals, stops, ring losses */
	void (*note)(void *ctx, const struct replay_note *note);
	/* optional, for recordings with counters (record -e): their
	 * absolute values, given just before each enter, open_frame and exit */
	void (*counters)(void *ctx, const uint64_t values[CONTRACT_COUNTERS_MAX]);
	/* optional: each sample (record --sample); with sample_lines set,
	 * the PC's file and line are looked up too (slower) */
	void (*sample)(void *ctx, const struct replay_sample *s);
	int sample_lines;
	/* optional: where each sample of a trace fell (OBJECT is the PC's
	 * object, "" outside all): in hooked code, inside a traced library
	 * call, or in neither.  Samples taken only for this (record's
	 * --outside-freq) reach nothing else. */
	void (*unhooked)(void *ctx, const char *object, enum unhooked_kind kind,
			 uint64_t weight);
	/* optional, just before thread_end: what the thread's library calls
	 * cost more than compiler hooks' calls (ns << 8), taken off their
	 * times already, for profile_thread_library_cost() */
	void (*library_cost)(void *ctx, uint64_t library_q, uint64_t library_calls);
};

/*
 * Replays the threads F selects into V, interning every function met into
 * NAMES (whose numbers stay untouched unless V itself builds them).
 */
void load_replay(const struct data_file *df, const struct load_filter *f,
		 struct profile *names, const struct replay_visitor *v,
		 struct load_stats *stats);

/*
 * A sum's timer samples by path and PC (merge's SUM_PCS section), as the
 * samples of a run: V's thread_begin, then sample for each (its stack the
 * path's functions, innermost first, ADDRS[0] the PC and the others the
 * functions' addresses; no time, flags or misses), then thread_end.  So
 * the reports of lines and instructions, which load_replay() feeds, read
 * a sum too; nothing happens for a recording without the section.  A
 * record naming a path the thread does not hold leaves the rest out with
 * a warning (STATS->salvaged).
 */
void load_sum_samples(const struct data_file *df, const struct load_filter *f,
		      struct profile *names, const struct replay_visitor *v,
		      struct load_stats *stats);

/*
 * Aggregate-mode threads (record --mode=count) hold call paths and
 * per-function sums, not events: load_replay() passes them by, and
 * load_aggregates() hands each selected one to FN (functions interned
 * into NAMES).
 */
struct aggregate_thread;
typedef void (*aggregate_fn)(void *ctx, const struct thread_info *info,
			     const struct aggregate_thread *at);
void load_aggregates(const struct data_file *df, const struct load_filter *f,
		     struct profile *names, aggregate_fn fn, void *ctx,
		     struct load_stats *stats);

/*
 * load_aggregates() of every thread without symbols: each function
 * address of thread TH is named by FUNC_OF(CTX, TH, ADDR), whatever
 * numbering it returns (<truncated> is CCT_TRUNCATED_ADDR), and FN gets
 * the thread with its hooks' cost in AT as load_aggregates() gives it.
 */
typedef uint32_t (*load_addr_fn)(void *ctx, const struct data_thread *th, uint64_t addr);
void load_aggregates_by_address(const struct data_file *df, load_addr_fn func_of,
				aggregate_fn fn, void *ctx, struct load_stats *stats);

/* Parses the value of --pid or --tid; a bad one is a usage error. */
int64_t load_parse_id(const char *option, const char *value);

/*
 * Adds the recorded object O to the symbolizer ST at BIAS: its load bias
 * to look up runtime addresses, 0 for link-time ones.  Returns what
 * symtab_add_object() does.
 */
struct symtab;
int load_symtab_add(struct symtab *st, const struct data_object *o, uint64_t bias);

/* Returns a profile the caller frees with profile_free(). */
struct profile *load_profile(const struct data_file *df, const struct load_filter *f,
			     struct load_stats *stats);
/* The same into P, new and empty but for its observers (model/profile.h). */
void load_profile_into(struct profile *p, const struct data_file *df,
		       const struct load_filter *f, struct load_stats *stats);
/*
 * Into P, what the selected processes record beside their events, which a
 * replay does not carry: the samples in the hooks, the run's CPU time and
 * waits, where the hooks' cost figure came from.  Every profile built
 * from a replay takes them once, for its header's lines.
 */
void load_process_figures(const struct data_file *df, const struct load_filter *f,
			  struct profile *p);

/* load_path.c: whether PATH is a CodeScape .prf file (by its ID string). */
int load_path_is_prf(const char *path);
/*
 * The profile in PATH, a recording (all its threads) or a .prf file; dies
 * with one line when it cannot be read.  Sets *SALVAGED when damage was
 * worked around.  The caller frees it with profile_free().
 */
struct profile *load_profile_path(const char *path, int *salvaged);
/*
 * The profile of the .prf file PATH and, with TREE not NULL, its
 * calling-context tree; dies with one line when it cannot be read.  The
 * caller frees both.
 */
struct cct;
struct profile *load_prf_tree(const char *path, struct cct **tree);

/* Nanoseconds per clock unit of the recording. */
double load_ns_per_unit(const struct data_file *df);

/* Converts a clock value of the recording to ns since the session start. */
uint64_t load_time_ns(const struct data_file *df, uint64_t units);

#endif
