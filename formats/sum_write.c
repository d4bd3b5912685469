#include "formats/sum_write.h"

#include <stdlib.h>
#include <string.h>

#include "contract.h"
#include "xalloc.h"

/* The one process and thread of a sum. */
#define SUM_PID 1
#define SUM_TID 1

void sum_origin_release(struct sum_origin *o)
{
	free(o->cwd);
	free(o->argv_blobs);
	free(o->exe);
	free(o->cmdline);
	for (size_t i = 0; i < o->ncounters; i++)
		free(o->counters[i].name);
	memset(o, 0, sizeof(*o));
}

/* The order everything is written in (see sum_write.h). */
struct sum_order {
	const struct profile_sum *s;
	uint32_t *object_rank;	/* object -> its place by path */
	uint32_t *func_rank;	/* function -> its place */
	uint32_t *record_node;	/* call-path record -> node (UINT32_MAX: the
				 * empty <truncated>) */
	uint32_t *node_record;	/* node -> its record */
	size_t nrecords;	/* call-path records */
	uint32_t *func_record;	/* function -> its statistics record, 0: none */
	uint32_t *child_start;	/* node -> its children in CHILDREN */
	uint32_t *children;	/* non-root nodes by parent, then function */
};

static int object_by_path(const void *a, const void *b, void *ctx)
{
	const struct profile_sum *s = ctx;
	return strcmp(s->objects[*(const uint32_t *)a].path, s->objects[*(const uint32_t *)b].path);
}

/* Functions of objects first (objects by path, then address), then the
 * addresses of no object. */
static int func_by_place(const void *a, const void *b, void *ctx)
{
	const struct sum_order *o = ctx;
	const struct sum_func *fa = &o->s->funcs[*(const uint32_t *)a];
	const struct sum_func *fb = &o->s->funcs[*(const uint32_t *)b];
	uint64_t ra = fa->object == SUM_NO_OBJECT ? UINT64_MAX : o->object_rank[fa->object];
	uint64_t rb = fb->object == SUM_NO_OBJECT ? UINT64_MAX : o->object_rank[fb->object];

	if (ra != rb)
		return ra < rb ? -1 : 1;
	return fa->addr < fb->addr ? -1 : fa->addr > fb->addr;
}

static int node_by_parent_func(const void *a, const void *b, void *ctx)
{
	const struct sum_order *o = ctx;
	const struct sum_node *na = &o->s->nodes[*(const uint32_t *)a];
	const struct sum_node *nb = &o->s->nodes[*(const uint32_t *)b];

	if (na->parent != nb->parent)
		return na->parent < nb->parent ? -1 : 1;
	uint32_t ra = o->func_rank[na->func], rb = o->func_rank[nb->func];
	return ra < rb ? -1 : ra > rb;
}

static int is_truncated(const struct profile_sum *s, uint32_t node)
{
	const struct sum_node *n = &s->nodes[node];
	return n->parent == 0 && s->funcs[n->func].object == SUM_NO_OBJECT &&
	       s->funcs[n->func].addr == CCT_TRUNCATED_ADDR;
}

