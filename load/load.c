#include "load/load.h"
#include "load/hook_cost.h"
#include "load/moved_code.h"
#include "load/unhooked_builds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "contract.h"
#include "sampling.h"
#include "stream.h"
#include "die.h"
#include "formats/cct_read.h"
#include "formats/patch_coverage.h"
#include "formats/stream_reader.h"
#include "model/aggregate.h"
#include "model/samples.h"
#include "model/thread_builder.h"
#include "saturate.h"
#include "symbols/demangle.h"
#include "symbols/symtab.h"
#include "symbols/unwind.h"
#include "u64map.h"
#include "xalloc.h"

enum signal_filter load_parse_signal_filter(const char *value)
{
	if (!strcmp(value, "separate"))
		return SIGNAL_SEPARATE;
	if (!strcmp(value, "exclude"))
		return SIGNAL_EXCLUDE;
	if (!strcmp(value, "none"))
		return SIGNAL_NONE;
	usage_die("--signal-filter wants separate, exclude or none, not '%s'", value);
}

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
	 * after it ended: their ratio over the whole run is the TSC rate.
	 * A rate no TSC has (below 1 MHz or above 1 THz) comes from a
	 * damaged session, and is not trusted to scale every time. */
	if (s->tsc_end > s->tsc_start && s->mono_end > s->mono_start) {
		double rate = (double)(s->mono_end - s->mono_start) /
			      (double)(s->tsc_end - s->tsc_start);
		if (rate >= 1e-3 && rate <= 1e3)
			return rate;
	}
	return 1.0;
}

static uint64_t session_origin(const struct data_file *df)
{
	return df->session.clock == CONTRACT_CLOCK_MONO ? df->session.mono_start
							 : df->session.tsc_start;
}

/* ns per clock unit in 32.32 fixed point: one multiply per event. */
static uint64_t unit_fixed(const struct data_file *df)
{
	return u64_round(load_ns_per_unit(df) * 4294967296.0);
}

static inline uint64_t units_to_ns(uint64_t origin, uint64_t unit_q32, uint64_t units)
{
	if (units <= origin)
		return 0;
	return (uint64_t)(((unsigned __int128)(units - origin) * unit_q32 + (1u << 31)) >> 32);
}

uint64_t load_time_ns(const struct data_file *df, uint64_t units)
{
	return units_to_ns(session_origin(df), unit_fixed(df), units);
}

/* What resolving one process image's addresses needs. */
struct image_symbols {
	uint32_t pid, image;
	struct symtab *symtab;
	struct u64map funcs;	/* runtime address -> function */
	const struct data_file *df;
	struct unwinder *unwinder;	/* made at the first DWARF sample */
	struct moved_code_map moved;	/* record --patch's moved entries */
	/* the image's objects whose entries record --patch patched, by
	 * their paths as loaded (owned) */
	char **patched;
	size_t npatched;
};

/* The image's DWARF unwinder, with every object the process had mapped. */
static struct unwinder *image_unwinder(struct image_symbols *is)
{
	if (is->unwinder)
		return is->unwinder;
	is->unwinder = unwinder_new();
	for (size_t i = 0; i < is->df->nobjects; i++) {
		const struct data_object *o = &is->df->objects[i];
		if (o->pid == is->pid && o->image == is->image)
			unwinder_add_object(is->unwinder, o->path, o->load_bias);
	}
	return is->unwinder;
}

/*
 * The runtime itself is loaded into every recorded process but never
 * profiled (its code is not instrumented): a rebuilt libcallscope.so is no
 * reason to distrust the recording.
 */
static int is_runtime_library(const char *path)
{
	const char *base = strrchr(path, '/');
	return !strcmp(base ? base + 1 : path, "libcallscope.so");
}

int load_symtab_add(struct symtab *st, const struct data_object *o, uint64_t bias)
{
	struct symtab_segment *segs = xcalloc(o->nseg, sizeof(*segs));

	for (size_t k = 0; k < o->nseg; k++) {
		segs[k].vaddr = o->segs[k].vaddr;
		segs[k].memsz = o->segs[k].memsz;
		segs[k].flags = o->segs[k].flags;
	}
	int rc = symtab_add_object(st, o->path, bias, o->build_id, o->build_id_len, segs, o->nseg);
	free(segs);
	return rc;
}

static struct symtab *build_symtab(const struct data_file *df, uint32_t pid, uint32_t image,
				   struct load_stats *stats)
{
	struct symtab *st = symtab_new();

	for (size_t i = 0; i < df->nobjects; i++) {
		const struct data_object *o = &df->objects[i];
		if (o->pid != pid || o->image != image || is_runtime_library(o->path))
			continue;
		if (load_symtab_add(st, o, o->load_bias) != 0)
			stats->salvaged = 1;
	}
	return st;
}

static uint32_t resolve(struct profile *p, struct image_symbols *is, uint64_t addr)
{
	uint32_t fn;
	struct symbol_info si;

	if (u64map_get(&is->funcs, addr, &fn))
		return fn;
	if (addr == CCT_OUTSIDE_ADDR) {
		fn = profile_intern_func(p, "<outside>", "", 0, 0, NULL, 0);
		u64map_put(&is->funcs, addr, fn);
		return fn;
	}
	if (addr >= SIGNAL_FRAME_BASE && addr < SIGNAL_FRAME_MAX) {
		char name[32];
		snprintf(name, sizeof(name), "<signal %u>", (unsigned)(addr - SIGNAL_FRAME_BASE));
		fn = profile_intern_func(p, name, "", 0, 0, NULL, 0);
		u64map_put(&is->funcs, addr, fn);
		return fn;
	}
	symtab_lookup(is->symtab, addr, 0, &si);
	char *shown = demangle_for_display(si.name);
	fn = profile_intern_symbol(p, si.name, shown, si.object ? si.object : "", si.start,
				   si.size, NULL, 0);
	free(shown);
	u64map_put(&is->funcs, addr, fn);
	return fn;
}

static void images_free(struct image_symbols *images, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		symtab_free(images[i].symtab);
		unwinder_free(images[i].unwinder);
		u64map_release(&images[i].funcs);
		moved_code_map_release(&images[i].moved);
		for (size_t k = 0; k < images[i].npatched; k++)
			free(images[i].patched[k]);
		free(images[i].patched);
	}
	free(images);
}

/* Whether paths A and B name one file: the loader's path of a library
 * (/lib/x86_64-linux-gnu/libz.so.1) and the one record --patch planned
 * it by, its real path (/usr/lib/x86_64-linux-gnu/libz.so.1.2.13). */
