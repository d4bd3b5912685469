/*
 * The replay: each thread's calls in the order they happened, indented by
 * depth, with their start time and duration, and the marks, task switches,
 * stops and fatal signals at their places.  Built from load_replay()
 * through the visitor below, then printed with filters applied.
 */
#ifndef CALLSCOPE_REPORT_REPLAY_H
#define CALLSCOPE_REPORT_REPLAY_H

#include <stdint.h>
#include <stdio.h>

#include "load/load.h"
#include "model/profile.h"

struct replay_filter {
	int64_t max_depth;		/* -1: all */
	uint64_t min_duration_ns;	/* calls shorter are left out */
	uint64_t from_ns, to_ns;	/* start-time window; to_ns 0 = no end */
	int64_t function;		/* only this function's calls and what they call;
					 * an index into NAMES, -1: all */
	uint64_t last;			/* only the last N lines of each thread; 0 = all */
	int json;
};

struct replay;

/* Returns a new replay the caller frees with replay_free(); NAMES is the
 * function table the visitor's numbers refer to (borrowed). */
struct replay *replay_new(const struct profile *names);
void replay_free(struct replay *r);

/* Fills *V with callbacks that collect into R. */
void replay_visitor_init(struct replay *r, struct replay_visitor *v);

/*
 * Prints every thread collected.  ENDINGS, when not NULL, is called for a
 * thread whose process left no SIGNAL record, to say how it ended when it
 * did not exit (e.g. "killed by signal 9", "was replaced by exec"); it
 * returns NULL for an exit, or when it does not know.
 */
void replay_print(FILE *out, const struct replay *r, const struct replay_filter *f,
		  const char *(*ending)(void *ctx, uint32_t pid, uint32_t image), void *ctx);

#endif
