#include "report/replay.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "report/legend.h"
#include "report/units.h"
#include "xalloc.h"

enum row_kind {
	ROW_CALL,
	ROW_MARK,
	ROW_MARK_STR,
	ROW_TASK,
	ROW_SIGNAL,
	ROW_STOP,
};

enum row_end {
	END_RETURN,
	END_UNWOUND,
	END_STOPPED,
	END_RUNNING,		/* still open when the thread's data ended */
	END_THROWN,		/* left by an exception */
};

struct row {
	uint64_t start_ns;
	uint64_t end_ns;
	uint64_t value;
	uint32_t func;
	uint32_t depth;
	uint8_t kind;
	uint8_t end;
	uint8_t begun_before;	/* open when the recorded window began */
	uint32_t text;		/* MARK_STR: offset into the thread's text pool */
	uint32_t text_len;
};

struct thread_rows {
	struct thread_info info;
	struct row *rows;
	size_t nrows, alloc;
	char *text;
	size_t ntext, text_alloc;
	uint64_t overwritten;
};

struct replay {
	const struct profile *names;
	struct thread_rows *threads;
	size_t nthreads, alloc;
	/* open calls of the thread being collected: row indices */
	size_t *open;
	size_t depth, open_alloc;
};

struct replay *replay_new(const struct profile *names)
{
	struct replay *r = xcalloc(1, sizeof(*r));
	r->names = names;
	return r;
}

void replay_free(struct replay *r)
{
	for (size_t i = 0; i < r->nthreads; i++) {
		free(r->threads[i].rows);
		free(r->threads[i].text);
	}
	free(r->threads);
	free(r->open);
	free(r);
}

static struct thread_rows *current(struct replay *r)
{
	return &r->threads[r->nthreads - 1];
}

static struct row *add_row(struct replay *r, enum row_kind kind, uint64_t t)
{
	struct thread_rows *th = current(r);
	ALLOC_GROW(th->rows, th->nrows + 1, th->alloc);
	struct row *row = &th->rows[th->nrows++];
	memset(row, 0, sizeof(*row));
	row->kind = (uint8_t)kind;
	row->start_ns = row->end_ns = t;
	row->depth = (uint32_t)r->depth;
	return row;
}

static void on_begin(void *ctx, const struct thread_info *info, double inner, double outer)
{
	struct replay *r = ctx;
	(void)inner;
	(void)outer;
	ALLOC_GROW(r->threads, r->nthreads + 1, r->alloc);
	memset(&r->threads[r->nthreads], 0, sizeof(r->threads[0]));
	r->threads[r->nthreads++].info = *info;
	r->depth = 0;
}

static void push_call(struct replay *r, uint32_t func, uint64_t t)
{
	struct row *row = add_row(r, ROW_CALL, t);
	row->func = func;
	row->end = END_RUNNING;
	ALLOC_GROW(r->open, r->depth + 1, r->open_alloc);
	r->open[r->depth++] = current(r)->nrows - 1;
}

static void on_enter(void *ctx, uint32_t func, uint64_t t)
{
	push_call(ctx, func, t);
}

/* A call already running where the data begins (the oldest sync record of
 * a ring, or a forked child's inherited calls): its start time is only
 * where the window begins, and its earlier callees are not in the data. */
static void on_open_frame(void *ctx, uint32_t func, uint64_t t)
{
	struct replay *r = ctx;

	push_call(r, func, t);
	current(r)->rows[current(r)->nrows - 1].begun_before = 1;
}

static void on_exit_(void *ctx, uint64_t t, int kind)
{
	struct replay *r = ctx;
	if (!r->depth)
		return;
	struct row *row = &current(r)->rows[r->open[--r->depth]];
	row->end_ns = t;
	row->end = kind == EXIT_UNWOUND ? END_UNWOUND
		   : kind == EXIT_THROWN ? END_THROWN
		   : kind == EXIT_STOPPED ? END_STOPPED : END_RETURN;
}