static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	if (!strcmp(a, b))
		return 1;
	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

/* Fills IS's list of patched objects, once: a sample's object is then
 * told patched by its path alone. */
static void find_patched(struct image_symbols *is)
{
	const struct data_file *df = is->df;

	is->patched = NULL;
	is->npatched = 0;
	for (size_t i = 0; i < df->nobjects; i++) {
		const struct data_object *o = &df->objects[i];
		if (o->pid != is->pid || o->image != is->image)
			continue;
		for (size_t k = 0; k < df->npatch; k++)
			if (df->patch[k].patched && patch_coverage_covers(&df->patch[k], is->image) &&
			    same_file(o->path, df->patch[k].path)) {
				is->patched = xrealloc(is->patched,
						       (is->npatched + 1) * sizeof(*is->patched));
				is->patched[is->npatched++] = xstrdup(o->path);
				break;
			}
	}
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
	u64map_init(&is->funcs);
	is->df = df;
	is->unwinder = NULL;
	moved_code_map_init(&is->moved, df, pid, image);
	find_patched(is);
	return is;
}

/* The visitor that builds the profile (below): the replay calls the
 * builder directly for entries and exits, nearly all of a trace, with no
 * indirect call and no hop through the visitor. */
struct build_state;
static void build_enter(void *ctx, uint32_t fn, uint64_t t);
static struct thread_builder *build_builder(struct build_state *s);

/*
 * The state of one thread's replay: its open calls (to close them at a
 * STOP and to say where a note happened), the stream's id -> function
 * cache, and the signal filter's bookkeeping.  A call can be hidden from
 * the visitor: the "<signal N>" pseudo-call under --signal-filter=none,
 * and everything inside it under exclude, whose duration is then taken
 * out of every later time (shift) so the interrupted call does not
 * count it.
 */
struct thread_replay {
	const struct replay_visitor *v;
	struct build_state *build;	/* V's context when V is the builder's, else NULL */
	struct profile *names;
	struct image_symbols *is;
	enum signal_filter signals;
	struct open_call {
		uint32_t func;
		uint32_t hidden;	/* not shown to the visitor */
		uint32_t library;	/* a library call (see library_exit()) */
		uint64_t start;		/* its entry's time as the visitor had it */
	} *open;
	size_t depth, alloc;
	size_t hidden;		/* how many of the open calls are hidden */
	size_t excluding;	/* depth of the excluded handler call, 0 if none */
	uint64_t exclude_start;
	uint64_t shift;
	uint32_t *by_id;	/* stream id -> function + 1; 0 = not cached */
	size_t by_id_alloc;
	uint32_t id_epoch;
	int traced;		/* the thread's calls are traced, not only sampled */
	/* what a library call's hooks cost beyond a compiler hook's, in
	 * 1/256 ns (library_exit()); 0, 0 when they cost the same */
	uint64_t library_inner_q, library_outer_q;
	uint64_t library_q;	/* taken out so far: shift holds its whole ns */
	uint64_t library_calls;	/* the library calls it was taken from */
	uint8_t *kinds;		/* by function: 0 not known yet, 1 with hooks,
				 * 2 a library function (function_is_library()) */
	size_t nkinds;
};

static int object_is_library(const struct image_symbols *is, const char *object);

/* Whether function FN's calls are library calls: it lies in an object
 * without hooks, so only a library call's hooks could have seen it. */
static __attribute__((noinline)) int function_kind(struct thread_replay *tr, uint32_t fn)
{
	if (fn >= tr->nkinds) {
		size_t n = tr->nkinds ? tr->nkinds : 256;
		while (n <= fn)
			n *= 2;
		tr->kinds = xrealloc(tr->kinds, n);
		memset(tr->kinds + tr->nkinds, 0, n - tr->nkinds);
		tr->nkinds = n;
	}
	tr->kinds[fn] = object_is_library(tr->is, tr->names->funcs[fn].object) ? 2 : 1;
	return tr->kinds[fn];
}

static inline int function_is_library(struct thread_replay *tr, uint32_t fn)
{
	if (!tr->library_inner_q && !tr->library_outer_q)
		return 0;
	if (__builtin_expect(fn < tr->nkinds && tr->kinds[fn], 1))
		return tr->kinds[fn] == 2;
	return function_kind(tr, fn) == 2;
}

/* Takes Q more (1/256 ns) out of every later time. */
static inline void library_take(struct thread_replay *tr, uint64_t q)
{
	uint64_t before = tr->library_q >> 8;

	tr->library_q += q;
	tr->shift += (tr->library_q >> 8) - before;
}

/*
 * A library call ends at T: the time its visitor sees.  A library call's
 * hooks cost more than a compiler hook's (a stub, an entry point of its
 * own), and every builder of numbers subtracts the compiler hooks' cost
 * from each call (model/hook_cost.h), so the rest is taken out here, of
 * the clock itself: the inner part of the difference from the call's
 * own interval, before its end, and the outer part after it, from the
 * caller's.  Its callers' inclusive times lose both, as they lose the
 * hooks of every call beneath them.  A call shorter than its part ends
 * where it began, and its caller loses the rest, as a call held at 0
 * does with the calibration's figure.
 */
static inline uint64_t library_exit(struct thread_replay *tr, const struct open_call *c,
				    uint64_t t)
{
	tr->library_calls++;
	library_take(tr, tr->library_inner_q);
	uint64_t end = t - tr->shift < c->start ? c->start : t - tr->shift;
	library_take(tr, tr->library_outer_q);
	return end;
}

/* The time call C's visitor sees for its exit at T. */
static inline uint64_t exit_time(struct thread_replay *tr, const struct open_call *c, uint64_t t)
{
	return __builtin_expect(c->library, 0) ? library_exit(tr, c, t) : t - tr->shift;
}

/* The function of an ENTRY decoded in id epoch EPOCH. */
static uint32_t entry_function(struct thread_replay *tr, uint32_t epoch,
			       const struct stream_event *ev)
{
	uint32_t fn;

	if (__builtin_expect(epoch != tr->id_epoch, 0)) {
		/* ids started again at a SYNC: forget what they meant */
		if (tr->by_id)
			memset(tr->by_id, 0, tr->by_id_alloc * sizeof(*tr->by_id));
		tr->id_epoch = epoch;
	}
	if (ev->id && ev->id < tr->by_id_alloc && tr->by_id[ev->id])
		return tr->by_id[ev->id] - 1;
	fn = resolve(tr->names, tr->is, ev->addr);
	if (ev->id) {
		if (ev->id >= tr->by_id_alloc) {
			size_t old = tr->by_id_alloc;
			ALLOC_GROW(tr->by_id, ev->id + 1, tr->by_id_alloc);
			memset(tr->by_id + old, 0, (tr->by_id_alloc - old) * sizeof(*tr->by_id));
		}
		tr->by_id[ev->id] = fn + 1;
	}
	return fn;
}

