/*
 * record's sampling options (--sample, --freq, --sample-clock, --only) and
 * the choice between tracing and sampling: a program with hooks is traced
 * (and sampled too with --sample or --mode=both), one without is sampled;
 * --mode=sample samples either kind and leaves the hooks idle.
 */
#ifndef CALLSCOPE_CLI_RECORD_SAMPLING_H
#define CALLSCOPE_CLI_RECORD_SAMPLING_H

#include <stdint.h>

#include "contract.h"
#include "sampling.h"

/* What --mode asked for; flight and count are kinds of tracing. */
enum record_mode {
	RECORD_MODE_AUTO = 0,	/* no --mode, or flight/count: by the binary */
	RECORD_MODE_TRACE,	/* --mode=trace */
	RECORD_MODE_SAMPLE,	/* --mode=sample */
	RECORD_MODE_BOTH,	/* --mode=both */
};

/*
 * A thread's largest buffer chunk when a run only samples.  Every chunk
 * is reserved and faulted in up front (so a hook never takes a page
 * fault), and what a run leaves unused is freed again when it is sealed:
 * about 1.4 ms of CPU for each megabyte.  The runtime starts such a run
 * with the smallest chunk (64K) and doubles it up to this one; a sample
 * takes some 50 bytes with frame pointers and 400 bytes to 8K with a
 * stack copy.
 */
#define RECORD_SAMPLING_CHUNK (1u << 20)

struct record_sampling {
	enum record_mode mode;
	int asked;		/* --sample */
	uint32_t hz;
	int wall;
	const char *only;	/* borrowed from argv, or NULL */
	int explicit_option;	/* --freq, --sample-clock, --only or --stack was given */
	enum sampling_stack stack;	/* --stack */
	int timer;		/* --sample-source=timer */
};

/* Parse --freq and --sample-clock; a bad value is a usage error. */
uint32_t record_sampling_hz(const char *s);
int record_sampling_clock(const char *s);
/* Parses --stack: auto, fp or dwarf. */
enum sampling_stack record_sampling_stack(const char *s);
/* Parses --sample-source: returns 1 for timer, 0 for perf. */
int record_sampling_source(const char *s);

/*
 * Decides whether PROG (HAS_HOOKS: it carries profiling hooks) is sampled,
 * says so on stderr, and returns the sampler's settings (common/sampling.h,
 * carried in the contract) as a malloc'd string the caller frees, or NULL
 * when it is not sampled.  Dies with one
 * line when the options do not go together (tracing a program without
 * hooks, sampling with flight or count).
 */
char *record_sampling_choose(const struct record_sampling *rs, const char *prog, int has_hooks,
			     const struct contract *c);

/* Whether PROG's hooks must be left idle: --mode=sample on a program
 * that has them. */
int record_sampling_idle_hooks(const struct record_sampling *rs, int has_hooks);

#endif
