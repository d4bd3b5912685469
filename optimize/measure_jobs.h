/*
 * The job runner of callscope optimize --measure (see measure.h): the
 * variants (each binary at each code offset, relinked with padding by the
 * user's --relink command), the cachegrind runs over them, JOBS at a time,
 * and the runs counted by the CPU's own event.  It spawns processes and
 * probes perf; what the numbers say is measure_report.h's job.
 */
#ifndef CALLSCOPE_OPTIMIZE_MEASURE_JOBS_H
#define CALLSCOPE_OPTIMIZE_MEASURE_JOBS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "optimize/cachegrind.h"
#include "optimize/measure.h"

struct variant {
	size_t binary, offset;	/* indices into the options' lists */
	char *path;		/* owned */
	long moved;		/* bytes its binary's hottest function moved */
	int moved_known;
};

struct run {
	size_t variant;
	size_t cache;		/* index into the caches, or NO_CACHE: instructions only */
	char *out, *log;	/* owned paths */
	pid_t pid;
	int status;
	int done;
	struct cg_result result;
};

#define NO_CACHE ((size_t)-1)

struct measurement {
	const struct measure_options *o;
	char *dir;		/* scratch directory, owned */
	int hardware;
	struct variant *variants;
	size_t nvariants;
	struct run *runs;
	size_t nruns, runs_alloc;
};

/* Dies with what to install when valgrind cannot be run. */
void measure_require_valgrind(void);

/* 1 if L1-icache-load-misses counts here; else 0 with the reason in WHY. */
int measure_hardware_available(char *why, size_t len);

/* Makes M's scratch directory under $TMPDIR (or /tmp), or dies. */
void measure_scratch_make(struct measurement *m);

/* Makes every variant, relinking where an offset asks for padding. */
void measure_make_variants(struct measurement *m);

/* Adds a cachegrind run of VARIANT simulating cache CACHE (or NO_CACHE). */
struct run *measure_add_run(struct measurement *m, size_t variant, size_t cache);

/* Runs every cachegrind run and reads its output, or dies saying why. */
void measure_run_all(struct measurement *m);

/* Runs variant V o->repeat times with the CPU's counters on, each run's
 * misses into MISSES[rep]; dies if they cannot be counted. */
void measure_count_hardware(const struct measurement *m, size_t v, uint64_t *misses);

/* The last non-empty line of the log at PATH, malloc'd, for messages. */
char *measure_log_tail(const char *path);

/* Frees what M holds and removes its scratch directory. */
void measurement_release(struct measurement *m);

#endif