/* inline, as exit_call(): the replay's work on nearly every event */
static inline __attribute__((always_inline)) void
enter_call(struct thread_replay *tr, uint32_t fn, uint64_t addr, uint64_t t,
		       int already_open)
{
	int is_signal = addr - SIGNAL_FRAME_BASE < SIGNAL_FRAME_MAX - SIGNAL_FRAME_BASE;
	int hide = 0;

	ALLOC_GROW(tr->open, tr->depth + 1, tr->alloc);
	/* a signal handler's frame, or anything inside an excluded one: rare */
	if (__builtin_expect(is_signal || tr->excluding, 0)) {
		hide = tr->excluding || tr->signals != SIGNAL_SEPARATE;
		if (!tr->excluding && tr->signals == SIGNAL_EXCLUDE) {
			tr->excluding = tr->depth + 1;
			tr->exclude_start = t;
		}
	}
	tr->open[tr->depth++] = (struct open_call){ fn, (uint32_t)hide,
						     (uint32_t)(!already_open &&
								function_is_library(tr, fn)),
						     t - tr->shift };
	if (hide) {
		tr->hidden++;
		return;
	}
	if (already_open)
		tr->v->open_frame(tr->v->ctx, fn, t - tr->shift);
	else if (tr->build)
		thread_builder_enter(build_builder(tr->build), fn, t - tr->shift);
	else
		tr->v->enter(tr->v->ctx, fn, t - tr->shift);
}

static inline __attribute__((always_inline)) void
exit_call(struct thread_replay *tr, uint64_t t, enum exit_kind kind)
{
	if (!tr->depth)
		return;
	if (tr->open[--tr->depth].hidden) {
		tr->hidden--;
		if (tr->excluding == tr->depth + 1) {
			tr->excluding = 0;
			tr->shift += t - tr->exclude_start;
		}
		return;
	}
	uint64_t end = exit_time(tr, &tr->open[tr->depth], t);
	if (tr->build)
		thread_builder_exit(build_builder(tr->build), end, kind);
	else
		tr->v->exit(tr->v->ctx, end, kind);
}

/* Is ADDR in the runtime's own code, which build_symtab() leaves out? */
static int in_runtime_library(const struct image_symbols *is, uint64_t addr)
{
	for (size_t i = 0; i < is->df->nobjects; i++) {
		const struct data_object *o = &is->df->objects[i];
		if (o->pid != is->pid || o->image != is->image || !is_runtime_library(o->path))
			continue;
		for (size_t k = 0; k < o->nseg; k++)
			if (addr - (o->load_bias + o->segs[k].vaddr) < o->segs[k].memsz)
				return 1;
	}
	return 0;
}

/* Does the object at PATH call hooks: built with them, or its entries
 * patched by record --patch? */
static int object_hooked(const struct image_symbols *is, const char *path)
{
	for (size_t i = 0; i < is->npatched; i++)
		if (!strcmp(is->patched[i], path))
			return 1;
	return symtab_object_has_hooks(is->symtab, path);
}

/* Whether OBJECT's functions are library functions: in an object without
 * hooks, so only a library call's hooks could have seen them. */
static int object_is_library(const struct image_symbols *is, const char *object)
{
	return object && *object && !object_hooked(is, object);
}

/*
 * A sample of a trace: was its time seen by hooks, as a library call's
 * self time (the PC in an object without hooks, inside a call traced into
 * it through the PLT), or not at all?  A PC in the runtime, or in the
 * trampolines of record --patch around the moved instructions, is the
 * hooks' own cost, which the report already takes off as overhead: not
 * time in code without hooks.
 */
static void classify_sample(struct thread_replay *tr, const struct symbol_info *si,
			    uint64_t addr, uint64_t weight)
{
	enum unhooked_kind kind = UNHOOKED_UNSEEN;
	const char *object = si->in_object ? si->object : "";

	if ((si->in_object && object_hooked(tr->is, si->object)) ||
	    (!si->in_object && (in_runtime_library(tr->is, addr) ||
				moved_code_in_trampoline(&tr->is->moved, addr)))) {
		kind = UNHOOKED_HOOKED;
	} else if (tr->depth) {
		const struct func *top = &tr->names->funcs[tr->open[tr->depth - 1].func];
		if (object_is_library(tr->is, top->object))
			kind = UNHOOKED_SEEN;
	}
	tr->v->unhooked(tr->v->ctx, object, kind, weight);
}

/*
 * Whether the return addresses RETS[0..N), the frames beyond one of the
 * runtime's, are where it started the thread: C library code alone
 * (start_thread, clone3), which a trace never shows, so that the thread's
 * start routine is its first frame in both.  Beyond any other frame of the
 * runtime's, a stand-in the program called (pthread_create, sigprocmask,
 * the exec family), lie the program's callers, which a sample keeps.
 */
static int at_thread_start(const struct image_symbols *is, const uint64_t *rets, size_t n)
{
	struct symbol_info first;

	if (!n)
		return 1;
	symtab_lookup(is->symtab, rets[0] - 1, 0, &first);
	if (!first.in_object)
		return 0;
	for (size_t i = 1; i < n; i++) {
		struct symbol_info ri;
		symtab_lookup(is->symtab, rets[i] - 1, 0, &ri);
		if (!ri.in_object || strcmp(ri.object, first.object))
			return 0;
	}
	return 1;
}

/*
 * Resolves a sample's PC and return addresses and hands it to the visitor.
 * A return address is looked up one byte back so a call at the very end
 * of a function is charged to it, not to the next one.
 */
