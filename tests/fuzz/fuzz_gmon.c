/*
 * Fuzz harness for the gmon.out reader and the gprof analysis behind
 * `callscope gprof`: parse the input as a 64-bit little-endian and as a
 * 32-bit big-endian profile; when it parses, credit its histogram and
 * arcs to a made-up table of functions, find cycles, propagate time and
 * print every report (execution counts with basic blocks too) to
 * /dev/null.  Any input must end in a clean error
 * or a report, never a crash, a hang or a huge allocation.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "formats/gmon.h"
#include "gprof/gprof.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NSYMS 40

static void analyse(const struct gmon *g)
{
	static char names[NSYMS][8];
	struct gprof_sym syms[NSYMS];
	struct gprof_symtab st;
	struct gprof_opts o = { .ignore_zeros = 1, .output_width = 80, .table_length = 10 };
	struct gprof_filters f;
	struct gprof_result res;

	memset(&st, 0, sizeof(st));
	memset(&f, 0, sizeof(f));
	memset(&res, 0, sizeof(res));
	memset(syms, 0, sizeof(syms));
	/* functions 0x80 bytes long from 0x1000, where real seeds' addresses fall */
	for (int i = 0; i < NSYMS; i++) {
		snprintf(names[i], sizeof(names[i]), "f%d", i);
		syms[i].addr = 0x1000 + 0x80 * (uint64_t)i;
		syms[i].name = names[i];
		syms[i].is_func = 1;
		syms[i].is_static = i % 3 == 0;
		syms[i].order = (uint32_t)i;
	}
	st.syms = syms;
	st.n = gprof_symtab_finalize(syms, NSYMS, 0x1000 + 0x80 * NSYMS);
	st.funcs = syms;
	st.nfuncs = st.n;
	st.layout = g->layout;
	res.hz = g->rate ? g->rate : 100;
	snprintf(res.dimen, sizeof(res.dimen), "seconds");
	res.abbrev = 's';

	FILE *out = fopen("/dev/null", "w");
	if (!out)
		return;
	int first = 1;
	gprof_tally(&st, g, &f, &o, &res);
	if (g->nhists)
		gprof_assign_samples(&st, g, &f, &res);
	if (g->narcs)
		gprof_assemble(&st, &f, &res);
	if (g->nhists)
		gprof_print_flat(out, &st, &f, &o, &res, &first);
	if (g->narcs) {
		gprof_print_graph(out, &st, &o, &res, &first);
		gprof_print_index(out, &st, &o, &res);
	}
	/* -l -C: basic-block counts go to the symbols holding them */
	struct gprof_opts lo = o;
	lo.line_granularity = 1;
	gprof_print_exec_counts(out, &st, g, &f, &lo, &first);
	fclose(out);
	gprof_result_release(&res);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct gmon_layout layouts[] = { { 0, 8 }, { 1, 4 } };
	char err[256];

	for (size_t i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++) {
		struct gmon g;
		gmon_init(&g, &layouts[i]);
		if (gmon_parse(&g, "fuzz", data, size, GMON_FORMAT_AUTO, err, sizeof(err)) == 0 &&
		    i == 0)
			analyse(&g);
		gmon_release(&g);
	}
	return 0;
}
