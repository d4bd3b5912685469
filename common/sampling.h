/*
 * The sampler's part of the launcher <-> runtime contract (statistical
 * profiling, runtime/sampler.c).  `callscope record` asks for sampling with
 * these settings in the contract's smp field (common/contract.h):
 *
 *     hz=HZ;clock=cpu|wall[;stack=auto|fp|dwarf][;source=timer]
 *     [;only=NAME,...][;bg=1]
 *
 * hz is the sampling frequency per thread (1 to SAMPLING_HZ_MAX); clock
 * cpu samples each thread's own CPU time, wall its elapsed time (blocked
 * threads too); only keeps samples whose PC lies in one of the named
 * objects (matched against the file name of each object loaded at
 * start-up).  stack=dwarf copies the top SAMPLING_COPY_MAX bytes of the
 * stack with the registers the DWARF unwinder starts from, for binaries
 * built without frame pointers; fp walks the frame pointers; auto (the
 * default) walks them where the code keeps them, then the objects' call
 * frame information in the handler, and copies the stack from where
 * neither can go on (see runtime/sampler.c).
 * source=timer measures CPU time with a POSIX CPU-time timer even where a
 * perf_event task-clock counter could be had.  bg=1 samples in the
 * background of a trace, only to measure the time spent in code without
 * hooks: the PC alone, flagged SAMPLE_BACKGROUND, which no profile shows
 * as samples.  Without the settings the sampler stays off.
 *
 * The record it writes (STREAM_SAMPLE, see common/stream.h) has these
 * flags.
 */
#ifndef CALLSCOPE_COMMON_SAMPLING_H
#define CALLSCOPE_COMMON_SAMPLING_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SAMPLING_HZ_DEFAULT 999
#define SAMPLING_HZ_MAX 100000
#define SAMPLING_ONLY_MAX 512	/* bytes of the only= list */
#define SAMPLING_STACK_MAX 127	/* frames a sample carries at most */
#define SAMPLING_COPY_MAX 8192	/* stack bytes a dwarf sample carries at most */

enum sample_flags {
	SAMPLE_WALL = 1 << 0,		/* taken by the wall clock, not CPU time */
	/* the stack does not reach the thread's first frame: the walk
	 * stopped at SAMPLING_STACK_MAX or at a frame pointer that led
	 * nowhere (DWARF samples: set by the unwinder offline) */
	SAMPLE_TRUNCATED = 1 << 1,
	/* bits 2-3: how the stack was found */
	SAMPLE_METHOD_SHIFT = 2,
	SAMPLE_METHOD_MASK = 3 << 2,
	/* CPU time by a POSIX CPU-time timer (perf events not allowed):
	 * samples come at the scheduler tick, weighted by the overrun */
	SAMPLE_TICK_TIMER = 1 << 4,
	/* taken beside a trace to tell hooked time from the rest (bg=1) */
	SAMPLE_BACKGROUND = 1 << 5,
	/* (FP and FP_DWARF methods) frames were found in the handler by the
	 * objects' call frame information, beyond any frame-pointer walk */
	SAMPLE_CFI = 1 << 6,
	/* CPU time by the task-clock event, the kernel's time on the
	 * thread's behalf counted (without it, user time alone; the tick
	 * timer's samples count both) */
	SAMPLE_SYSTEM_TIME = 1 << 7,
};

enum sample_method {
	SAMPLE_METHOD_PC = 0,		/* the PC alone, no stack */
	SAMPLE_METHOD_FP = 1,		/* frame-pointer walk in the handler */
	/* a copy of the stack from the stack pointer, unwound offline with
	 * the binaries' DWARF call frame information: after the return
	 * addresses come varint sp, varint bp, varint length, the bytes */
	SAMPLE_METHOD_DWARF = 2,
	/* the frame-pointer walk as far as the code keeps frame pointers,
	 * then a DWARF copy as above whose sp and bp are those of the
	 * outermost return address's caller: unwound offline from there */
	SAMPLE_METHOD_FP_DWARF = 3,
};

/* The methods a report counts samples by: the four above, then FP and
 * FP_DWARF with SAMPLE_CFI. */
enum { SAMPLE_METHOD_CFI = 4, SAMPLE_METHOD_CFI_DWARF = 5, SAMPLE_METHODS = 6 };

static inline unsigned sample_method_of(uint64_t flags)
{
	unsigned m = (unsigned)((flags & SAMPLE_METHOD_MASK) >> SAMPLE_METHOD_SHIFT);

	if (!(flags & SAMPLE_CFI))
		return m;
	return m == SAMPLE_METHOD_FP_DWARF ? SAMPLE_METHOD_CFI_DWARF
	       : m == SAMPLE_METHOD_FP ? SAMPLE_METHOD_CFI : m;
}

/* How the sampler finds a sample's callers. */
enum sampling_stack {
	SAMPLING_STACK_AUTO = 0,	/* frame pointers where kept, else the call
					 * frame information, else a copy */
	SAMPLING_STACK_FP,
	SAMPLING_STACK_DWARF,
};

struct sampling {
	uint32_t hz;
	int wall;
	enum sampling_stack stack;
	int timer;
	int background;
	char only[SAMPLING_ONLY_MAX];	/* comma-separated names, or "" */
};

/*
 * Parses TEXT into *OUT.  Returns 0, or -1 with *WHY set to a static
 * string.  No allocation: the runtime calls it from its constructor.
 */
static inline int sampling_parse(const char *text, struct sampling *out, const char **why)
{
	const char *p = text;

	memset(out, 0, sizeof(*out));
	out->hz = SAMPLING_HZ_DEFAULT;
	while (*p) {
		const char *end = strchr(p, ';');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		if (!strncmp(p, "hz=", 3)) {
			char *stop;
			unsigned long v = strtoul(p + 3, &stop, 10);
			if (stop != p + len || v < 1 || v > SAMPLING_HZ_MAX) {
				*why = "bad hz";
				return -1;
			}
			out->hz = (uint32_t)v;
		} else if (len == 9 && !strncmp(p, "clock=cpu", 9)) {
			out->wall = 0;
		} else if (len == 10 && !strncmp(p, "clock=wall", 10)) {
			out->wall = 1;
		} else if (len == 10 && !strncmp(p, "stack=auto", 10)) {
			out->stack = SAMPLING_STACK_AUTO;
		} else if (len == 8 && !strncmp(p, "stack=fp", 8)) {
			out->stack = SAMPLING_STACK_FP;
		} else if (len == 11 && !strncmp(p, "stack=dwarf", 11)) {
			out->stack = SAMPLING_STACK_DWARF;
		} else if (len == 12 && !strncmp(p, "source=timer", 12)) {
			out->timer = 1;
		} else if (len == 4 && !strncmp(p, "bg=1", 4)) {
			out->background = 1;
		} else if (!strncmp(p, "only=", 5)) {
			if (len - 5 >= sizeof(out->only)) {
				*why = "only list too long";
				return -1;
			}
			memcpy(out->only, p + 5, len - 5);
			out->only[len - 5] = '\0';
		} else {
			*why = "unknown field";
			return -1;
		}
		p += len;
		if (*p == ';')
			p++;
	}
	return 0;
}

#endif