static void replay_sample(struct thread_replay *tr, const struct stream_event *ev,
			  uint64_t t)
{
	uint32_t funcs[SAMPLING_STACK_MAX + 1];
	uint64_t addrs[SAMPLING_STACK_MAX + 1];
	struct replay_sample s;
	struct symbol_info si;
	const uint8_t *p = ev->frames;
	/* a patched entry's moved instructions are the function's */
	uint64_t pc = moved_code_original(&tr->is->moved, ev->addr);

	memset(&s, 0, sizeof(s));
	s.time_ns = t - tr->shift;
	s.weight = ev->sample_weight;
	s.missed = ev->sample_missed;
	s.flags = ev->sample_flags;
	s.funcs = funcs;
	s.addrs = addrs;
	symtab_lookup(tr->is->symtab, pc, tr->v->sample_lines, &si);
	if (tr->v->unhooked && tr->traced)
		classify_sample(tr, &si, pc, ev->sample_weight);
	if (ev->sample_flags & SAMPLE_BACKGROUND)
		return;
	addrs[0] = pc;
	s.n = 1;
	if (!si.in_object) {
		s.outside = 1;
		funcs[0] = profile_intern_func(tr->names, "<outside>", "", 0, 0, NULL, 0);
		tr->v->sample(tr->v->ctx, &s);
		return;
	}
	s.file = si.file;
	s.line = si.line;
	funcs[0] = resolve(tr->names, tr->is, pc);
	/* the return addresses the runtime walked, then (DWARF methods) the
	 * ones unwound from the copy: from the PC, or from the caller of the
	 * last walked frame */
	uint64_t rets[SAMPLING_STACK_MAX];
	size_t nframes = 0;
	for (; nframes < ev->nframes; nframes++)
		/* the reader checked every varint of the list */
		if (stream_get_varint(&p, p + 10, &rets[nframes]))
			break;
	if (ev->stack_copy) {
		int truncated;
		uint64_t from = nframes ? rets[nframes - 1] : pc;
		nframes += unwinder_unwind(image_unwinder(tr->is), from, ev->sample_sp,
					   ev->sample_bp, ev->stack_copy, ev->stack_copy_len,
					   rets + nframes, SAMPLING_STACK_MAX - nframes, &truncated);
		if (truncated)
			s.flags |= SAMPLE_TRUNCATED;
	}
	for (size_t i = 0; i < nframes; i++) {
		uint64_t ret = rets[i];
		struct symbol_info ri;
		symtab_lookup(tr->is->symtab, ret - 1, 0, &ri);
		if (!ri.in_object && in_runtime_library(tr->is, ret - 1) &&
		    !at_thread_start(tr->is, rets + i + 1, nframes - i - 1))
			continue;
		if (!ri.in_object)
			break;
		addrs[s.n] = ret;
		funcs[s.n++] = resolve(tr->names, tr->is, ret - 1);
	}
	tr->v->sample(tr->v->ctx, &s);
}

/* The innermost call the visitor sees, for a note. */
static uint32_t visible_top(const struct thread_replay *tr)
{
	for (size_t i = tr->depth; i; i--)
		if (!tr->open[i - 1].hidden)
			return tr->open[i - 1].func;
	return FUNC_NONE;
}

static enum replay_note_kind note_kind(enum stream_event_kind k)
{
	switch (k) {
	case EVENT_MARK: return NOTE_MARK;
	case EVENT_MARK_STR: return NOTE_MARK_STR;
	case EVENT_TASK: return NOTE_TASK;
	case EVENT_STOP: return NOTE_STOP;
	default: return NOTE_SIGNAL;
	}
}

static void count_note(struct load_stats *stats, enum stream_event_kind k)
{
	stats->marks += k == EVENT_MARK || k == EVENT_MARK_STR;
	stats->tasks += k == EVENT_TASK;
	stats->signals += k == EVENT_SIGNAL;
	stats->stops += k == EVENT_STOP;
}

/*
 * Where decoding starts in a stream that holds RESET records: right after
 * the last one, where the runtime wrote a SYNC.  A damaged stream is
 * decoded from the last reset found before the damage.
 */
static size_t after_last_reset(const struct data_thread *th, unsigned ncounters)
{
	struct stream_reader r;
	struct stream_event ev;
	size_t from = 0;

	stream_reader_init(&r, th->stream, th->stream_len, th->start_time, ncounters);
	while (stream_reader_next(&r, &ev) == 1)
		if (ev.kind == EVENT_RESET)
			from = (size_t)(r.p - r.start);
	stream_reader_release(&r);
	return from;
}

/* Decodes a varint of one or two bytes at *PP, which has room for both;
 * returns -1 for a longer one, left to the reader. */
static inline int short_varint(const uint8_t **pp, uint64_t *out)
{
	const uint8_t *p = *pp;

	if (p[0] < 0x80) {
		*out = p[0];
		*pp = p + 1;
		return 0;
	}
	if (p[1] < 0x80) {
		*out = (uint64_t)(p[0] & 0x7f) | (uint64_t)p[1] << 7;
		*pp = p + 2;
		return 0;
	}
	return -1;
}

/*
 * The replay's loop for the records that make up nearly all of a trace,
 * when the profile builder is the visitor and nothing is hidden from it:
 * an EXIT of a call that is open, and an ENTRY of an id already resolved
 * in this id epoch that is no signal handler's frame, each with its varints
 * of one or two bytes.  Decoding, the replay's work and the builder's run
 * in one loop with no call in it, the replay's state in locals.  Stops at
 * the first record it does not take, before it, for the general loop to
 * decode with stream_reader_next() (which accepts and rejects the same
 * input: see stream_reader_next_quick()), and returns how many events it
 * took; *END_NS is the last one's time.  EXTRAS is what the builder is to
 * do besides (model/thread_builder.h), a constant in each instance below.
 */
static inline __attribute__((always_inline)) uint64_t
replay_quick_as(struct thread_replay *tr, struct stream_reader *r, uint64_t origin,
		uint64_t unit_q32, uint64_t *end_ns, unsigned extras)
{
	struct thread_builder *b = build_builder(tr->build);
	const uint8_t *p = r->p;
	const uint8_t *const limit = (const uint8_t *)r->quick_limit;
	const uint32_t *const by_id = tr->by_id;
	const size_t by_id_alloc = tr->by_id_alloc;
	const uint64_t *const addrs = r->addrs;
	struct open_call *open = tr->open;
	size_t depth = tr->depth, alloc = tr->alloc;
	uint64_t time = r->time, events = 0, t = 0;

	while (p <= limit) {
		const uint8_t *q = p;
		uint64_t v, delta;
		uint32_t fn = 0;

		if (short_varint(&q, &v))
			break;
		if ((v & 3) == STREAM_EXIT) {
			if (!depth)
				break;
			delta = v >> 2;
		} else {
			uint64_t id = v >> 2;
			if ((v & 3) != STREAM_ENTRY || id >= by_id_alloc || !by_id[id] ||
			    addrs[id] - SIGNAL_FRAME_BASE < SIGNAL_FRAME_MAX - SIGNAL_FRAME_BASE ||
			    short_varint(&q, &delta))
				break;
			fn = by_id[id] - 1;
		}
		if (time + delta < time)
			break;
		time += delta;
		t = units_to_ns(origin, unit_q32, time);
		if ((v & 3) == STREAM_EXIT) {
			depth--;
			thread_builder_pop_as(b, thread_builder_clamp(b, exit_time(tr, &open[depth], t)),
					      CLOSE_RETURN, extras);
		} else {
			ALLOC_GROW(open, depth + 1, alloc);
			uint64_t start = thread_builder_clamp(b, t - tr->shift);
			open[depth++] = (struct open_call){ fn, 0, (uint32_t)function_is_library(tr, fn),
							    start };
			thread_builder_push_as(b, fn, start, 1, extras);
		}
		p = q;
		events++;
	}
	tr->open = open;
	tr->depth = depth;
	tr->alloc = alloc;
	if (events) {
		r->p = p;
		r->time = time;
		*end_ns = t;
	}
	return events;
}

