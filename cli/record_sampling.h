/*
 * record's sampling options (--sample, --freq, --sample-clock, --only) and
 * the choice between tracing and sampling: a program with hooks is traced
 * (and sampled too with --sample), one without is sampled.
 */
#ifndef CALLSCOPE_CLI_RECORD_SAMPLING_H
#define CALLSCOPE_CLI_RECORD_SAMPLING_H

#include <stdint.h>

#include "contract.h"
#include "sampling.h"

struct record_sampling {
	int asked;		/* --sample */
	uint32_t hz;
	int wall;
	const char *only;	/* borrowed from argv, or NULL */
	int explicit_option;	/* --freq, --sample-clock, --only or --stack was given */
	int dwarf;		/* --stack=dwarf */
	int timer;		/* --sample-source=timer */
};

/* Parse --freq and --sample-clock; a bad value is a usage error. */
uint32_t record_sampling_hz(const char *s);
int record_sampling_clock(const char *s);
/* Parses --stack: returns 1 for dwarf, 0 for fp. */
int record_sampling_stack(const char *s);
/* Parses --sample-source: returns 1 for timer, 0 for perf. */
int record_sampling_source(const char *s);

/*
 * Decides whether PROG (HAS_HOOKS: it carries profiling hooks) is sampled,
 * says so on stderr, and returns the CALLSCOPE_SAMPLE value as a malloc'd
 * string the caller frees, or NULL when it is not sampled.  Dies with one
 * line when the options do not go together.
 */
char *record_sampling_choose(const struct record_sampling *rs, const char *prog, int has_hooks,
			     const struct contract *c);

#endif
