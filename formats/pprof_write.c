/*
 * pprof's profile.proto (github.com/google/pprof, proto/profile.proto),
 * encoded by hand and gzip-compressed as `go tool pprof` expects.  The
 * encoding needs only varints and length-delimited fields; messages are
 * built inside out, each into its own buffer, then appended with its
 * length.
 *
 * What goes where:
 *   sample_type  [calls/count, time/nanoseconds]; time is the default
 *   sample       one per call path with calls or self time: its
 *                locations leaf first, values [calls, self ns]
 *                (a recording of timer samples alone: sample_type
 *                [samples/count], values [samples of that stack], as
 *                pprof's own CPU profiles count)
 *   location     one per function (id = function number + 1), at its
 *                run-time address, with one line: the function's start
 *   function     name (C++ demangled, as pprof shows it), system_name
 *                (the linkage name), file and first line where the
 *                DWARF told
 *   mapping      one per object, with its path and build ID
 *   label        on every sample, for back ends that slice a fleet's
 *                profiles: "process" (the program's name) and "run" (when
 *                it started, UTC); with each thread's own tree, the
 *                samples are per thread and carry "pid" and "tid"; a sum
 *                of runs carries "runs", their number, instead
 */
#include <time.h>
#include <stdlib.h>
#include <string.h>

#include "formats/bytebuf.h"
#include "formats/export.h"
#include "model/cct_walk.h"
#include "xalloc.h"

enum { PB_VARINT = 0, PB_LEN = 2 };