/* The loop for a profile that asks for nothing besides times and counts
 * (the text report), and the one for anything else. */
static __attribute__((noinline)) uint64_t
replay_quick_lean(struct thread_replay *tr, struct stream_reader *r, uint64_t origin,
		  uint64_t unit_q32, uint64_t *end_ns)
{
	return replay_quick_as(tr, r, origin, unit_q32, end_ns, 0);
}

static __attribute__((noinline)) uint64_t
replay_quick_full(struct thread_replay *tr, struct stream_reader *r, uint64_t origin,
		  uint64_t unit_q32, uint64_t *end_ns)
{
	return replay_quick_as(tr, r, origin, unit_q32, end_ns, BUILDER_ALL);
}

static uint64_t replay_quick(struct thread_replay *tr, struct stream_reader *r, uint64_t origin,
			     uint64_t unit_q32, uint64_t *end_ns)
{
	if (tr->hidden || tr->id_epoch != r->id_epoch)
		return 0;
	if (thread_builder_extras(build_builder(tr->build)))
		return replay_quick_full(tr, r, origin, unit_q32, end_ns);
	return replay_quick_lean(tr, r, origin, unit_q32, end_ns);
}

/*
 * Replays one thread's stream into V.  The stream's own small function ids
 * index a table of resolved functions, so each address is symbolized once
 * and each entry costs an array read.
 */
static void replay_thread(const struct data_file *df, const struct data_thread *th,
			  const struct load_filter *f, struct profile *names,
			  struct image_symbols *is, const struct replay_visitor *v,
			  struct load_stats *stats)
{
	const struct data_process *pr = data_file_process(df, th->pid, th->image);
	const uint64_t unit_q32 = unit_fixed(df);
	const uint64_t origin = session_origin(df);
	struct thread_replay tr = { .v = v, .names = names, .is = is, .signals = f->signals,
				    .build = v->enter == build_enter ? v->ctx : NULL,
				    .traced = df->session.mode != DATA_MODE_SAMPLE };
	struct thread_info info;
	struct stream_reader r;
	struct stream_event ev;
	struct replay_note note;
	uint64_t open_frames = 0, events = 0;
	int thread_ended = 0, rc;

	memset(&info, 0, sizeof(info));
	info.pid = th->pid;
	info.image = th->image;
	info.tid = th->tid;
	info.flags = th->flags;
	info.lost_events = th->lost_events;
	info.counter_info = th->counter_info;
	info.start_ns = load_time_ns(df, th->start_time);
	struct hook_cost_choice cost;
	hook_cost_of_process(df, pr, &cost);
	info.hooks_in_place = cost.in_place;
	if (tr.traced) {
		tr.library_inner_q = hook_cost_q(cost.library_inner_ns - cost.inner_ns);
		tr.library_outer_q = hook_cost_q(cost.library_outer_ns - cost.outer_ns);
	}
	v->thread_begin(v->ctx, &info, cost.inner_ns, cost.outer_ns);
	uint64_t end_ns = info.start_ns;

	unsigned ncounters = th->counter_info & THREAD_COUNTERS_MASK;
	const int want_counters = ncounters && v->counters;
	size_t from = th->flags & THREAD_HAS_RESET ? after_last_reset(th, ncounters) : 0;
	stream_reader_init(&r, th->stream + from, th->stream_len - from, th->start_time, ncounters);
	for (;;) {
		if (tr.build && !want_counters)
			events += replay_quick(&tr, &r, origin, unit_q32, &end_ns);
		if ((rc = stream_reader_next_quick(&r, &ev)) != 1)
			break;
		uint64_t t = units_to_ns(origin, unit_q32, ev.time);

		events++;
		end_ns = t;
		if (__builtin_expect(want_counters, 0) && ev.kind <= EVENT_OPEN_FRAME)
			v->counters(v->ctx, ev.counters);
		switch (ev.kind) {
		case EVENT_ENTRY:
			enter_call(&tr, entry_function(&tr, r.id_epoch, &ev), ev.addr, t, 0);
			break;
		case EVENT_OPEN_FRAME:
			open_frames++;
			enter_call(&tr, resolve(names, is, ev.addr), ev.addr, t, 1);
			break;
		case EVENT_EXIT:
			exit_call(&tr, t, EXIT_RETURN);
			break;
		case EVENT_EXIT_UNWOUND:
			exit_call(&tr, t, EXIT_UNWOUND);
			break;
		case EVENT_EXIT_THROWN:
			exit_call(&tr, t, EXIT_THROWN);
			break;
		case EVENT_RESET:
			/* only the last reset matters, and decoding began after it */
			break;
		case EVENT_THREAD_END:
			thread_ended = 1;
			break;
		case EVENT_SAMPLE:
			if (v->sample && !tr.excluding)
				replay_sample(&tr, &ev, t);
			break;
		case EVENT_STOP:
			while (tr.depth)
				exit_call(&tr, t, EXIT_STOPPED);
			/* the stop itself is a note */
			__attribute__((fallthrough));
		case EVENT_MARK:
		case EVENT_MARK_STR:
		case EVENT_TASK:
		case EVENT_SIGNAL:
			count_note(stats, ev.kind);
			if (!v->note || tr.excluding)
				break;
			memset(&note, 0, sizeof(note));
			note.kind = note_kind(ev.kind);
			note.time_ns = t - tr.shift;
			note.value = ev.value;
			note.text = (const char *)ev.text;
			note.text_len = ev.text_len;
			note.func = visible_top(&tr);
			v->note(v->ctx, &note);
			break;
		}
	}
	stats->events += events;
	if (rc < 0) {
		warning("thread %u of process %u: data damaged at offset %llu (%s); "
			"using the events before it",
			th->tid, th->pid,
			(unsigned long long)(th->stream_offset + from + r.error_offset), r.error);
		stats->salvaged = 1;
	}
	/* Calls still open close when the process ended, if it recorded
	 * its end (an exit, or an exec the next image recorded); otherwise
	 * at the thread's last event.  That end is a reading of the real
	 * clock, and the thread's clock had left out its pauses by then. */
	if (pr->ended && !thread_ended) {
		uint64_t end_units = th->paused < pr->end_time ? pr->end_time - th->paused : 0;
		uint64_t pend = load_time_ns(df, end_units);
		if (pend > end_ns)
			end_ns = pend;
	}
	/* a ring keeps the newest records: the rest were overwritten.  The
	 * runtime counted each SYNC as one record; the calls a SYNC reports
	 * open are not records of their own. */
	uint64_t records = events - open_frames + r.syncs;
	if ((th->flags & THREAD_RING) && th->events_written > records && v->note) {
		memset(&note, 0, sizeof(note));
		note.kind = NOTE_OVERWRITTEN;
		note.time_ns = end_ns - tr.shift;
		note.value = th->events_written - records;
		note.func = FUNC_NONE;
		v->note(v->ctx, &note);
	}
	if (tr.excluding)
		tr.shift += end_ns - tr.exclude_start;
	/* the library calls' extra cost is subtracted too (library_exit()) */
	if (tr.build)
		profile_thread_library_cost(build_builder(tr.build), tr.library_q,
					    tr.library_calls);
	else if (v->library_cost)
		v->library_cost(v->ctx, tr.library_q, tr.library_calls);
	free(tr.open);
	free(tr.by_id);
	free(tr.kinds);
	stream_reader_release(&r);
	v->thread_end(v->ctx, end_ns - tr.shift);
}

