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

struct load_filter {
	int64_t pid;		/* -1: every process */
	int64_t tid;		/* -1: every thread */
};

struct load_stats {
	uint64_t events;
	int salvaged;		/* a stream was damaged (its prefix was used), or a
				 * binary could not be trusted (its functions are
				 * shown as addresses) */
};

/* Parses the value of --pid or --tid; a bad one is a usage error. */
int64_t load_parse_id(const char *option, const char *value);

/* Returns a profile the caller frees with profile_free(). */
struct profile *load_profile(const struct data_file *df, const struct load_filter *f,
			     struct load_stats *stats);

/* Nanoseconds per clock unit of the recording. */
double load_ns_per_unit(const struct data_file *df);

/* Converts a clock value of the recording to ns since the session start. */
uint64_t load_time_ns(const struct data_file *df, uint64_t units);

#endif
