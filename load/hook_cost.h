/*
 * The hooks' cost per call that a process's times lose, and where the
 * figure comes from.  The runtime measures it twice on an empty function
 * (at start and at exit: the calibration), and a trace sampled beside it
 * (record's --outside-freq) also says how many of its samples fell in the
 * hooks of a call, on either side of their clock reads
 * (runtime/hook_samples.c): that is what a call cost in this very run,
 * amid the program's own work, which the calibration cannot see (cache
 * misses, the predictors shared with the program).  Enough such samples
 * and it is the figure subtracted; else the calibration's.
 *
 * A library call's hooks (a stub and an entry point of their own before
 * the same return trampoline) are measured apart, in both ways, from
 * their own samples and calls.
 */
#ifndef CALLSCOPE_LOAD_HOOK_COST_H
#define CALLSCOPE_LOAD_HOOK_COST_H

#include <stdint.h>

#include "formats/native.h"

/* Fewer samples in the hooks than this and their figure is more than a
 * fifth off as often as not: the calibration's is used. */
#define HOOK_COST_MIN_SAMPLES 25

struct hook_cost_choice {
	double inner_ns, outer_ns;	/* subtracted per call */
	/* the same for a library call (through a hooked GOT slot), whose
	 * hooks cost more: measured apart when the process says so, else the
	 * compiler hooks' figure */
	double library_inner_ns, library_outer_ns;
	uint64_t library_calls;		/* such calls the runtime counted (0: none known) */
	int in_place;			/* from the samples, not the calibration */
	uint64_t samples;		/* samples in the hooks of a call */
	double rel_error;		/* one standard error of the figure, relative */
	double calibrated_ns;		/* the calibration's figure, inner + outer */
	double in_place_ns;		/* the samples' figure (0: none taken) */
};

/* The cost subtracted from the times of process PR of DF. */
void hook_cost_of_process(const struct data_file *df, const struct data_process *pr,
			  struct hook_cost_choice *out);

#endif