static void ignore_begin(void *ctx, const struct thread_info *info, double inner_ns,
			 double outer_ns)
{
	(void)ctx, (void)info, (void)inner_ns, (void)outer_ns;
}

static void ignore_call(void *ctx, uint32_t func, uint64_t time_ns)
{
	(void)ctx, (void)func, (void)time_ns;
}

static void ignore_exit(void *ctx, uint64_t time_ns, int kind)
{
	(void)ctx, (void)time_ns, (void)kind;
}

static void ignore_end(void *ctx, uint64_t end_ns)
{
	(void)ctx, (void)end_ns;
}

/* V, its thread and call callbacks left NULL doing nothing: the replay
 * then calls each without testing it on every event. */
static struct replay_visitor visitor_complete(const struct replay_visitor *v)
{
	struct replay_visitor full = *v;

	full.thread_begin = full.thread_begin ? full.thread_begin : ignore_begin;
	full.enter = full.enter ? full.enter : ignore_call;
	full.open_frame = full.open_frame ? full.open_frame : ignore_call;
	full.exit = full.exit ? full.exit : ignore_exit;
	full.thread_end = full.thread_end ? full.thread_end : ignore_end;
	return full;
}

/* Whether F selects thread TH. */
static int thread_selected(const struct data_thread *th, const struct load_filter *f)
{
	return (f->pid < 0 || th->pid == f->pid) && (f->tid < 0 || th->tid == f->tid) &&
	       (!f->by_image || th->image == f->image);
}

/* Whether F selects a thread of process image PR. */
static int process_selected(const struct data_file *df, const struct data_process *pr,
			    const struct load_filter *f)
{
	if (f->pid < 0 && f->tid < 0 && !f->by_image)
		return 1;	/* those without a thread too */
	for (size_t i = 0; i < df->nthreads; i++)
		if (df->threads[i].pid == pr->pid && df->threads[i].image == pr->image &&
		    thread_selected(&df->threads[i], f))
			return 1;
	return 0;
}

void load_replay(const struct data_file *df, const struct load_filter *f,
		 struct profile *names, const struct replay_visitor *given, struct load_stats *stats)
{
	const struct replay_visitor full = visitor_complete(given), *v = &full;
	struct image_symbols *images = NULL;
	size_t nimages = 0, images_alloc = 0;

	memset(stats, 0, sizeof(*stats));
	for (size_t i = 0; i < df->nthreads; i++) {
		const struct data_thread *th = &df->threads[i];
		if (!thread_selected(th, f))
			continue;
		/* aggregate-mode threads have no events: load_aggregates() */
		if (th->flags & THREAD_CCT)
			continue;
		struct image_symbols *is = image_for(df, &images, &nimages, &images_alloc,
						     th->pid, th->image, stats);
		replay_thread(df, th, f, names, is, v, stats);
	}
	images_free(images, nimages);
}

/* resolve() as cct_thread_to_aggregate() calls it. */
struct resolver {
	struct profile *names;
	struct image_symbols *is;
};

static uint32_t resolve_addr(void *ctx, uint64_t addr)
{
	struct resolver *r = ctx;
	return resolve(r->names, r->is, addr);
}

/* Marks AT's paths whose calls were library calls, by the objects of
 * their addresses in CT as IS tells them, and gives AT the library
 * calls' extra cost from COST, which the replay of a trace takes out of
 * the clock (library_exit()).  Whatever COST's count of library calls:
 * it covers the threads that ended before the process, and one still
 * running at exit may have made them all. */
static void mark_library_calls(const struct cct_thread *ct, struct image_symbols *is,
			       const struct hook_cost_choice *cost, struct aggregate_thread *at)
{
	at->library_inner_ns = cost->library_inner_ns - cost->inner_ns;
	at->library_outer_ns = cost->library_outer_ns - cost->outer_ns;
	if (at->library_inner_ns + at->library_outer_ns <= 0)
		return;
	for (size_t i = 1; i < ct->npaths; i++) {
		struct symbol_info si;
		uint64_t addr = ct->paths[i].addr;
		if (addr == CCT_TRUNCATED_ADDR || at->nodes[i].signal)
			continue;
		symtab_lookup(is->symtab, addr, 0, &si);
		at->nodes[i].library = si.in_object && object_is_library(is, si.object);
	}
}

/*
 * Reads an aggregate-mode thread's records into AT, in ns, naming their
 * functions by FUNC_OF(CTX, ADDR) in NAMES (where <truncated> is interned)
 * and telling library calls apart by the symbols of IS.  Calls still
 * running when the data ended are closed at the process's end (or the
 * recording's).  Returns 0, or -1 after a warning when the records are
 * damaged.
 */