static void pb_varint(struct bytebuf *b, uint64_t v)
{
	uint8_t tmp[10];
	size_t n = 0;

	do {
		tmp[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	bytebuf_add(b, tmp, n);
}

static void pb_key(struct bytebuf *b, uint32_t field, int wire)
{
	pb_varint(b, (uint64_t)field << 3 | (uint64_t)wire);
}

/* proto3 leaves zero scalars out. */
static void pb_uint(struct bytebuf *b, uint32_t field, uint64_t v)
{
	if (!v)
		return;
	pb_key(b, field, PB_VARINT);
	pb_varint(b, v);
}

static void pb_bytes(struct bytebuf *b, uint32_t field, const void *p, size_t n)
{
	pb_key(b, field, PB_LEN);
	pb_varint(b, n);
	bytebuf_add(b, p, n);
}

/* Appends SUB as field FIELD of B and empties SUB for the next message. */
static void pb_message(struct bytebuf *b, uint32_t field, struct bytebuf *sub)
{
	pb_bytes(b, field, sub->p, sub->len);
	sub->len = 0;
}

/* The string table: index 0 is "", as the format requires. */
struct strings {
	struct bytebuf out;	/* the encoded string_table fields */
	const char **s;
	size_t n, alloc;
	size_t *slots;		/* index + 1 */
	size_t mask;
};

static uint64_t hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

static void strings_rehash(struct strings *t)
{
	t->mask = t->mask * 2 + 1;
	free(t->slots);
	t->slots = xcalloc(t->mask + 1, sizeof(*t->slots));
	for (size_t i = 0; i < t->n; i++) {
		size_t h = hash_str(t->s[i]) & t->mask;
		while (t->slots[h])
			h = (h + 1) & t->mask;
		t->slots[h] = i + 1;
	}
}

/* Returns the index of S (borrowed: must outlive the table). */
static uint64_t string_id(struct strings *t, const char *s)
{
	size_t h = hash_str(s) & t->mask;

	while (t->slots[h]) {
		if (!strcmp(t->s[t->slots[h] - 1], s))
			return t->slots[h] - 1;
		h = (h + 1) & t->mask;
	}
	ALLOC_GROW(t->s, t->n + 1, t->alloc);
	t->s[t->n] = s;
	t->slots[h] = ++t->n;
	pb_bytes(&t->out, 6, s, strlen(s));
	if (t->n * 2 > t->mask)
		strings_rehash(t);
	return t->n - 1;
}

static void value_type(struct bytebuf *b, uint32_t field, struct strings *st, const char *type,
		       const char *unit)
{
	struct bytebuf vt = { 0 };

	pb_uint(&vt, 1, string_id(st, type));
	pb_uint(&vt, 2, string_id(st, unit));
	pb_message(b, field, &vt);
	bytebuf_release(&vt);
}

struct sample_walk {
	struct bytebuf *profile;
	struct bytebuf msg, packed;
	int samples_only;	/* one value: the tree's CCT_TIME counts samples */
	struct bytebuf labels;	/* the encoded labels every sample gets */
};

static void label(struct bytebuf *labels, struct strings *st, const char *key, const char *str,
		  uint64_t num)
{
	struct bytebuf l = { 0 };

	pb_uint(&l, 1, string_id(st, key));
	if (str)
		pb_uint(&l, 2, string_id(st, str));
	else {
		pb_key(&l, 3, PB_VARINT);	/* a number label, even 0 */
		pb_varint(&l, num);
	}
	pb_message(labels, 3, &l);
	bytebuf_release(&l);
}

static void sample(void *ctx, const struct cct *t, uint32_t node)
{
	struct sample_walk *w = ctx;
	const struct cct_node *n = &t->nodes[node];

	if (!n->calls && !n->self[CCT_TIME])
		return;
	for (uint32_t k = node; k != CCT_ROOT; k = t->nodes[k].parent)
		pb_varint(&w->packed, (uint64_t)t->nodes[k].func + 1);
	pb_message(&w->msg, 1, &w->packed);
	if (!w->samples_only)
		pb_varint(&w->packed, n->calls);
	pb_varint(&w->packed, n->self[CCT_TIME]);
	pb_message(&w->msg, 2, &w->packed);
	bytebuf_add(&w->msg, w->labels.p, w->labels.len);
	pb_message(w->profile, 2, &w->msg);
}

static char *hex(const uint8_t *p, size_t n)
{
	char *s = xmalloc(n * 2 + 1);
	for (size_t i = 0; i < n; i++)
		snprintf(s + 2 * i, 3, "%02x", p[i]);
	s[n * 2] = '\0';
	return s;
}

uint8_t *pprof_encode(const struct profile *p, const struct cct *t, const struct export_meta *m,
		      size_t *len)
{
	struct strings st = { { 0 } };
	struct bytebuf prof = { 0 }, msg = { 0 }, sub = { 0 };
	size_t nmaps = 0, *map_of = xcalloc(p->nfuncs + 1, sizeof(*map_of));
	const struct export_object **maps = xcalloc(m->nobjects + 1, sizeof(*maps));
	char **ids = xcalloc(m->nobjects + 1, sizeof(*ids));
	int any_file = 0;

	st.mask = 255;
	st.slots = xcalloc(st.mask + 1, sizeof(*st.slots));
	string_id(&st, "");
	const char *kind = m->samples_only ? "samples" : "time";
	if (m->samples_only) {
		value_type(&prof, 1, &st, "samples", "count");
	} else {
		value_type(&prof, 1, &st, "calls", "count");
		value_type(&prof, 1, &st, "time", "nanoseconds");
	}

	struct sample_walk w = { &prof, { 0 }, { 0 }, m->samples_only, { 0 } };
	char run[32] = "";
	time_t start = (time_t)(m->unix_start_ns / 1000000000u);
	struct tm tm;
	if (gmtime_r(&start, &tm))
		strftime(run, sizeof(run), "%Y-%m-%dT%H:%M:%SZ", &tm);
	const char *exe = m->main_exe ? m->main_exe : "";
	const char *process = strrchr(exe, '/') ? strrchr(exe, '/') + 1 : exe;
	/* labels are keyed by string: the table must hold them before use,
	 * and the same strings serve every sample */
	for (size_t i = 0; i < m->nthreads && m->runs <= 1; i++) {
		const struct export_thread *th = &m->threads[i];
		w.labels.len = 0;
		label(&w.labels, &st, "process", process, 0);
		label(&w.labels, &st, "run", run, 0);
		label(&w.labels, &st, "pid", NULL, th->pid);
		label(&w.labels, &st, "tid", NULL, th->tid);
		cct_walk(th->tree, sample, NULL, &w);
	}
	if (!m->nthreads || m->runs > 1) {
		w.labels.len = 0;
		label(&w.labels, &st, "process", process, 0);
		label(&w.labels, &st, m->runs > 1 ? "first run" : "run", run, 0);
		if (m->runs > 1)
			label(&w.labels, &st, "runs", NULL, m->runs);
		cct_walk(t, sample, NULL, &w);
	}
	bytebuf_release(&w.msg);
	bytebuf_release(&w.packed);
	bytebuf_release(&w.labels);

	/* Mappings: the objects that hold a function, in first-use order. */
	for (size_t i = 0; i < p->nfuncs; i++) {
		const struct export_object *o = export_meta_object(m, p->funcs[i].object);
		any_file |= p->funcs[i].file != NULL;
		if (!o)
			continue;
		size_t k = 0;
		while (k < nmaps && maps[k] != o)
			k++;
		if (k == nmaps)
			maps[nmaps++] = o;
		map_of[i] = k + 1;
	}
	for (size_t k = 0; k < nmaps; k++) {
		ids[k] = hex(maps[k]->build_id, maps[k]->build_id_len);
		pb_uint(&msg, 1, k + 1);
		pb_uint(&msg, 2, maps[k]->start);
		pb_uint(&msg, 3, maps[k]->limit);
		pb_uint(&msg, 5, string_id(&st, maps[k]->path));
		pb_uint(&msg, 6, string_id(&st, ids[k]));
		pb_uint(&msg, 7, 1);
		pb_uint(&msg, 8, (uint64_t)any_file);
		pb_uint(&msg, 9, (uint64_t)any_file);
		pb_message(&prof, 3, &msg);
	}
	for (size_t i = 0; i < p->nfuncs; i++) {
		const struct func *f = &p->funcs[i];
		const struct export_object *o = map_of[i] ? maps[map_of[i] - 1] : NULL;
		pb_uint(&msg, 1, i + 1);
		pb_uint(&msg, 2, map_of[i]);
		pb_uint(&msg, 3, o ? f->addr + o->load_bias : 0);
		pb_uint(&sub, 1, i + 1);
		pb_uint(&sub, 2, f->line > 0 ? (uint64_t)f->line : 0);
		pb_message(&msg, 4, &sub);
		pb_message(&prof, 4, &msg);
	}
	for (size_t i = 0; i < p->nfuncs; i++) {
		const struct func *f = &p->funcs[i];
		pb_uint(&msg, 1, i + 1);
		pb_uint(&msg, 2, string_id(&st, f->name));
		pb_uint(&msg, 3, string_id(&st, f->symbol));
		pb_uint(&msg, 4, f->file ? string_id(&st, f->file) : 0);
		pb_uint(&msg, 5, f->line > 0 ? (uint64_t)f->line : 0);
		pb_message(&prof, 5, &msg);
	}
	pb_uint(&prof, 9, m->unix_start_ns);
	pb_uint(&prof, 10, p->wall_ns);
	if (m->samples_only)
		value_type(&prof, 11, &st, "samples", "count");
	else
		value_type(&prof, 11, &st, "time", "nanoseconds");
	pb_uint(&prof, 12, 1);
	if (m->cmd)
		pb_uint(&prof, 13, string_id(&st, m->cmd));
	pb_uint(&prof, 14, string_id(&st, kind));
	/* The string table goes last: every field above has added to it. */
	bytebuf_add(&prof, st.out.p, st.out.len);

	for (size_t k = 0; k < nmaps; k++)
		free(ids[k]);
	free(ids);
	free(maps);
	free(map_of);
	free(st.s);
	free(st.slots);
	bytebuf_release(&st.out);
	bytebuf_release(&msg);
	bytebuf_release(&sub);
	*len = prof.len;
	return prof.p;
}

int pprof_write(FILE *out, const struct profile *p, const struct cct *t,
		const struct export_meta *m)
{
	size_t len;
	uint8_t *bytes = pprof_encode(p, t, m, &len);
	int rc = gzip_write(out, bytes, len);

	free(bytes);
	if (rc == 0)
		rc = fflush(out) == 0 && !ferror(out) ? 0 : -1;
	return rc;
}
