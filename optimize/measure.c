/*
 * callscope optimize --measure.  See measure.h.
 *
 * The work is a list of variants (binary x code offset) and a list of
 * runs over them (one per cache simulated, or hardware-counted runs),
 * which measure_jobs.c makes and runs.  Here the options get their
 * defaults, the numbers are gathered per binary and cache as mean and
 * range over the offsets, checked for runs that did not do the same work,
 * and handed to measure_report.c.
 */
#include "optimize/measure.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "die.h"
#include "optimize/measure_jobs.h"
#include "optimize/measure_report.h"
#include "xalloc.h"

#define PAGES_SHARE 0.9

/*
 * Fills the pages of binary I and how far each of its variants moved its
 * hottest function, from the output BASE of its first variant.
 */
static void locate(struct measurement *m, struct binary_numbers *nb, size_t i,
		   const struct cg_result *base)
{
	const struct measure_options *o = m->o;
	size_t v0 = i * o->noffsets;

	if (elf_funcs_load(m->variants[v0].path, &nb[i].funcs) != 0)
		return;
	pages_count(&nb[i].funcs, base, PAGES_SHARE, &nb[i].pages);
	nb[i].pages_known = 1;
	long hot = pages_hottest(&nb[i].funcs, base);
	if (hot < 0)
		return;
	nb[i].hottest = nb[i].funcs.funcs[hot].name;
	uint64_t addr0 = nb[i].funcs.funcs[hot].addr;
	for (size_t k = 0; k < o->noffsets; k++) {
		struct variant *v = &m->variants[v0 + k];
		struct elf_funcs vf;
		if (elf_funcs_load(v->path, &vf) != 0)
			continue;
		for (size_t f = 0; f < vf.n; f++)
			if (!strcmp(vf.funcs[f].name, nb[i].hottest)) {
				v->moved = (long)(vf.funcs[f].addr - addr0) + (long)o->offsets[0];
				v->moved_known = 1;
				break;
			}
		elf_funcs_release(&vf);
	}
}

