#include "cli/load.h"

#include <stdlib.h>
#include <string.h>

#include "contract.h"
#include "die.h"
#include "formats/stream_reader.h"
#include "symbols/symtab.h"
#include "xalloc.h"

int64_t load_parse_id(const char *option, const char *value)
{
	char *end;
	long long v = strtoll(value, &end, 10);

	if (end == value || *end || v < 0 || v > UINT32_MAX)
		usage_die("%s wants a number, not '%s'", option, value);
	return v;
}

double load_ns_per_unit(const struct data_file *df)
{
	const struct data_session *s = &df->session;

	if (s->clock == CONTRACT_CLOCK_MONO)
		return 1.0;
	/* The launcher read both clocks before the program started and
	 * after it ended: their ratio over the whole run is the TSC rate. */
	if (s->tsc_end > s->tsc_start && s->mono_end > s->mono_start)
		return (double)(s->mono_end - s->mono_start) / (double)(s->tsc_end - s->tsc_start);
	return 1.0;
}

static uint64_t session_origin(const struct data_file *df)
{
	return df->session.clock == CONTRACT_CLOCK_MONO ? df->session.mono_start
							 : df->session.tsc_start;
}

uint64_t load_time_ns(const struct data_file *df, uint64_t units)
{
	uint64_t origin = session_origin(df);

	if (units <= origin)
		return 0;
	return (uint64_t)((double)(units - origin) * load_ns_per_unit(df) + 0.5);
}

/* Runtime address -> function index, per process image. */
struct addr_map {
	uint64_t *keys;
	uint32_t *values;
	size_t mask, used;
};

static void addr_map_init(struct addr_map *m)
{
	m->mask = 1023;
	m->used = 0;
	m->keys = xcalloc(m->mask + 1, sizeof(*m->keys));
	m->values = xcalloc(m->mask + 1, sizeof(*m->values));
}

static void addr_map_release(struct addr_map *m)
{
	free(m->keys);
	free(m->values);
}

static size_t addr_hash(uint64_t a, size_t mask)
{
	return (size_t)((a * 0x9E3779B97F4A7C15ull) >> 20) & mask;
}

static void addr_map_put(struct addr_map *m, uint64_t key, uint32_t value);

static void addr_map_grow(struct addr_map *m)
{
	struct addr_map old = *m;

	m->mask = m->mask * 2 + 1;
	m->used = 0;
	m->keys = xcalloc(m->mask + 1, sizeof(*m->keys));
	m->values = xcalloc(m->mask + 1, sizeof(*m->values));
	for (size_t i = 0; i <= old.mask; i++)
		if (old.values[i])
			addr_map_put(m, old.keys[i], old.values[i] - 1);
	addr_map_release(&old);
}

static void addr_map_put(struct addr_map *m, uint64_t key, uint32_t value)
{
	size_t h = addr_hash(key, m->mask);
	while (m->values[h] && m->keys[h] != key)
		h = (h + 1) & m->mask;
	if (!m->values[h])
		m->used++;
	m->keys[h] = key;
	m->values[h] = value + 1;
	if (m->used * 2 > m->mask)
		addr_map_grow(m);
}

static int addr_map_get(const struct addr_map *m, uint64_t key, uint32_t *value)
{
	size_t h = addr_hash(key, m->mask);
	while (m->values[h]) {
		if (m->keys[h] == key) {
			*value = m->values[h] - 1;
			return 1;
		}
		h = (h + 1) & m->mask;
	}
	return 0;
}

/* What resolving one process image's addresses needs. */
struct image_symbols {
	uint32_t pid, image;
	struct symtab *symtab;
	struct addr_map funcs;
};

static struct symtab *build_symtab(const struct data_file *df, uint32_t pid, uint32_t image,
				   struct load_stats *stats)
{
	struct symtab *st = symtab_new();

	for (size_t i = 0; i < df->nobjects; i++) {
		const struct data_object *o = &df->objects[i];
		if (o->pid != pid || o->image != image)
			continue;
		struct symtab_segment *segs = xcalloc(o->nseg, sizeof(*segs));
		for (size_t k = 0; k < o->nseg; k++) {
			segs[k].vaddr = o->segs[k].vaddr;
			segs[k].memsz = o->segs[k].memsz;
			segs[k].flags = o->segs[k].flags;
		}
		if (symtab_add_object(st, o->path, o->load_bias, o->build_id, o->build_id_len,
				      segs, o->nseg) != 0)
			stats->salvaged = 1;
		free(segs);
	}
	return st;
}