static int read_aggregate(const struct data_file *df, const struct data_thread *th,
			  struct image_symbols *is, struct profile *names,
			  uint32_t (*func_of)(void *ctx, uint64_t addr), void *ctx,
			  struct aggregate_thread *at, uint64_t *end_units)
{
	const struct data_process *pr = data_file_process(df, th->pid, th->image);
	const double unit = load_ns_per_unit(df);
	struct cct_thread ct;
	const char *why;

	memset(at, 0, sizeof(*at));
	*end_units = pr->ended ? pr->end_time
		     : df->session.clock == CONTRACT_CLOCK_MONO ? df->session.mono_end
								: df->session.tsc_end;
	if (df->version_minor < 2) {
		warning("thread %u of process %u: its call paths are in the layout of format "
			"1.%u, which this callscope no longer reads; record the program again",
			th->tid, th->pid, df->version_minor);
		return -1;
	}
	if (cct_thread_parse(th->stream, th->stream_len, th->counter_info & THREAD_COUNTERS_MASK,
			     *end_units, &ct, &why) != 0) {
		warning("thread %u of process %u: call paths damaged (%s); the thread is left out",
			th->tid, th->pid, why);
		return -1;
	}
	struct hook_cost_choice cost;
	hook_cost_of_process(df, pr, &cost);
	cct_thread_to_aggregate(&ct, unit, cost.inner_ns, cost.outer_ns, names, func_of, ctx, at);
	if (!ct.sample_period_ns)
		mark_library_calls(&ct, is, &cost, at);
	cct_thread_release(&ct);
	return 0;
}

/* Whether F selects aggregate-mode thread TH. */
static int aggregate_selected(const struct data_thread *th, const struct load_filter *f)
{
	return (th->flags & THREAD_CCT) && thread_selected(th, f);
}

static void aggregate_info(const struct data_file *df, const struct data_thread *th,
			   uint64_t end, struct thread_info *info)
{
	memset(info, 0, sizeof(*info));
	info->pid = th->pid;
	info->image = th->image;
	info->tid = th->tid;
	info->flags = th->flags;
	info->lost_events = th->lost_events;
	info->counter_info = th->counter_info;
	info->start_ns = load_time_ns(df, th->start_time);
	info->end_ns = load_time_ns(df, end);
}

void load_aggregates(const struct data_file *df, const struct load_filter *f,
		     struct profile *names, aggregate_fn fn, void *ctx,
		     struct load_stats *stats)
{
	struct image_symbols *images = NULL;
	size_t nimages = 0, images_alloc = 0;

	for (size_t i = 0; i < df->nthreads; i++) {
		const struct data_thread *th = &df->threads[i];
		struct aggregate_thread at;
		struct thread_info info;
		uint64_t end;

		if (!aggregate_selected(th, f))
			continue;
		struct resolver r = { names, image_for(df, &images, &nimages, &images_alloc,
						       th->pid, th->image, stats) };
		if (read_aggregate(df, th, r.is, names, resolve_addr, &r, &at, &end) != 0) {
			stats->salvaged = 1;
			continue;
		}
		if (f->signals != SIGNAL_SEPARATE)
			at.nnodes = aggregate_filter_signals(at.nodes, at.nnodes,
							     f->signals == SIGNAL_EXCLUDE);
		aggregate_info(df, th, end, &info);
		fn(ctx, &info, &at);
		free(at.nodes);
		free(at.funcs);
	}
	images_free(images, nimages);
}

/* load_sum_samples() as load_aggregates() hands it each thread. */
struct sum_samples {
	const struct data_file *df;
	const struct replay_visitor *v;
	struct profile *names;
	struct image_symbols *images;
	size_t nimages, images_alloc;
	struct load_stats *stats;
};

/* The SUM_PCS records of a sum's thread INFO, whose paths are AT's. */
static void sum_thread_samples(void *ctx, const struct thread_info *info,
			       const struct aggregate_thread *at)
{
	struct sum_samples *ss = ctx;
	const struct data_sum *sum = &ss->df->sum;
	struct image_symbols *is = image_for(ss->df, &ss->images, &ss->nimages,
					     &ss->images_alloc, info->pid, info->image, ss->stats);
	uint32_t *funcs = xcalloc(at->nnodes + 1, sizeof(*funcs));
	uint64_t *addrs = xcalloc(at->nnodes + 1, sizeof(*addrs));

	ss->v->thread_begin(ss->v->ctx, info, 0, 0);
	for (size_t i = 0; i < sum->npcs; i++) {
		struct data_sum_pc pc;
		struct replay_sample smp;
		struct symbol_info si;

		sum_pc_at(sum, i, &pc);
		if (pc.path == 0 || pc.path >= at->nnodes) {
			warning("thread %u of process %u: its samples by PC name call path %u of %zu "
				"(damaged); the rest of them are left out",
				info->tid, info->pid, pc.path, at->nnodes);
			ss->stats->salvaged = 1;
			break;
		}
		memset(&smp, 0, sizeof(smp));
		smp.weight = pc.samples;
		smp.funcs = funcs;
		smp.addrs = addrs;
		/* parents are below their children: the walk ends at the root */
		for (uint32_t k = pc.path; k != 0; k = at->nodes[k].parent) {
			funcs[smp.n] = at->nodes[k].func;
			addrs[smp.n++] = ss->names->funcs[at->nodes[k].func].addr;
		}
		addrs[0] = pc.pc;
		if (pc.pc == CCT_OUTSIDE_ADDR) {
			smp.outside = 1;
			smp.n = 1;
		} else {
			symtab_lookup(is->symtab, pc.pc, ss->v->sample_lines, &si);
			smp.file = si.file;
			smp.line = si.line;
		}
		ss->v->sample(ss->v->ctx, &smp);
	}
	ss->v->thread_end(ss->v->ctx, info->end_ns);
	free(funcs);
	free(addrs);
}

void load_sum_samples(const struct data_file *df, const struct load_filter *f,
		      struct profile *names, const struct replay_visitor *given,
		      struct load_stats *stats)
{
	const struct replay_visitor v = visitor_complete(given);
	/* the records number the paths as written: none filtered out */
	struct load_filter paths = *f;
	struct sum_samples ss = { df, &v, names, NULL, 0, 0, stats };

	if (!df->sum.have_pcs || !v.sample)
		return;
	paths.signals = SIGNAL_SEPARATE;
	load_aggregates(df, &paths, names, sum_thread_samples, &ss, stats);
	images_free(ss.images, ss.nimages);
}

/* FUNC_OF of load_aggregates_by_address() as read_aggregate() calls it. */
struct by_address {
	load_addr_fn func_of;
	void *ctx;
	const struct data_thread *th;
};

