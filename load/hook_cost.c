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

void hook_cost_of_process(const struct data_file *df, const struct data_process *pr,
			  struct hook_cost_choice *out)
{
	const double unit = load_ns_per_unit(df);
	const struct data_hook_samples *s = &pr->hook_samples;
	uint64_t calls = process_calls(df, pr);

	*out = (struct hook_cost_choice){ 0 };
	out->inner_ns = pr->inner_x256 / 256.0 * unit;
	out->outer_ns = pr->outer_x256 / 256.0 * unit;
	out->calibrated_ns = out->inner_ns + out->outer_ns;
	out->samples = s->inner + s->outer + s->unsure;
	if (!s->period_ns || !calls || !out->samples)
		return;
	/* the samples whose side is not known (the C hooks' prologues and
	 * epilogues, as many of each side) count half to each */
	double per_sample = (double)s->period_ns / (double)calls;
	double inner = ((double)s->inner + s->unsure / 2.0) * per_sample;
	double outer = ((double)s->outer + s->unsure / 2.0) * per_sample;
	out->in_place_ns = inner + outer;
	out->rel_error = 1 / sqrt((double)out->samples);
	if (out->samples < HOOK_COST_MIN_SAMPLES)
		return;
	out->inner_ns = inner;
	out->outer_ns = outer;
	out->in_place = 1;
}