static void order_build(const struct profile_sum *s, struct sum_order *o)
{
	size_t n = s->nnodes;
	uint32_t *tmp;

	memset(o, 0, sizeof(*o));
	o->s = s;
	tmp = xcalloc(s->nobjects + 1, sizeof(*tmp));
	for (size_t i = 0; i < s->nobjects; i++)
		tmp[i] = (uint32_t)i;
	qsort_r(tmp, s->nobjects, sizeof(*tmp), object_by_path, (void *)s);
	o->object_rank = xcalloc(s->nobjects + 1, sizeof(*o->object_rank));
	for (size_t i = 0; i < s->nobjects; i++)
		o->object_rank[tmp[i]] = (uint32_t)i;
	free(tmp);

	tmp = xcalloc(s->nfuncs + 1, sizeof(*tmp));
	for (size_t i = 0; i < s->nfuncs; i++)
		tmp[i] = (uint32_t)i;
	qsort_r(tmp, s->nfuncs, sizeof(*tmp), func_by_place, o);
	o->func_rank = xcalloc(s->nfuncs + 1, sizeof(*o->func_rank));
	for (size_t i = 0; i < s->nfuncs; i++)
		o->func_rank[tmp[i]] = (uint32_t)i;

	/* children of each node, together, in the functions' order */
	o->children = xcalloc(n, sizeof(*o->children));
	for (size_t i = 1; i < n; i++)
		o->children[i - 1] = (uint32_t)i;
	qsort_r(o->children, n - 1, sizeof(*o->children), node_by_parent_func, o);
	o->child_start = xcalloc(n + 1, sizeof(*o->child_start));
	for (size_t i = 1; i < n; i++)
		o->child_start[s->nodes[i].parent + 1]++;
	for (size_t i = 0; i < n; i++)
		o->child_start[i + 1] += o->child_start[i];

	/* records: the root, <truncated>, then the paths depth first */
	o->record_node = xcalloc(n + 1, sizeof(*o->record_node));
	o->node_record = xcalloc(n, sizeof(*o->node_record));
	o->record_node[0] = 0;
	o->record_node[1] = UINT32_MAX;
	o->nrecords = 2;
	for (uint32_t c = o->child_start[0]; c < o->child_start[1]; c++)
		if (is_truncated(s, o->children[c]))
			o->record_node[1] = o->children[c];
	uint32_t *stack = xcalloc(n + 1, sizeof(*stack));
	size_t depth = 0;
	stack[depth++] = 0;
	while (depth) {
		uint32_t node = stack[--depth];
		if (node) {
			if (is_truncated(s, node))
				continue;
			o->record_node[o->nrecords++] = node;
		}
		/* pushed last first, so the first child comes out first */
		for (uint32_t c = o->child_start[node + 1]; c > o->child_start[node]; c--)
			stack[depth++] = o->children[c - 1];
	}
	free(stack);
	for (size_t r = 0; r < o->nrecords; r++)
		if (o->record_node[r] != UINT32_MAX)
			o->node_record[o->record_node[r]] = (uint32_t)r;

	/* each function with statistics: five records after the paths */
	o->func_record = xcalloc(s->nfuncs + 1, sizeof(*o->func_record));
	size_t next = o->nrecords;
	for (size_t i = 0; i < s->nfuncs; i++) {
		const struct sum_func *sf = &s->funcs[tmp[i]];
		if (sf->calls || sf->periods) {
			o->func_record[tmp[i]] = (uint32_t)next;
			next += CCT_FUNC_RECORDS;
		}
	}
	free(tmp);
}

static void order_release(struct sum_order *o)
{
	free(o->object_rank);
	free(o->func_rank);
	free(o->record_node);
	free(o->node_record);
	free(o->func_record);
	free(o->child_start);
	free(o->children);
}

static uint64_t func_address(const struct sum_order *o, uint32_t f)
{
	const struct sum_func *sf = &o->s->funcs[f];
	return sf->object == SUM_NO_OBJECT ? sf->addr
					   : SUM_OBJECT_BIAS(o->object_rank[sf->object]) + sf->addr;
}

static void put_zero(struct sec_builder *b, size_t n)
{
	static const uint8_t zero[64];

	while (n) {
		size_t k = n < sizeof(zero) ? n : sizeof(zero);
		sec_put_bytes(b, zero, k);
		n -= k;
	}
}

/* The record of a node's first child, or of its next sibling: 0 if none. */
static uint32_t first_child_record(const struct sum_order *o, uint32_t node)
{
	for (uint32_t c = o->child_start[node]; c < o->child_start[node + 1]; c++)
		if (!(node == 0 && is_truncated(o->s, o->children[c])))
			return o->node_record[o->children[c]];
	return 0;
}