int measure_run(const struct measure_options *opts)
{
	struct measure_options o = *opts;
	struct measurement m;
	char why[256], labels[MEASURE_MAX_CACHES][32];

	memset(&m, 0, sizeof(m));
	m.o = &o;
	if (!o.noffsets) {
		static const uint64_t def[] = { 0, 1040, 2080, 3120 };
		o.noffsets = o.relink ? 4 : 1;
		memcpy(o.offsets, def, o.noffsets * sizeof(*def));
	} else if (!o.relink && (o.noffsets > 1 || o.offsets[0])) {
		usage_die("--offsets needs --relink: the command that links a binary with padding");
	}
	/* A cache geometry the user names can only be simulated, and the
	 * hardware event would fill just one column where the caller asked
	 * for several (a script reading caches[1] would find nothing). */
	if (o.ncaches)
		o.simulate = 1;
	if (!o.ncaches) {
		cache_parse_spec("8K,2,32", &o.caches[0], &(const char *){ NULL });
		cache_host_l1i(&o.caches[1]);
		o.ncaches = o.caches[1].size == o.caches[0].size && o.caches[1].ways == o.caches[0].ways &&
			    o.caches[1].line == o.caches[0].line ? 1 : 2;
	}
	if (!o.jobs) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		o.jobs = n > 0 ? (unsigned)n : 1;
	}
	for (size_t i = 0; i < o.nbinaries; i++)
		if (access(o.binaries[i], X_OK) != 0)
			die("cannot run '%s': %s", o.binaries[i], strerror(errno));
	if (o.stdin_path && access(o.stdin_path, R_OK) != 0)
		die("cannot read the input '%s': %s", o.stdin_path, strerror(errno));

	m.hardware = !o.simulate && measure_hardware_available(why, sizeof(why));
	if (!m.hardware && !o.simulate)
		fprintf(stderr, "callscope: the hardware event L1-icache-load-misses is not available "
			"here: %s; simulating the caches with cachegrind instead\n", why);
	measure_require_valgrind();
	measure_scratch_make(&m);
	measure_make_variants(&m);

	/* Cachegrind: every cache at every offset, or (hardware) instructions per
	 * function at offset 0 for the pages. */
	size_t ncol = m.hardware ? 1 : o.ncaches;
	for (size_t k = 0; k < ncol; k++) {
		if (m.hardware)
			snprintf(labels[k], sizeof(labels[k]), "L1-icache-load-misses");
		else
			snprintf(labels[k], sizeof(labels[k]), "I1 %s",
				 cache_spec_label(&o.caches[k], why, sizeof(why)));
	}
	for (size_t v = 0; v < m.nvariants; v++) {
		if (m.hardware) {
			if (!m.variants[v].offset || o.noffsets == 1)
				measure_add_run(&m, v, NO_CACHE);
			continue;
		}
		for (size_t k = 0; k < o.ncaches; k++)
			measure_add_run(&m, v, k);
	}
	measure_run_all(&m);

	struct binary_numbers *nb = xcalloc(o.nbinaries, sizeof(*nb));
	for (size_t r = 0; r < m.nruns; r++) {
		const struct run *run = &m.runs[r];
		const struct variant *v = &m.variants[run->variant];
		struct binary_numbers *b = &nb[v->binary];
		if (run->cache != NO_CACHE) {
			spread_add(&b->misses[run->cache], (double)run->result.i1_misses);
			b->at[run->cache][v->offset] = (double)run->result.i1_misses;
		}
		if (run->cache == 0 || run->cache == NO_CACHE)
			spread_add(&b->instructions, (double)run->result.ir);
		if (v->offset == 0 && (run->cache == 0 || run->cache == NO_CACHE)) {
			b->status = WIFEXITED(run->status) ? WEXITSTATUS(run->status) : 128 + WTERMSIG(run->status);
			if (b->status && !b->tail)
				b->tail = measure_log_tail(run->log);
			locate(&m, nb, v->binary, &run->result);
		}
	}
	if (m.hardware) {
		uint64_t *misses = xcalloc(o.repeat > 0 ? (size_t)o.repeat : 1, sizeof(*misses));
		for (size_t v = 0; v < m.nvariants; v++) {
			struct binary_numbers *b = &nb[m.variants[v].binary];
			measure_count_hardware(&m, v, misses);
			for (int rep = 0; rep < o.repeat; rep++) {
				spread_add(&b->misses[0], (double)misses[rep]);
				b->at[0][m.variants[v].offset] += (double)misses[rep];
			}
		}
		free(misses);
	}

	for (size_t i = 0; i < o.nbinaries; i++)
		if (nb[i].status)
			warning("'%s' exited with status %d under cachegrind (%s); are its arguments "
				"right?", o.binaries[i], nb[i].status, nb[i].tail ? nb[i].tail : "");
	for (size_t i = 1; i < o.nbinaries; i++) {
		if (nb[i].status != nb[0].status)
			warning("'%s' exited with %d and '%s' with %d: the runs may not have done the "
				"same work", o.binaries[0], nb[0].status, o.binaries[i], nb[i].status);
		double d = measure_change(nb[i].instructions.mean, nb[0].instructions.mean);
		if (fabs(d) > 1.0)
			warning("'%s' executed %+.1f%% instructions against '%s': not the same work; "
				"compare builds of one program on one input", o.binaries[i], d,
				o.binaries[0]);
	}
	for (size_t v = 0; v < m.nvariants; v++) {
		const struct variant *x = &m.variants[v];
		uint64_t want = o.offsets[x->offset];
		if (x->moved_known && (uint64_t)x->moved != want && want)
			warning("relinked with %llu bytes of padding, '%s' moved its hottest function "
				"'%s' by %ld bytes: the padding must come before the hot code (see "
				"docs/optimize.md)", (unsigned long long)want, o.binaries[x->binary],
				nb[x->binary].hottest, x->moved);
	}

	if (o.json)
		measure_print_json(&m, nb, ncol, labels);
	else
		measure_print_text(&m, nb, ncol, labels);

	for (size_t i = 0; i < o.nbinaries; i++) {
		elf_funcs_release(&nb[i].funcs);
		free(nb[i].tail);
	}
	free(nb);
	measurement_release(&m);
	return 0;
}