static void on_end(void *ctx, uint64_t t)
{
	struct replay *r = ctx;
	while (r->depth) {
		struct row *row = &current(r)->rows[r->open[--r->depth]];
		row->end_ns = t;
		row->end = END_RUNNING;
	}
}

static void on_note(void *ctx, const struct replay_note *n)
{
	struct replay *r = ctx;
	struct thread_rows *th = current(r);
	struct row *row;

	switch (n->kind) {
	case NOTE_OVERWRITTEN:
		th->overwritten += n->value;
		return;
	case NOTE_MARK: row = add_row(r, ROW_MARK, n->time_ns); break;
	case NOTE_TASK: row = add_row(r, ROW_TASK, n->time_ns); break;
	case NOTE_SIGNAL: row = add_row(r, ROW_SIGNAL, n->time_ns); break;
	case NOTE_STOP: row = add_row(r, ROW_STOP, n->time_ns); break;
	case NOTE_MARK_STR:
		row = add_row(r, ROW_MARK_STR, n->time_ns);
		ALLOC_GROW(th->text, th->ntext + n->text_len, th->text_alloc);
		memcpy(th->text + th->ntext, n->text, n->text_len);
		row->text = (uint32_t)th->ntext;
		row->text_len = (uint32_t)n->text_len;
		th->ntext += n->text_len;
		break;
	default:
		return;
	}
	row->value = n->value;
	row->func = n->func;
}

void replay_visitor_init(struct replay *r, struct replay_visitor *v)
{
	memset(v, 0, sizeof(*v));
	v->ctx = r;
	v->thread_begin = on_begin;
	v->enter = on_enter;
	v->open_frame = on_open_frame;
	v->exit = on_exit_;
	v->thread_end = on_end;
	v->note = on_note;
}

static const char *func_name(const struct replay *r, uint32_t f)
{
	return f < r->names->nfuncs ? r->names->funcs[f].name : "?";
}

/* What select_rows() decided for a row. */
enum row_shown {
	ROW_HIDDEN,
	ROW_SHOWN,
	ROW_CONTEXT,	/* a call open where the shown window begins */
};

/*
 * Marks the calls open where the first shown row begins (its callers,
 * found as the last call before it at each smaller depth) as context, if
 * they are in SCOPE (--filter, --depth) and not shown.  A window cut by
 * --last or --time-range would otherwise begin in mid-air: after a crash,
 * the stack around the last calls is what a reader needs first.  Returns
 * how many.
 */
static size_t mark_context(const struct thread_rows *th, const uint8_t *scope, uint8_t *keep)
{
	size_t first = 0, added = 0;

	while (first < th->nrows && keep[first] != ROW_SHOWN)
		first++;
	if (first == th->nrows)
		return 0;
	uint32_t want = th->rows[first].depth;	/* callers are shallower */
	for (size_t i = first; i-- > 0 && want;) {
		const struct row *row = &th->rows[i];
		if (row->kind != ROW_CALL || row->depth >= want)
			continue;
		want = row->depth;
		if (scope[i] && keep[i] == ROW_HIDDEN) {
			keep[i] = ROW_CONTEXT;
			added++;
		}
	}
	return added;
}

/* Marks which rows pass the filters (enum row_shown), and the context
 * before them; returns how many pass, *CONTEXT how many are context. */