static uint32_t next_sibling_record(const struct sum_order *o, uint32_t node)
{
	uint32_t parent = o->s->nodes[node].parent;

	for (uint32_t c = o->child_start[parent]; c + 1 < o->child_start[parent + 1]; c++)
		if (o->children[c] == node) {
			uint32_t next = o->children[c + 1];
			return parent == 0 && is_truncated(o->s, next) ? next_sibling_record(o, next)
								       : o->node_record[next];
		}
	return 0;
}

static void put_path(struct sec_builder *b, const struct sum_order *o, size_t record)
{
	uint32_t node = o->record_node[record];

	if (node == UINT32_MAX) {	/* <truncated>, never used */
		sec_put_u64(b, CCT_TRUNCATED_ADDR);
		put_zero(b, 40);
		sec_put_u32(b, CCT_KIND_PATH);
		put_zero(b, 76);
		return;
	}
	const struct sum_node *n = &o->s->nodes[node];
	int root = node == 0, truncated = record == 1;
	sec_put_u64(b, root ? 0 : func_address(o, n->func));
	sec_put_u32(b, root ? 0 : o->node_record[n->parent]);
	sec_put_u32(b, truncated ? 0 : first_child_record(o, node));
	sec_put_u32(b, root || truncated ? 0 : next_sibling_record(o, node));
	sec_put_u32(b, 0);	/* nothing runs any more */
	sec_put_u64(b, n->calls);
	sec_put_u64(b, n->total_ns);
	sec_put_u64(b, 0);
	sec_put_u32(b, CCT_KIND_PATH);
	sec_put_u32(b, root ? 0 : o->func_record[n->func]);
	for (int c = 0; c < CONTRACT_COUNTERS_MAX; c++)
		sec_put_u64(b, n->counter_total[c]);
	put_zero(b, 16);
	sec_put_u64(b, n->unwound);
	sec_put_u64(b, n->thrown);
	sec_put_u64(b, n->samples);
	put_zero(b, 8);	/* no sampling period: a sum's times are the clock's */
	sec_put_u64(b, n->closed_at_end);
}

static void put_func(struct sec_builder *b, const struct sum_order *o, uint32_t f)
{
	const struct sum_func *sf = &o->s->funcs[f];

	sec_put_u64(b, func_address(o, f));
	sec_put_u64(b, sf->calls);
	sec_put_u64(b, sf->sum_ns > UINT64_MAX ? UINT64_MAX : (uint64_t)sf->sum_ns);
	sec_put_u64(b, sf->calls ? sf->min_ns : UINT64_MAX);
	sec_put_u64(b, sf->calls ? sf->max_ns : 0);
	sec_put_u64(b, sf->periods);
	sec_put_u32(b, CCT_KIND_FUNC);
	put_zero(b, 12);
	sec_put_u64(b, (uint64_t)sf->sum_sq_ns);
	sec_put_u64(b, (uint64_t)(sf->sum_sq_ns >> 64));
	sec_put_u64(b, sf->period_sum_ns);
	sec_put_u64(b, sf->periods ? sf->period_min_ns : UINT64_MAX);
	sec_put_u64(b, sf->periods ? sf->period_max_ns : 0);
	put_zero(b, 24);
	for (unsigned k = 0; k < CCT_FUNC_BUCKETS; k++)
		sec_put_u64(b, sf->buckets[k]);
}

/* Writes the builder's bytes; frees them. */
static int flush_built(FILE *out, uint8_t *buf, struct sec_builder *b)
{
	size_t len = (size_t)(b->p - buf);
	int rc = b->overflow || fwrite(buf, 1, len, out) != len ? -1 : 0;

	free(buf);
	return rc;
}

