/*
 * callgrind.out, the text format of valgrind's callgrind that KCachegrind
 * and callgrind_annotate read.  One event, "ns": a function's block holds
 * its self time on the line of its start, then one calls= pair per callee
 * with the call count and the inclusive time of those calls.  Object,
 * file and function names are written once with an id and then by id
 * alone (the format's name compression), so the file stays small.
 *
 * Recordings hold no call sites: a call's source line is the caller's
 * first line.  A recording of timer samples alone has one event,
 * "samples": each function's self samples, and no calls.
 */
#include <stdlib.h>
#include <string.h>

#include "formats/export.h"
#include "xalloc.h"

/*
 * Name compression: the first use of a name writes "(id) name", later
 * ones "(id)".  ID_OF holds the id given to each slot (0: none yet); *LAST
 * is the last id given for this kind of name (objects, files, functions).
 */
static void put_name(FILE *out, const char *key, size_t *last, const char *name, size_t *id_of,
		     size_t slot)
{
	if (id_of[slot]) {
		fprintf(out, "%s=(%zu)\n", key, id_of[slot]);
		return;
	}
	id_of[slot] = ++*last;
	fprintf(out, "%s=(%zu) %s\n", key, *last, name);
}

static const char *func_file(const struct func *f)
{
	return f->file ? f->file : "???";
}

static const char *func_object(const struct func *f)
{
	return f->object[0] ? f->object : "???";
}

/* A qsort_r() comparator of arc numbers; the context is the profile. */
static int by_caller(const void *a, const void *b, void *profile)
{
	const struct profile *p = profile;
	const struct arc *x = &p->arcs[*(const uint32_t *)a];
	const struct arc *y = &p->arcs[*(const uint32_t *)b];

	if (x->caller != y->caller)
		return x->caller < y->caller ? -1 : 1;
	return x->callee < y->callee ? -1 : x->callee > y->callee;
}

/* An id per distinct string: index i gets the id slot of the first
 * function with an equal string, found with a hash of the strings. */
static void share_ids(const struct profile *p, const char *(*get)(const struct func *),
		      size_t *slot_of)
{
	size_t cap = 16;
	while (cap < p->nfuncs * 2)
		cap *= 2;
	size_t *table = xcalloc(cap, sizeof(*table));

	for (size_t i = 0; i < p->nfuncs; i++) {
		const char *s = get(&p->funcs[i]);
		uint64_t h = 0xcbf29ce484222325ull;
		for (const char *c = s; *c; c++)
			h = (h ^ (unsigned char)*c) * 0x100000001b3ull;
		size_t k = (size_t)h & (cap - 1);
		while (table[k] && strcmp(get(&p->funcs[table[k] - 1]), s))
			k = (k + 1) & (cap - 1);
		if (!table[k])
			table[k] = i + 1;
		slot_of[i] = table[k] - 1;
	}
	free(table);
}

/* F's self cost in the file's one event. */
static uint64_t self_cost(const struct func *f, const struct export_meta *m)
{
	return m->samples_only ? f->self_samples : f->self_ns;
}

int callgrind_write(FILE *out, const struct profile *p, const struct export_meta *m)
{
	size_t n = p->nfuncs ? p->nfuncs : 1;
	size_t *obj_slot = xmalloc(n * sizeof(size_t)), *file_slot = xmalloc(n * sizeof(size_t));
	size_t *obj_id = xcalloc(n, sizeof(size_t)), *file_id = xcalloc(n, sizeof(size_t));
	size_t *fn_id = xcalloc(n, sizeof(size_t));
	size_t objs = 0, files = 0, fns = 0;
	uint32_t *arcs = xmalloc((p->narcs ? p->narcs : 1) * sizeof(*arcs));
	size_t narcs = 0;
	uint64_t total = 0;

	share_ids(p, func_object, obj_slot);
	share_ids(p, func_file, file_slot);
	for (size_t i = 0; i < p->nfuncs; i++)
		total += self_cost(&p->funcs[i], m);
	for (size_t i = 0; i < p->narcs; i++)
		if (p->arcs[i].caller != FUNC_NONE)
			arcs[narcs++] = (uint32_t)i;
	qsort_r(arcs, narcs, sizeof(*arcs), by_caller, (void *)p);

	fprintf(out, "# callgrind format\nversion: 1\ncreator: callscope\n");
	if (m->cmd)
		fprintf(out, "cmd: %s\n", m->cmd);
	fprintf(out, "positions: line\nevents: %s\n"
		     "summary: %llu\n", m->samples_only ? "samples" : "ns",
		(unsigned long long)total);

	size_t a = 0;
	for (size_t i = 0; i < p->nfuncs; i++) {
		const struct func *f = &p->funcs[i];
		if (!f->calls && !f->self_ns && !f->total_ns && !f->self_samples)
			continue;
		fputc('\n', out);
		put_name(out, "ob", &objs, func_object(f), obj_id, obj_slot[i]);
		put_name(out, "fl", &files, func_file(f), file_id, file_slot[i]);
		put_name(out, "fn", &fns, f->name, fn_id, i);
		fprintf(out, "%d %llu\n", f->line, (unsigned long long)self_cost(f, m));
		while (a < narcs && p->arcs[arcs[a]].caller < i)
			a++;
		for (; a < narcs && p->arcs[arcs[a]].caller == i; a++) {
			const struct arc *arc = &p->arcs[arcs[a]];
			const struct func *c = &p->funcs[arc->callee];
			put_name(out, "cob", &objs, func_object(c), obj_id, obj_slot[arc->callee]);
			put_name(out, "cfi", &files, func_file(c), file_id, file_slot[arc->callee]);
			put_name(out, "cfn", &fns, c->name, fn_id, arc->callee);
			/* a callee whose calls were not counted (code without
			 * hooks, timed by samples) is written as called once:
			 * callgrind_annotate takes the cost after "calls=0" for
			 * the caller's own */
			fprintf(out, "calls=%llu %d\n%d %llu\n",
				(unsigned long long)(arc->count ? arc->count : 1), c->line, f->line,
				(unsigned long long)(arc->self_ns + arc->child_ns));
		}
	}
	free(obj_slot);
	free(file_slot);
	free(obj_id);
	free(file_id);
	free(fn_id);
	free(arcs);
	return fflush(out) == 0 && !ferror(out) ? 0 : -1;
}
