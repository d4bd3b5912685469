#include "model/sum.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

void sum_init(struct profile_sum *s)
{
	memset(s, 0, sizeof(*s));
	u64map_init(&s->loose_funcs);
	u64map_init(&s->children);
	u64map_init(&s->loose_places);
	u64map_init(&s->pc_index);
	ALLOC_GROW(s->nodes, 1, s->nodes_alloc);
	memset(&s->nodes[0], 0, sizeof(s->nodes[0]));
	s->nodes[0].func = UINT32_MAX;
	s->nodes[0].parent = UINT32_MAX;
	s->nnodes = 1;
}

void sum_release(struct profile_sum *s)
{
	for (size_t i = 0; i < s->nobjects; i++) {
		free(s->objects[i].path);
		free(s->objects[i].build_id);
		free(s->objects[i].segs);
		u64map_release(&s->objects[i].funcs);
		u64map_release(&s->objects[i].places);
	}
	free(s->objects);
	free(s->places);
	free(s->pcs);
	u64map_release(&s->loose_places);
	u64map_release(&s->pc_index);
	free(s->funcs);
	free(s->nodes);
	u64map_release(&s->loose_funcs);
	u64map_release(&s->children);
	memset(s, 0, sizeof(*s));
}

/* Orders two descriptions of one object: build ID, then segments. */
static int object_cmp(const uint8_t *id_a, size_t len_a, const struct sum_segment *seg_a,
		      size_t n_a, const uint8_t *id_b, size_t len_b,
		      const struct sum_segment *seg_b, size_t n_b)
{
	if (len_a != len_b)
		return len_a < len_b ? -1 : 1;
	int c = len_a ? memcmp(id_a, id_b, len_a) : 0;
	if (c)
		return c;
	if (n_a != n_b)
		return n_a < n_b ? -1 : 1;
	for (size_t i = 0; i < n_a; i++) {
		if (seg_a[i].vaddr != seg_b[i].vaddr)
			return seg_a[i].vaddr < seg_b[i].vaddr ? -1 : 1;
		if (seg_a[i].memsz != seg_b[i].memsz)
			return seg_a[i].memsz < seg_b[i].memsz ? -1 : 1;
		if (seg_a[i].flags != seg_b[i].flags)
			return seg_a[i].flags < seg_b[i].flags ? -1 : 1;
	}
	return 0;
}

static void object_set(struct sum_object *o, const uint8_t *build_id, size_t build_id_len,
		       const struct sum_segment *segs, size_t nseg)
{
	free(o->build_id);
	free(o->segs);
	o->build_id = build_id_len ? xmalloc(build_id_len) : NULL;
	if (build_id_len)
		memcpy(o->build_id, build_id, build_id_len);
	o->build_id_len = build_id_len;
	o->segs = xcalloc(nseg + 1, sizeof(*segs));
	memcpy(o->segs, segs, nseg * sizeof(*segs));
	o->nseg = nseg;
}

uint32_t sum_object(struct profile_sum *s, const char *path, const uint8_t *build_id,
		    size_t build_id_len, const struct sum_segment *segs, size_t nseg)
{
	/* a run loads a few dozen objects at most: a scan is enough */
	for (size_t i = 0; i < s->nobjects; i++) {
		struct sum_object *o = &s->objects[i];
		if (strcmp(o->path, path))
			continue;
		if (object_cmp(build_id, build_id_len, segs, nseg, o->build_id, o->build_id_len,
			       o->segs, o->nseg) < 0)
			object_set(o, build_id, build_id_len, segs, nseg);
		return (uint32_t)i;
	}
	ALLOC_GROW(s->objects, s->nobjects + 1, s->objects_alloc);
	struct sum_object *o = &s->objects[s->nobjects];
	memset(o, 0, sizeof(*o));
	o->path = xstrdup(path);
	object_set(o, build_id, build_id_len, segs, nseg);
	u64map_init(&o->funcs);
	u64map_init(&o->places);
	return (uint32_t)s->nobjects++;
}

uint32_t sum_func(struct profile_sum *s, uint32_t object, uint64_t addr)
{
	struct u64map *m = object == SUM_NO_OBJECT ? &s->loose_funcs : &s->objects[object].funcs;
	uint32_t f;

	if (u64map_get(m, addr, &f))
		return f;
	ALLOC_GROW(s->funcs, s->nfuncs + 1, s->funcs_alloc);
	struct sum_func *sf = &s->funcs[s->nfuncs];
	memset(sf, 0, sizeof(*sf));
	sf->object = object;
	sf->addr = addr;
	sf->min_ns = UINT64_MAX;
	sf->period_min_ns = UINT64_MAX;
	f = (uint32_t)s->nfuncs++;
	u64map_put(m, addr, f);
	return f;
}

static uint32_t sum_place(struct profile_sum *s, uint32_t object, uint64_t addr)
{
	struct u64map *m = object == SUM_NO_OBJECT ? &s->loose_places : &s->objects[object].places;
	uint32_t k;

	if (u64map_get(m, addr, &k))
		return k;
	ALLOC_GROW(s->places, s->nplaces + 1, s->places_alloc);
	s->places[s->nplaces] = (struct sum_place){ object, addr };
	k = (uint32_t)s->nplaces++;
	u64map_put(m, addr, k);
	return k;
}

void sum_pc_add(struct profile_sum *s, uint32_t node, uint32_t object, uint64_t addr,
		uint64_t samples)
{
	uint32_t place = sum_place(s, object, addr);
	uint64_t key = u64map_pair(node, place);
	uint32_t k;

	if (!u64map_get(&s->pc_index, key, &k)) {
		ALLOC_GROW(s->pcs, s->npcs + 1, s->pcs_alloc);
		s->pcs[s->npcs] = (struct sum_pc){ node, place, 0 };
		k = (uint32_t)s->npcs++;
		u64map_put(&s->pc_index, key, k);
	}
	s->pcs[k].samples += samples;
}

uint32_t sum_child(struct profile_sum *s, uint32_t parent, uint32_t func)
{
	uint64_t key = u64map_pair(parent, func);
	uint32_t n;

	if (u64map_get(&s->children, key, &n))
		return n;
	ALLOC_GROW(s->nodes, s->nnodes + 1, s->nodes_alloc);
	struct sum_node *node = &s->nodes[s->nnodes];
	memset(node, 0, sizeof(*node));
	node->func = func;
	node->parent = parent;
	n = (uint32_t)s->nnodes++;
	u64map_put(&s->children, key, n);
	return n;
}

void sum_func_add(struct sum_func *f, const struct sum_func *more)
{
	f->calls += more->calls;
	f->sum_ns += more->sum_ns;
	f->sum_sq_ns += more->sum_sq_ns;
	if (more->calls && more->min_ns < f->min_ns)
		f->min_ns = more->min_ns;
	if (more->calls && more->max_ns > f->max_ns)
		f->max_ns = more->max_ns;
	f->periods += more->periods;
	f->period_sum_ns += more->period_sum_ns;
	if (more->periods && more->period_min_ns < f->period_min_ns)
		f->period_min_ns = more->period_min_ns;
	if (more->periods && more->period_max_ns > f->period_max_ns)
		f->period_max_ns = more->period_max_ns;
	for (unsigned k = 0; k < CCT_FUNC_BUCKETS; k++)
		f->buckets[k] += more->buckets[k];
}

unsigned sum_bucket(uint64_t ns)
{
	unsigned k = 0;

	while (ns && k < CCT_FUNC_BUCKETS - 1) {
		ns >>= 1;
		k++;
	}
	return k;
}