static int write_head(FILE *out, const struct profile_sum *s, const struct sum_order *o,
		      const struct sum_origin *origin)
{
	size_t size = 4096 + origin->cwd_len + origin->argv_len + strlen(origin->exe) +
		      origin->cmdline_len;
	for (size_t i = 0; i < s->nobjects; i++)
		size += 256 + strlen(s->objects[i].path) + s->objects[i].build_id_len +
			24 * s->objects[i].nseg;
	uint8_t *buf = xmalloc(size), *sec;
	struct sec_builder b = { buf, buf + size, 0 };

	sec = sec_begin(&b, SECTION_SESSION);
	sec_put_u64(&b, 0);
	sec_put_u64(&b, 0);
	sec_put_u64(&b, s->span_ns);
	sec_put_u64(&b, s->span_ns);
	sec_put_u64(&b, origin->unix_start_ns);
	sec_put_u32(&b, DATA_MODE_COUNT);
	sec_put_u32(&b, CONTRACT_CLOCK_MONO);
	sec_put_u32(&b, (uint32_t)origin->wait_status);
	sec_put_u32(&b, 0);
	sec_put_blob(&b, origin->cwd, origin->cwd_len);
	sec_put_u32(&b, origin->argc);
	sec_put_bytes(&b, origin->argv_blobs, origin->argv_len);
	sec_end(&b, sec);

	sec = sec_begin(&b, SECTION_PROCESS);
	sec_put_u32(&b, SUM_PID);
	sec_put_u32(&b, 0);
	sec_put_u32(&b, 0);
	sec_put_u32(&b, CONTRACT_CLOCK_MONO);
	sec_put_u64(&b, 0);
	sec_put_u64(&b, 0);
	sec_put_u32(&b, 0);	/* the hooks' cost is out of the sums already */
	sec_put_u32(&b, 0);
	sec_put_blob(&b, origin->exe, strlen(origin->exe));
	sec_put_blob(&b, origin->cmdline, origin->cmdline_len);
	sec_end(&b, sec);

	for (size_t r = 0; r < s->nobjects; r++) {
		const struct sum_object *ob = NULL;
		for (size_t i = 0; i < s->nobjects; i++)
			if (o->object_rank[i] == r)
				ob = &s->objects[i];
		sec = sec_begin(&b, SECTION_OBJECT);
		sec_put_u32(&b, SUM_PID);
		sec_put_u32(&b, 0);
		sec_put_u64(&b, SUM_OBJECT_BIAS(r));
		sec_put_blob(&b, ob->path, strlen(ob->path));
		sec_put_blob(&b, ob->build_id, ob->build_id_len);
		sec_put_u32(&b, (uint32_t)ob->nseg);
		for (size_t k = 0; k < ob->nseg; k++) {
			sec_put_u64(&b, ob->segs[k].vaddr);
			sec_put_u64(&b, ob->segs[k].memsz);
			sec_put_u32(&b, ob->segs[k].flags);
			sec_put_u32(&b, 0);
		}
		sec_end(&b, sec);
	}

	if (origin->ncounters) {
		sec = sec_begin(&b, SECTION_COUNTERS);
		sec_put_u32(&b, (uint32_t)origin->ncounters);
		for (size_t i = 0; i < origin->ncounters; i++) {
			sec_put_u32(&b, origin->counters[i].type);
			sec_put_u32(&b, 0);
			sec_put_u64(&b, origin->counters[i].config);
			sec_put_blob(&b, origin->counters[i].name, strlen(origin->counters[i].name));
		}
		sec_end(&b, sec);
	}

	sec = sec_begin(&b, SECTION_SUM);
	sec_put_u64(&b, s->runs);
	sec_put_u64(&b, s->processes);
	sec_put_u64(&b, s->threads);
	sec_end(&b, sec);
	return flush_built(out, buf, &b);
}

/* A sum's samples by path and PC, in the order of their records. */
struct pc_row {
	uint32_t record;
	uint64_t addr;		/* as written */
	uint64_t samples;
};

