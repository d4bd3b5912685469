#include "cli/record_sampling.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "die.h"
#include "xalloc.h"

uint32_t record_sampling_hz(const char *s)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(s, &end, 10);
	if (errno || end == s || *end || v < 1 || v > SAMPLING_HZ_MAX)
		usage_die("--freq wants a number of samples per second from 1 to %u, not '%s'",
			  SAMPLING_HZ_MAX, s);
	return (uint32_t)v;
}

int record_sampling_clock(const char *s)
{
	if (!strcmp(s, "cpu"))
		return 0;
	if (!strcmp(s, "wall"))
		return 1;
	usage_die("--sample-clock wants cpu or wall, not '%s'", s);
}

enum sampling_stack record_sampling_stack(const char *s)
{
	if (!strcmp(s, "auto"))
		return SAMPLING_STACK_AUTO;
	if (!strcmp(s, "fp"))
		return SAMPLING_STACK_FP;
	if (!strcmp(s, "dwarf"))
		return SAMPLING_STACK_DWARF;
	usage_die("--stack wants auto, fp or dwarf, not '%s'", s);
}

int record_sampling_source(const char *s)
{
	if (!strcmp(s, "perf"))
		return 0;
	if (!strcmp(s, "timer"))
		return 1;
	usage_die("--sample-source wants perf or timer, not '%s'", s);
}

int record_sampling_idle_hooks(const struct record_sampling *rs, int has_hooks)
{
	return has_hooks && rs->mode == RECORD_MODE_SAMPLE;
}

char *record_sampling_choose(const struct record_sampling *rs, const char *prog, int has_hooks,
			     const struct contract *c)
{
	int sample = rs->asked || !has_hooks || rs->mode == RECORD_MODE_SAMPLE ||
		     rs->mode == RECORD_MODE_BOTH || c->time_by_samples;

	if (!has_hooks && (rs->mode == RECORD_MODE_TRACE || rs->mode == RECORD_MODE_BOTH))
		usage_die("'%s' carries no profiling hooks, so it cannot be traced as built: add "
			  "--patch to patch its function entries as it starts, rebuild it with -pg, "
			  "-pg -mfentry or -finstrument-functions, or use --mode=sample", prog);
	if (!sample) {
		if (rs->explicit_option)
			usage_die("'%s' carries profiling hooks, so it is traced: add --sample to "
				  "sample it too, or use --mode=sample", prog);
		return NULL;
	}
	if (c->time_by_samples) {
		if (!has_hooks)
			usage_die("'%s' carries no profiling hooks, so its calls cannot be counted; "
				  "rebuild it with -pg, -pg -mfentry or -finstrument-functions", prog);
		if (rs->only || rs->stack != SAMPLING_STACK_AUTO || rs->asked)
			usage_die("--time-by=samples finds each sample's call path on the shadow "
				  "stack, over the whole program: leave out --sample, --only and --stack");
		inform("counting the calls of '%s' per call path, timed by samples at %u Hz of %s "
		       "time", prog, rs->hz, rs->wall ? "wall" : "CPU");
	} else if (c->ring_bytes || c->count_nodes) {
		usage_die("sampling does not go with --mode=flight or --mode=count; %s",
			  has_hooks ? "leave out --sample (or time count mode by samples: "
				      "--time-by=samples)"
				    : "add --patch, or rebuild the program with -pg, to use them");
	}
	if (rs->only) {
		if (!*rs->only || strlen(rs->only) >= SAMPLING_ONLY_MAX || strchr(rs->only, ';') ||
		    rs->only[strlen(rs->only) - 1] == ',')
			usage_die("--only wants object names separated by commas, not '%s'", rs->only);
	}
	if (c->time_by_samples)
		;	/* said above */
	else if (record_sampling_idle_hooks(rs, has_hooks))
		inform("sampling '%s' at %u Hz of %s time; its profiling hooks stay idle "
		       "(--mode=sample)", prog, rs->hz, rs->wall ? "wall" : "CPU");
	else if (has_hooks)
		inform("tracing '%s' and sampling it at %u Hz of %s time", prog,
		       rs->hz, rs->wall ? "wall" : "CPU");
	else
		inform("'%s' carries no profiling hooks; sampling it at %u Hz of %s time (for "
		       "exact calls, compile it with -pg or -finstrument-functions)", prog, rs->hz,
		       rs->wall ? "wall" : "CPU");
	static const char *const stacks[] = { "auto", "fp", "dwarf" };
	return xasprintf("hz=%u;clock=%s;stack=%s%s%s%s", rs->hz, rs->wall ? "wall" : "cpu",
			 stacks[rs->stack], rs->timer ? ";source=timer" : "",
			 rs->only ? ";only=" : "", rs->only ? rs->only : "");
}