static size_t select_rows(const struct thread_rows *th,
			  const struct replay_filter *f, uint8_t *keep, size_t *context)
{
	size_t kept = 0;
	int64_t inside = -1;	/* depth of the --filter call we are in, or -1 */
	uint8_t *scope = xcalloc(th->nrows + 1, 1);

	for (size_t i = 0; i < th->nrows; i++) {
		const struct row *row = &th->rows[i];
		int64_t depth = row->depth;
		keep[i] = ROW_HIDDEN;
		if (f->function >= 0) {
			if (inside >= 0 && depth <= inside)
				inside = -1;
			if (inside < 0 && row->kind == ROW_CALL &&
			    row->func == (uint64_t)f->function)
				inside = depth;
			if (inside < 0)
				continue;
			depth -= inside;
		}
		if (f->max_depth >= 0 && depth >= f->max_depth)
			continue;
		scope[i] = 1;
		if (row->start_ns < f->from_ns || (f->to_ns && row->start_ns > f->to_ns))
			continue;
		if (row->kind == ROW_CALL && row->end_ns - row->start_ns < f->min_duration_ns &&
		    row->end != END_RUNNING)
			continue;
		keep[i] = ROW_SHOWN;
		kept++;
	}
	if (f->last && kept > f->last) {
		size_t drop = kept - f->last;
		for (size_t i = 0; i < th->nrows && drop; i++)
			if (keep[i]) {
				keep[i] = ROW_HIDDEN;
				drop--;
			}
		kept = f->last;
	}
	*context = mark_context(th, scope, keep);
	free(scope);
	return kept;
}

static const char *end_text(enum row_end e)
{
	switch (e) {
	case END_UNWOUND: return " " TAG_LONGJMP;
	case END_THROWN: return " " TAG_THROWN;
	case END_STOPPED: return " " TAG_STOPPED;
	case END_RUNNING: return " " TAG_RUNNING;
	default: return "";
	}
}

static void print_text_row(FILE *out, const struct replay *r, const struct thread_rows *th,
			   const struct row *row, uint32_t base_depth, int context,
			   struct legend *legend)
{
	char when[32], dur[DURATION_BUF];
	int indent = 2 * (int)(row->depth - base_depth);

	snprintf(when, sizeof(when), "%.9f", (double)row->start_ns / 1e9);
	switch (row->kind) {
	case ROW_CALL:
		fprintf(out, "%14s %12s  %*s%s%s%s%s\n", when,
			format_duration(dur, (double)(row->end_ns - row->start_ns)), indent, "",
			func_name(r, row->func), legend_use(legend, end_text((enum row_end)row->end)),
			legend_use(legend, row->begun_before ? " " TAG_BEGUN_BEFORE : ""),
			legend_use(legend, context ? " " TAG_CONTEXT : ""));
		break;
	case ROW_MARK:
		fprintf(out, "%14s %12s  %*s[mark %llu]\n", when, "", indent, "",
			(unsigned long long)row->value);
		break;
	case ROW_MARK_STR:
		fprintf(out, "%14s %12s  %*s[mark \"", when, "", indent, "");
		for (uint32_t i = 0; i < row->text_len; i++) {
			unsigned char c = (unsigned char)th->text[row->text + i];
			if (c < 0x20 || c == 0x7f || c == '"' || c == '\\')
				fprintf(out, "\\x%02x", c);
			else
				fputc(c, out);
		}
		fputs("\"]\n", out);
		break;
	case ROW_TASK:
		fprintf(out, "%14s %12s  %*s[task %llu]\n", when, "", indent, "",
			(unsigned long long)row->value);
		break;
	case ROW_STOP:
		fprintf(out, "%14s %12s  %*s[capture stopped]\n", when, "", indent, "");
		break;
	case ROW_SIGNAL:
		fprintf(out, "%14s %12s  %*s*** SIG%s (signal %llu) in %s ***\n", when, "", indent, "",
			sigabbrev_np((int)row->value) ? sigabbrev_np((int)row->value) : "unknown",
			(unsigned long long)row->value,
			row->func == FUNC_NONE ? "uninstrumented code" : func_name(r, row->func));
		break;
	}
}

static const char *row_kind_name(uint8_t kind)
{
	static const char *const names[] = { "call", "mark", "mark", "task", "signal", "stop" };
	return kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "?";
}