static uint32_t name_by_address(void *ctx, uint64_t addr)
{
	struct by_address *b = ctx;
	return b->func_of(b->ctx, b->th, addr);
}

void load_aggregates_by_address(const struct data_file *df, load_addr_fn func_of,
				aggregate_fn fn, void *ctx, struct load_stats *stats)
{
	const struct load_filter all = { -1, -1, 0, 0, SIGNAL_SEPARATE };
	struct image_symbols *images = NULL;
	size_t nimages = 0, images_alloc = 0;

	for (size_t i = 0; i < df->nthreads; i++) {
		const struct data_thread *th = &df->threads[i];
		struct by_address b = { func_of, ctx, th };
		struct profile *scratch = profile_new();
		struct aggregate_thread at;
		struct thread_info info;
		uint64_t end;

		if (!aggregate_selected(th, &all))
			continue;
		struct image_symbols *is = image_for(df, &images, &nimages, &images_alloc,
						     th->pid, th->image, stats);
		if (read_aggregate(df, th, is, scratch, name_by_address, &b, &at, &end) != 0) {
			stats->salvaged = 1;
			profile_free(scratch);
			continue;
		}
		/* node 1 is always <truncated>, which was named in SCRATCH */
		if (at.nnodes > 1)
			at.nodes[1].func = func_of(ctx, th, CCT_TRUNCATED_ADDR);
		profile_free(scratch);
		aggregate_info(df, th, end, &info);
		fn(ctx, &info, &at);
		free(at.nodes);
		free(at.funcs);
	}
	images_free(images, nimages);
}

static void add_to_profile(void *ctx, const struct thread_info *info,
			   const struct aggregate_thread *at)
{
	profile_add_aggregate(ctx, info, at);
}

/* The visitor that builds the profile's numbers. */
struct build_state {
	struct profile *p;
	struct thread_builder *b;
};

static void build_begin(void *ctx, const struct thread_info *info, double inner, double outer)
{
	struct build_state *s = ctx;
	s->b = profile_thread_begin(s->p, info, inner, outer);
}

static struct thread_builder *build_builder(struct build_state *s)
{
	return s->b;
}

static void build_enter(void *ctx, uint32_t fn, uint64_t t)
{
	profile_enter(((struct build_state *)ctx)->b, fn, t);
}

static void build_open(void *ctx, uint32_t fn, uint64_t t)
{
	profile_open_frame(((struct build_state *)ctx)->b, fn, t);
}

static void build_exit(void *ctx, uint64_t t, int kind)
{
	profile_exit(((struct build_state *)ctx)->b, t, (enum exit_kind)kind);
}

static void build_counters(void *ctx, const uint64_t values[CONTRACT_COUNTERS_MAX])
{
	profile_counters(((struct build_state *)ctx)->b, values);
}

static void build_note(void *ctx, const struct replay_note *n)
{
	if (n->kind == NOTE_OVERWRITTEN)
		profile_thread_overwritten(((struct build_state *)ctx)->b, n->value);
}

static void build_sample(void *ctx, const struct replay_sample *s)
{
	profile_add_sample(((struct build_state *)ctx)->p, s->funcs, s->n, s->weight, s->flags,
			   s->outside, s->missed);
}

static void build_unhooked(void *ctx, const char *object, enum unhooked_kind kind,
			   uint64_t weight)
{
	unhooked_add(&((struct build_state *)ctx)->p->unhooked, object, kind, weight);
}

static void build_end(void *ctx, uint64_t t)
{
	struct build_state *s = ctx;
	profile_thread_end(s->b, t);
	s->b = NULL;
}

void load_process_figures(const struct data_file *df, const struct load_filter *f,
			  struct profile *p)
{
	int first = 1;

	for (size_t i = 0; i < df->nprocesses; i++) {
		/* the processes whose threads the profile holds, and only
		 * those: a forked child's report --thread is not its parent's */
		if (!process_selected(df, &df->processes[i], f))
			continue;
		const struct data_hook_samples *hs = &df->processes[i].hook_samples;
		p->samples_in_hooks += hs->inner + hs->outer + hs->unsure + hs->library_inner +
				       hs->library_outer + hs->library_unsure;
		/* the process's running and waiting are its main thread's:
		 * not another thread's, when one is asked for */
		if (f->tid < 0 || f->tid == df->processes[i].pid) {
			p->run_cpu_ns += df->processes[i].run_cpu_ns;
			p->run_wait_ns += df->processes[i].run_wait_ns;
			p->run_wait_left_out_ns += df->processes[i].run_wait_left_out_ns;
			if (!df->processes[i].waits_left_out)
				p->run_wait_unseen_ns += df->processes[i].run_wait_ns;
		}
		/* where the figure came from: the first process's says it for
		 * the profile, unless another one's was measured in place (the
		 * figures themselves are means over all calls:
		 * profile_overhead_summed()) */
		struct hook_cost_choice cost;
		hook_cost_of_process(df, &df->processes[i], &cost);
		if (first || (cost.in_place && !p->overhead_in_place)) {
			first = 0;
			p->overhead_in_place = cost.in_place;
			p->overhead_samples = cost.samples;
			p->overhead_rel_error = cost.rel_error;
			p->overhead_calibrated_ns = cost.calibrated_ns;
		}
	}
}

struct profile *load_profile(const struct data_file *df, const struct load_filter *f,
			     struct load_stats *stats)
{
	struct profile *p = profile_new();

	load_profile_into(p, df, f, stats);
	return p;
}

void load_profile_into(struct profile *p, const struct data_file *df,
		       const struct load_filter *f, struct load_stats *stats)
{
	struct build_state state = { p, NULL };
	const struct replay_visitor v = { &state, build_begin, build_enter, build_open,
					  build_exit, build_end, build_note, build_counters,
					  build_sample, 0, build_unhooked };

	state.p->ncounters = df->ncounters;
	for (size_t i = 0; i < df->ncounters; i++)
		state.p->counter_names[i] = xstrdup(df->counters[i].name);
	load_process_figures(df, f, state.p);
	load_replay(df, f, state.p, &v, stats);
	struct load_stats more;
	memset(&more, 0, sizeof(more));
	load_aggregates(df, f, state.p, add_to_profile, state.p, &more);
	stats->salvaged |= more.salvaged;
	profile_name_homonyms(state.p);
	profile_find_cycles(state.p);
	unhooked_sort(&state.p->unhooked);
	unhooked_find_builds(&state.p->unhooked, df);
}
