/*
 * Writers of the formats other tools read: gmon.out (GNU gprof),
 * callgrind.out (KCachegrind, callgrind_annotate), pprof's profile.proto,
 * Chrome trace event JSON (Perfetto, chrome://tracing) and folded stacks
 * (flame graph tools).  Each writer has its own file; docs/export.md says
 * what each one maps where.  They only read the model: the caller loads
 * the recording (cli/export_load.c) and opens the output.
 *
 * Every writer returns 0, or -1 when writing failed (errno set); it never
 * closes OUT.
 */
#ifndef CALLSCOPE_FORMATS_EXPORT_H
#define CALLSCOPE_FORMATS_EXPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model/cct.h"
#include "model/profile.h"

/* A loaded object, as recorded (the first process image that mapped it). */
struct export_object {
	const char *path;		/* borrowed */
	const uint8_t *build_id;	/* borrowed, may be empty */
	size_t build_id_len;
	uint64_t load_bias;		/* run-time address = link-time address + bias */
	uint64_t start, limit;		/* run-time range of its segments */
};

/* One thread's own call-path tree, numbered like the profile's functions. */
struct export_thread {
	uint32_t pid, tid;
	const struct cct *tree;
};

/* What the writers need to know about the run besides the profile. */
struct export_meta {
	const char *cmd;		/* the profiled command line, one string */
	const char *main_exe;		/* path of the main executable, or NULL */
	uint64_t unix_start_ns;		/* wall-clock start, ns since the epoch */
	const struct export_object *objects;
	size_t nobjects;
	/* a recording of timer samples without traced calls: the writers
	 * count each function's self_samples (and the tree's CCT_TIME holds
	 * samples), there are no calls or call arcs */
	int samples_only;
	/* when the caller built them: each thread's tree, for writers that
	 * label samples by thread (pprof) */
	const struct export_thread *threads;
	size_t nthreads;
	uint64_t runs;			/* runs in the recording: a sum's, or 1 */
};

/* The object record for PATH, or NULL. */
const struct export_object *export_meta_object(const struct export_meta *m, const char *path);

/*
 * gmon.out for GNU gprof: exact call counts as CG_ARC records, self times
 * as a histogram at prof_rate 1 MHz (1 us per bin count), functions of the
 * main executable at their link-time addresses.  Functions of other objects
 * are written at their run-time addresses, where gprof counts their time
 * in the total but cannot name them; one warning line says so.
 */
int gmon_write(FILE *out, const struct profile *p, const struct export_meta *m);

#define GMON_PROF_RATE 1000000u

/* callgrind.out: self cost per function, calls= lines with counts and
 * inclusive cost, in ns; fl= and line numbers where the DWARF told. */
int callgrind_write(FILE *out, const struct profile *p, const struct export_meta *m);

/* pprof: a gzip-compressed profile.proto with one sample per call path,
 * values [calls, self time in ns]. */
int pprof_write(FILE *out, const struct profile *p, const struct cct *t,
		const struct export_meta *m);
/* The same profile.proto, not compressed: malloc'd, the caller frees it. */
uint8_t *pprof_encode(const struct profile *p, const struct cct *t, const struct export_meta *m,
		      size_t *len);

enum folded_value {
	FOLDED_SELF_NS,		/* self time of the path's last function, ns */
	FOLDED_CALLS,		/* how often the path was entered */
};

/* Folded stacks: one "a;b;c VALUE" line per call path whose value is not 0. */
int folded_write(FILE *out, const struct profile *p, const struct cct *t,
		 enum folded_value v);

/*
 * Chrome trace event JSON, written while the recording is replayed: one
 * complete ("X") event per call, per thread.  NAMES numbers the functions
 * the calls give (borrowed; it may grow while the replay interns more).
 */
struct chrome_writer;
struct chrome_writer *chrome_writer_new(FILE *out, const struct profile *names);
void chrome_process_name(struct chrome_writer *w, uint32_t pid, const char *name);
void chrome_thread_begin(struct chrome_writer *w, uint32_t pid, uint32_t tid);
void chrome_enter(struct chrome_writer *w, uint32_t func, uint64_t time_ns);
void chrome_open_frame(struct chrome_writer *w, uint32_t func, uint64_t time_ns);
void chrome_exit(struct chrome_writer *w, uint64_t time_ns, enum exit_kind kind);
/* A mark (NUL-ended TEXT, or VALUE when TEXT is NULL) or a signal, as an
 * instant event of the current thread. */
void chrome_instant(struct chrome_writer *w, const char *what, uint64_t time_ns,
		    const char *text, uint64_t value);
void chrome_thread_end(struct chrome_writer *w, uint64_t end_ns);
/* Ends the document and frees W; returns 0, or -1 if writing failed. */
int chrome_writer_finish(struct chrome_writer *w);

/*
 * gzip: writes LEN bytes of DATA to OUT as one gzip member (RFC 1952).
 * Compressed with zlib when the tool is linked with it, else stored in
 * uncompressed deflate blocks, which every gzip reader accepts.
 */
int gzip_write(FILE *out, const uint8_t *data, size_t len);

#endif