static uint32_t resolve(struct profile *p, struct image_symbols *is, uint64_t addr)
{
	uint32_t fn;
	struct symbol_info si;

	if (addr_map_get(&is->funcs, addr, &fn))
		return fn;
	symtab_lookup(is->symtab, addr, 0, &si);
	fn = profile_intern_func(p, si.name, si.object ? si.object : "", si.start, si.size,
				 NULL, 0);
	addr_map_put(&is->funcs, addr, fn);
	return fn;
}

static struct image_symbols *image_for(const struct data_file *df, struct image_symbols **images,
				       size_t *n, size_t *alloc, uint32_t pid, uint32_t image,
				       struct load_stats *stats)
{
	for (size_t i = 0; i < *n; i++)
		if ((*images)[i].pid == pid && (*images)[i].image == image)
			return &(*images)[i];
	ALLOC_GROW(*images, *n + 1, *alloc);
	struct image_symbols *is = &(*images)[(*n)++];
	is->pid = pid;
	is->image = image;
	is->symtab = build_symtab(df, pid, image, stats);
	addr_map_init(&is->funcs);
	return is;
}

static void replay_thread(const struct data_file *df, const struct data_thread *th,
			  struct profile *p, struct image_symbols *is, struct load_stats *stats)
{
	const struct data_process *pr = data_file_process(df, th->pid, th->image);
	double unit = load_ns_per_unit(df);
	struct thread_info info;
	struct stream_reader r;
	struct stream_event ev;
	int rc;

	memset(&info, 0, sizeof(info));
	info.pid = th->pid;
	info.image = th->image;
	info.tid = th->tid;
	info.flags = th->flags;
	info.lost_events = th->lost_events;
	info.start_ns = load_time_ns(df, th->start_time);
	struct thread_builder *b = profile_thread_begin(p, &info, pr->inner_x256 / 256.0 * unit,
							 pr->outer_x256 / 256.0 * unit);
	uint64_t end_ns = info.start_ns;
	int thread_ended = 0;

	stream_reader_init(&r, th->stream, th->stream_len, th->start_time);
	while ((rc = stream_reader_next(&r, &ev)) == 1) {
		uint64_t t = load_time_ns(df, ev.time);
		stats->events++;
		end_ns = t;
		switch (ev.kind) {
		case EVENT_ENTRY: profile_enter(b, resolve(p, is, ev.addr), t); break;
		case EVENT_OPEN_FRAME: profile_open_frame(b, resolve(p, is, ev.addr), t); break;
		case EVENT_EXIT: profile_exit(b, t, 0); break;
		case EVENT_EXIT_UNWOUND: profile_exit(b, t, 1); break;
		case EVENT_THREAD_END: thread_ended = 1; break;
		}
	}
	if (rc < 0) {
		warning("thread %u of process %u: data damaged at offset %llu (%s); "
			"using the events before it",
			th->tid, th->pid,
			(unsigned long long)(th->stream_offset + r.error_offset), r.error);
		stats->salvaged = 1;
	}
	/* Calls still open close when the process ended, if it ended
	 * normally; otherwise at the thread's last event. */
	if (pr->ended && !thread_ended) {
		uint64_t pend = load_time_ns(df, pr->end_time);
		if (pend > end_ns)
			end_ns = pend;
	}
	stream_reader_release(&r);
	profile_thread_end(b, end_ns);
}

struct profile *load_profile(const struct data_file *df, const struct load_filter *f,
			     struct load_stats *stats)
{
	struct profile *p = profile_new();
	struct image_symbols *images = NULL;
	size_t nimages = 0, images_alloc = 0;

	memset(stats, 0, sizeof(*stats));
	for (size_t i = 0; i < df->nthreads; i++) {
		const struct data_thread *th = &df->threads[i];
		if ((f->pid >= 0 && th->pid != f->pid) || (f->tid >= 0 && th->tid != f->tid))
			continue;
		struct image_symbols *is = image_for(df, &images, &nimages, &images_alloc,
						     th->pid, th->image, stats);
		replay_thread(df, th, p, is, stats);
	}
	for (size_t i = 0; i < nimages; i++) {
		symtab_free(images[i].symtab);
		addr_map_release(&images[i].funcs);
	}
	free(images);
	profile_find_cycles(p);
	return p;
}
