/*
 * The launcher <-> runtime contract.  `callscope record` describes the run
 * in one environment variable, CALLSCOPE_CONTRACT, and the runtime parses it
 * with contract_parse(), the only place that reads it.  The text is
 *
 *     v=1;chunk=BYTES;clock=tsc|mono[;ring=BYTES][;start=ADDR+SIZE]
 *     [;stop=ADDR+SIZE,...][;onepass=1][;ev=TYPE:CONFIG,...][;count=NODES][;stopped=1]
 *     [;sample=1][;patch=1][;hooks=BITS][;timeby=samples][;live=start|never]
 *     [;smp=LEN:SETTINGS];dir=PATH
 *
 * ring selects the flight recorder (each thread keeps its last BYTES of
 * events).  start/stop are trigger functions of the main executable as
 * link-time address + size in hex.  ev names up to two perf_event counters
 * (decimal type, hex config) read at every entry and exit.  sample says
 * the run is sampled only (the program has no hooks), which the control
 * socket reports as its mode.  patch says the runtime patches function
 * entries from the plan the launcher wrote in dir.  hooks says which compiler hooks the
 * program calls (CONTRACT_HOOKS_* bits), so the runtime measures their
 * cost through the same ones.  timeby=samples (with count) makes the
 * hooks only count calls, time coming from the sampler.  live says when
 * the control socket and its thread start (enum contract_live; left out,
 * at the program's first thread).  smp turns the
 * sampler on with SETTINGS, LEN bytes in common/sampling.h's syntax
 * (which has ';' of its own, hence the length).  dir comes last and runs
 * to the end of the string, so a path may hold ';'.
 */
#ifndef CALLSCOPE_COMMON_CONTRACT_H
#define CALLSCOPE_COMMON_CONTRACT_H

#include <stddef.h>
#include <stdint.h>

#include "sampling.h"

#define CONTRACT_ENV "CALLSCOPE_CONTRACT"
/* record --log=FILE: the runtime appends its warnings to FILE (an
 * absolute path) instead of writing them on the program's stderr */
#define CONTRACT_LOG_ENV "CALLSCOPE_LOG"
/*
 * The image mark: which recorded process image this environment belongs
 * to, so that the image an exec starts knows the one it replaced (exec
 * keeps the pid; the new image's runtime writes the old one's PROCESS_END
 * with reason exec).  `callscope record` sets it to IMAGE_MARK_NONE; each
 * image's runtime overwrites the value in place, in the environment's own
 * string, with its pid and image number, as a child of fork() does in its
 * copy.  In place, because a program may exec with the environment main()
 * was given, which a setenv() would have left behind, and because a fork
 * child must not allocate.  The value is IMAGE_MARK_LEN characters: the
 * pid and the image, each in 10 decimal digits, joined by '.'.
 */
#define IMAGE_ENV "CALLSCOPE_IMAGE"
#define IMAGE_MARK_NONE "0000000000.0000000000"
#define IMAGE_MARK_LEN 21
#define CONTRACT_VERSION 1
#define CONTRACT_PATH_MAX 3072

/* Bytes a thread buffer grows by; a window of this size is mapped at once. */
#define CONTRACT_CHUNK_DEFAULT (8u << 20)
#define CONTRACT_CHUNK_MIN (64u << 10)
#define CONTRACT_CHUNK_MAX (1u << 30)

enum contract_clock {
	CONTRACT_CLOCK_TSC = 0,	/* rdtsc ticks, converted offline */
	CONTRACT_CLOCK_MONO = 1,	/* CLOCK_MONOTONIC nanoseconds */
};

#define CONTRACT_RING_MIN (64u << 10)
#define CONTRACT_RING_MAX (1u << 30)
#define CONTRACT_STOPS_MAX 16

/*
 * When a recorded process gets its control socket and the thread that
 * serves it (runtime/control.c says why a program that starts no thread
 * of its own gets none of ours by default).
 */
enum contract_live {
	CONTRACT_LIVE_WHEN_THREADED = 0,	/* at the program's first pthread_create */
	CONTRACT_LIVE_AT_START = 1,	/* record --live: before main() */
	CONTRACT_LIVE_NEVER = 2,	/* record --no-live */
};

/* A function of the main executable: [addr, addr + size) link-time. */
struct contract_range {
	uint64_t addr;
	uint64_t size;
};

#define CONTRACT_COUNTERS_MAX 2
/* The sampler's settings text: every field of common/sampling.h at once. */
#define CONTRACT_SAMPLING_MAX (SAMPLING_ONLY_MAX + 128)
#define CONTRACT_NODES_MIN 64
#define CONTRACT_NODES_MAX (1u << 24)

/* The compiler hooks a program calls (contract field hooks). */
#define CONTRACT_HOOKS_MCOUNT 1u	/* -pg */
#define CONTRACT_HOOKS_FENTRY 2u	/* -pg -mfentry */
#define CONTRACT_HOOKS_CYG 4u	/* -finstrument-functions */

/* A perf_event counter: perf_event_attr's type and config. */
struct contract_counter {
	uint32_t type;
	uint64_t config;
};

struct contract {
	uint32_t version;
	uint32_t chunk_bytes;
	uint32_t ring_bytes;	/* 0: full trace; else flight recorder ring size */
	enum contract_clock clock;
	int has_start;
	struct contract_range start;
	uint32_t nstops;
	struct contract_range stops[CONTRACT_STOPS_MAX];
	int one_pass;
	uint32_t ncounters;
	struct contract_counter counters[CONTRACT_COUNTERS_MAX];
	uint32_t count_nodes;	/* 0: events; else aggregate mode with this many nodes */
	int start_stopped;	/* record --start-stopped: capture begins off */
	int sample_only;	/* sampled only: the program has no hooks */
	int patch;		/* function entries are patched from the plan
				 * PATCH_PLAN_FILE in dir (patch_plan.h) */
	uint32_t hooks;		/* CONTRACT_HOOKS_* bits; 0: not known */
	int time_by_samples;	/* count mode timed by the sampler, not the clock */
	enum contract_live live;	/* when the control socket starts */
	int call_stats;		/* count mode keeps each function's per-call
				 * statistics (record --call-stats) */
	/* the sampler's settings (common/sampling.h), checked by
	 * sampling_parse(); "": the sampler stays off */
	char sampling[CONTRACT_SAMPLING_MAX];
	char dir[CONTRACT_PATH_MAX];	/* staging directory the runtime writes */
};

/*
 * Parses TEXT into *OUT.  Returns 0, or -1 with *WHY pointing at a static
 * string that says what was wrong.  Uses no allocation (the runtime calls
 * it from a constructor).
 */
int contract_parse(const char *text, struct contract *out, const char **why);

/* Formats C into BUF (SIZE bytes).  Returns 0, or -1 if it does not fit. */
int contract_format(const struct contract *c, char *buf, size_t size);

/* Reads the image mark VALUE (an environment string's value) into *PID
 * and *IMAGE (pid 0: no image wrote it yet).  Returns 0, or -1 when VALUE
 * is not a mark. */
int image_mark_parse(const char *value, uint32_t *pid, uint32_t *image);

/* Writes PID and IMAGE over the IMAGE_MARK_LEN characters of the mark at
 * VALUE, which image_mark_parse() accepted; no allocation, no terminator
 * moved. */
void image_mark_write(char *value, uint32_t pid, uint32_t image);

#endif
