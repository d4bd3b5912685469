#include "load/hook_cost.h"

#include <math.h>

#include "load/load.h"

/* Calls the hooks of process PR made: an entry and an exit record each,
 * the few other records (samples, syncs) being nothing beside them. */
static uint64_t process_calls(const struct data_file *df, const struct data_process *pr)
{
	uint64_t events = 0;

	for (size_t i = 0; i < df->nthreads; i++)
		if (df->threads[i].pid == pr->pid && df->threads[i].image == pr->image)
			events += df->threads[i].events_written;
	return events / 2;
}

/* The cost per call that INNER, OUTER and UNSURE samples of PERIOD_NS
 * each say of CALLS calls, into *OUT; the samples' count. */
static uint64_t from_samples(uint64_t inner, uint64_t outer, uint64_t unsure, uint64_t period_ns,
			     uint64_t calls, double out[2])
{
	/* the samples whose side is not known (the C hooks' prologues and
	 * epilogues, as many of each side) count half to each */
	double per_sample = calls ? (double)period_ns / (double)calls : 0;

	out[0] = ((double)inner + unsure / 2.0) * per_sample;
	out[1] = ((double)outer + unsure / 2.0) * per_sample;
	return inner + outer + unsure;
}

/* A library call's path does all a compiler hook's does (the same C
 * entry, the same return trampoline) and more: a figure of its below the
 * compiler hooks' is the samples' noise, and each part is held at theirs. */
static void at_least_hooks(struct hook_cost_choice *c)
{
	if (c->library_inner_ns < c->inner_ns)
		c->library_inner_ns = c->inner_ns;
	if (c->library_outer_ns < c->outer_ns)
		c->library_outer_ns = c->outer_ns;
}

/*
 * The process whose measurement PR took and that measured again at exit:
 * the run measures once, and its other processes and images take that
 * start figure (a fork's child, or through the staging directory), the
 * very same numbers, and a short one does not measure again at exit.
 * The lower of that process's two figures is PR's too.  NULL when PR
 * measured at exit itself, or no such process is in the file.  Count
 * mode took its start figure off in the program, so its paths keep it.
 */
static const struct data_process *measured_for(const struct data_file *df,
					       const struct data_process *pr)
{
	if (pr->measured_at_exit || df->session.mode == DATA_MODE_COUNT ||
	    !(pr->start_inner_x256 | pr->start_outer_x256))
		return NULL;
	for (size_t i = 0; i < df->nprocesses; i++) {
		const struct data_process *q = &df->processes[i];
		if (q->measured_at_exit && q->start_inner_x256 == pr->start_inner_x256 &&
		    q->start_outer_x256 == pr->start_outer_x256 &&
		    q->library_start_inner_x256 == pr->library_start_inner_x256 &&
		    q->library_start_outer_x256 == pr->library_start_outer_x256)
			return q;
	}
	return NULL;
}

void hook_cost_of_process(const struct data_file *df, const struct data_process *pr,
			  struct hook_cost_choice *out)
{
	/* whose calibration is the lower: PR's own, or the one it took */
	const struct data_process *measured = measured_for(df, pr);
	const struct data_process *hooks_from = pr, *library_from = pr;
	if (measured && (uint64_t)measured->inner_x256 + measured->outer_x256 <
				(uint64_t)pr->inner_x256 + pr->outer_x256)
		hooks_from = measured;
	if (measured && (uint64_t)measured->library_inner_x256 + measured->library_outer_x256 <
				(uint64_t)pr->library_inner_x256 + pr->library_outer_x256)
		library_from = measured;

	const double unit = load_ns_per_unit(df);
	const struct data_hook_samples *s = &pr->hook_samples;
	uint64_t calls = process_calls(df, pr);
	/* count mode writes no records to bound the count by: its calls are
	 * the nodes', and it takes no samples beside them */
	uint64_t library_calls = calls && s->library_calls > calls ? calls : s->library_calls;
	uint64_t hook_calls = calls > library_calls ? calls - library_calls : 0;
	double hooks[2], library[2];

	*out = (struct hook_cost_choice){ 0 };
	out->inner_ns = hooks_from->inner_x256 / 256.0 * unit;
	out->outer_ns = hooks_from->outer_x256 / 256.0 * unit;
	out->calibrated_ns = out->inner_ns + out->outer_ns;
	out->library_inner_ns = out->inner_ns;
	out->library_outer_ns = out->outer_ns;
	out->library_calls = library_calls;
	/* measured apart only when library calls were traced */
	if (library_from->library_inner_x256 || library_from->library_outer_x256) {
		out->library_inner_ns = library_from->library_inner_x256 / 256.0 * unit;
		out->library_outer_ns = library_from->library_outer_x256 / 256.0 * unit;
	}
	at_least_hooks(out);
	out->samples = from_samples(s->inner, s->outer, s->unsure, s->period_ns,
				    hook_calls, hooks);
	if (!s->period_ns || !hook_calls || !out->samples)
		return;
	out->in_place_ns = hooks[0] + hooks[1];
	out->rel_error = 1 / sqrt((double)out->samples);
	if (out->samples < HOOK_COST_MIN_SAMPLES)
		return;
	/*
	 * The library calls' own samples, when there are enough; else their
	 * calibration's excess over the compiler hooks' added to what those
	 * cost in place: the excess is the stub's and the entry point's
	 * fixed work, which the calibration sees as the program would, and
	 * what the program's work adds to a call (cache misses, the
	 * predictors) falls on the trampoline and the stream both share.
	 */
	uint64_t library_samples = from_samples(s->library_inner, s->library_outer,
						s->library_unsure, s->period_ns, library_calls,
						library);
	if (!library_calls || library_samples < HOOK_COST_MIN_SAMPLES) {
		library[0] = hooks[0] + out->library_inner_ns - out->inner_ns;
		library[1] = hooks[1] + out->library_outer_ns - out->outer_ns;
	}
	out->inner_ns = hooks[0];
	out->outer_ns = hooks[1];
	out->library_inner_ns = library[0];
	out->library_outer_ns = library[1];
	out->in_place = 1;
	at_least_hooks(out);
}