static void print_json_row(struct json *j, const struct replay *r, const struct thread_rows *th,
			   const struct row *row, int context)
{
	json_object_begin(j);
	json_kv_string(j, "kind", row_kind_name(row->kind));
	json_kv_u64(j, "time_ns", row->start_ns);
	json_kv_u64(j, "depth", row->depth);
	if (row->kind == ROW_CALL) {
		static const char *const ends[] = { "return", "unwound", "stopped", "running",
						     "thrown" };
		json_kv_string(j, "function", func_name(r, row->func));
		json_kv_u64(j, "duration_ns", row->end_ns - row->start_ns);
		json_kv_string(j, "end", ends[row->end]);
		if (row->begun_before) {
			json_key(j, "begun_before");
			json_bool(j, 1);
		}
		if (context) {
			json_key(j, "context");
			json_bool(j, 1);
		}
	} else if (row->kind == ROW_MARK_STR) {
		char *s = xstrndup(th->text + row->text, row->text_len);
		json_kv_string(j, "text", s);
		free(s);
	} else {
		json_kv_u64(j, "value", row->value);
		if (row->func != FUNC_NONE)
			json_kv_string(j, "function", func_name(r, row->func));
	}
	json_object_end(j);
}

void replay_print(FILE *out, const struct replay *r, const struct replay_filter *f,
		  const char *(*ending)(void *ctx, uint32_t pid, uint32_t image), void *ctx)
{
	struct json j;
	struct legend legend = { { 0 } };

	json_init(&j, out);
	if (f->json) {
		json_object_begin(&j);
		json_key(&j, "threads");
		json_array_begin(&j);
	}
	for (size_t t = 0; t < r->nthreads; t++) {
		const struct thread_rows *th = &r->threads[t];
		uint8_t *keep = xmalloc(th->nrows + 1);
		size_t context;
		size_t kept = select_rows(th, f, keep, &context);
		int signalled = 0;
		uint32_t base = UINT32_MAX;

		for (size_t i = 0; i < th->nrows; i++) {
			signalled |= th->rows[i].kind == ROW_SIGNAL;
			if (keep[i] && th->rows[i].depth < base)
				base = th->rows[i].depth;
		}
		const char *how = signalled || !ending ? NULL
				  : ending(ctx, th->info.pid, th->info.image);
		if (f->json) {
			json_object_begin(&j);
			json_kv_u64(&j, "pid", th->info.pid);
			json_kv_u64(&j, "tid", th->info.tid);
			json_kv_u64(&j, "lost_events", th->info.lost_events);
			json_kv_u64(&j, "overwritten_events", th->overwritten);
			if (how)
				json_kv_string(&j, "ended", how);
			json_key(&j, "events");
			json_array_begin(&j);
			for (size_t i = 0; i < th->nrows; i++)
				if (keep[i])
					print_json_row(&j, r, th, &th->rows[i],
						       keep[i] == ROW_CONTEXT);
			json_array_end(&j);
			json_object_end(&j);
		} else {
			fprintf(out, "%s## thread %u of process %u: %zu of %zu lines shown",
				t ? "\n" : "", th->info.tid, th->info.pid, kept, th->nrows);
			if (context)
				fprintf(out, " (and %zu open call%s before them as context)", context,
					context == 1 ? "" : "s");
			fprintf(out, "; lost events: %llu; overwritten by the ring: %llu\n",
				(unsigned long long)th->info.lost_events,
				(unsigned long long)th->overwritten);
			fprintf(out, "%14s %12s  %s\n", "time (s)", "duration", "function");
			for (size_t i = 0; i < th->nrows; i++)
				if (keep[i])
					print_text_row(out, r, th, &th->rows[i], base,
						       keep[i] == ROW_CONTEXT, &legend);
			if (how)
				fprintf(out, "*** the process %s ***\n", how);
		}
		free(keep);
	}
	if (f->json) {
		json_array_end(&j);
		json_object_end(&j);
		json_finish(&j);
	} else {
		legend_print(out, &legend);
	}
}