static int pc_row_cmp(const void *a, const void *b)
{
	const struct pc_row *x = a, *y = b;

	if (x->record != y->record)
		return x->record < y->record ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int write_pcs(FILE *out, const struct profile_sum *s, const struct sum_order *o)
{
	if (!s->npcs)
		return 0;	/* no PC known: the file stays as it was before them */
	struct pc_row *rows = xcalloc(s->npcs, sizeof(*rows));
	for (size_t i = 0; i < s->npcs; i++) {
		const struct sum_pc *pc = &s->pcs[i];
		const struct sum_place *pl = &s->places[pc->place];
		rows[i].record = o->node_record[pc->node];
		rows[i].addr = pl->object == SUM_NO_OBJECT
				       ? pl->addr
				       : SUM_OBJECT_BIAS(o->object_rank[pl->object]) + pl->addr;
		rows[i].samples = pc->samples;
	}
	qsort(rows, s->npcs, sizeof(*rows), pc_row_cmp);
	size_t size = SECTION_HEADER_SIZE + 8 + SUM_PC_SIZE * s->npcs;
	uint8_t *buf = xmalloc(size), *sec;
	struct sec_builder b = { buf, buf + size, 0 };
	sec = sec_begin(&b, SECTION_SUM_PCS);
	sec_put_u64(&b, s->npcs);
	for (size_t i = 0; i < s->npcs; i++) {
		sec_put_u32(&b, rows[i].record);
		sec_put_u32(&b, 0);
		sec_put_u64(&b, rows[i].addr);
		sec_put_u64(&b, rows[i].samples);
	}
	sec_end(&b, sec);
	free(rows);
	return flush_built(out, buf, &b);
}

static int write_thread(FILE *out, const struct profile_sum *s, const struct sum_order *o,
			size_t ncounters)
{
	size_t nfuncs = 0;
	for (size_t i = 0; i < s->nfuncs; i++)
		nfuncs += o->func_record[i] != 0;
	size_t size = SECTION_HEADER_SIZE + 48 +
		      CCT_RECORD_SIZE * (o->nrecords + nfuncs * CCT_FUNC_RECORDS);
	uint8_t *buf = xmalloc(size), *sec;
	struct sec_builder b = { buf, buf + size, 0 };

	sec = sec_begin(&b, SECTION_THREAD);
	sec_put_u32(&b, SUM_PID);
	sec_put_u32(&b, 0);
	sec_put_u32(&b, SUM_TID);
	sec_put_u32(&b, THREAD_CCT | s->sample_clocks);
	sec_put_u32(&b, CONTRACT_CLOCK_MONO);
	sec_put_u32(&b, (uint32_t)ncounters | s->counter_flags);
	sec_put_u64(&b, 0);
	sec_put_u64(&b, s->lost_events);
	sec_put_u64(&b, 0);
	for (size_t r = 0; r < o->nrecords; r++)
		put_path(&b, o, r);
	/* functions in their order: the records were numbered so */
	uint32_t *by_rank = xcalloc(s->nfuncs + 1, sizeof(*by_rank));
	for (size_t i = 0; i < s->nfuncs; i++)
		by_rank[o->func_rank[i]] = (uint32_t)i;
	for (size_t i = 0; i < s->nfuncs; i++)
		if (o->func_record[by_rank[i]])
			put_func(&b, o, by_rank[i]);
	free(by_rank);
	sec_end(&b, sec);
	return flush_built(out, buf, &b);
}

int sum_write(FILE *out, const struct profile_sum *s, const struct sum_origin *origin)
{
	struct sum_order o;
	uint8_t end[64];
	struct sec_builder b = { end, end + sizeof(end), 0 };
	int rc;

	order_build(s, &o);
	rc = data_write_header(out) || write_head(out, s, &o, origin) || write_pcs(out, s, &o) ||
	     write_thread(out, s, &o, origin->ncounters) ? -1 : 0;
	order_release(&o);
	if (rc)
		return -1;
	/* the process ended normally, when the sum's time runs out */
	uint8_t *sec = sec_begin(&b, SECTION_PROCESS_END);
	sec_put_u32(&b, SUM_PID);
	sec_put_u32(&b, 0);
	sec_put_u32(&b, PROCESS_END_EXIT);
	sec_put_u32(&b, 0);
	sec_put_u64(&b, s->span_ns);
	sec_put_u64(&b, s->span_ns);
	sec_end(&b, sec);
	if (fwrite(end, 1, (size_t)(b.p - end), out) != (size_t)(b.p - end))
		return -1;
	return data_write_end(out);
}
