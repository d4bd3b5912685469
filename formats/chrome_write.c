/*
 * Chrome trace event JSON (the "JSON Array/Object Format" that Perfetto,
 * chrome://tracing and speedscope open), written during the replay: a
 * call becomes one complete event ("ph":"X") when it returns, with the
 * time it began and its duration in microseconds, exact to the ns (three
 * decimals printed from integers, never through a double).  Events of one
 * thread carry its pid and tid; a metadata event names each thread and
 * process.  Times are the recorded ones, hooks included, so the events of
 * a thread nest exactly as the calls did.  Written by hand rather than
 * with the JSON writer: a trace holds millions of events, and their
 * times must print as exact decimals.
 */
#include <stdlib.h>
#include <string.h>

#include "formats/export.h"
#include "xalloc.h"

struct chrome_call {
	uint32_t func;
	int counted;
	uint64_t start_ns;
};

struct chrome_writer {
	FILE *out;
	uint64_t events;	/* written so far */
	const struct profile *names;
	uint32_t pid, tid;
	struct chrome_call *stack;
	size_t depth, alloc;
};

/* A JSON string: quotes, backslashes and control bytes escaped. */
static void put_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(out, "\\u%04x", *p);
		else
			fputc(*p, out);
	}
	fputc('"', out);
}

/* Starts the next element of the event array. */
static void next_event(struct chrome_writer *w)
{
	fputs(w->events ? ",\n" : "\n", w->out);
	w->events++;
}

struct chrome_writer *chrome_writer_new(FILE *out, const struct profile *names)
{
	struct chrome_writer *w = xcalloc(1, sizeof(*w));

	w->out = out;
	w->names = names;
	fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", out);
	return w;
}

static void metadata(struct chrome_writer *w, const char *what, uint32_t pid, uint32_t tid,
		     const char *name)
{
	next_event(w);
	fprintf(w->out, "{\"name\":\"%s\",\"ph\":\"M\",\"pid\":%u,\"tid\":%u,\"args\":{\"name\":",
		what, pid, tid);
	put_string(w->out, name);
	fputs("}}", w->out);
}

void chrome_process_name(struct chrome_writer *w, uint32_t pid, const char *name)
{
	metadata(w, "process_name", pid, pid, name);
}

void chrome_thread_begin(struct chrome_writer *w, uint32_t pid, uint32_t tid)
{
	char name[48];

	w->pid = pid;
	w->tid = tid;
	w->depth = 0;
	snprintf(name, sizeof(name), "thread %u", tid);
	metadata(w, "thread_name", pid, tid, name);
}

static void push(struct chrome_writer *w, uint32_t func, uint64_t t, int counted)
{
	ALLOC_GROW(w->stack, w->depth + 1, w->alloc);
	w->stack[w->depth].func = func;
	w->stack[w->depth].counted = counted;
	w->stack[w->depth].start_ns = t;
	w->depth++;
}

void chrome_enter(struct chrome_writer *w, uint32_t func, uint64_t time_ns)
{
	push(w, func, time_ns, 1);
}

/* A call inherited from before the stream began (a forked child): it
 * bounds the events inside it but is not a call of this thread. */
void chrome_open_frame(struct chrome_writer *w, uint32_t func, uint64_t time_ns)
{
	push(w, func, time_ns, 0);
}

static void pop(struct chrome_writer *w, uint64_t t, const char *how)
{
	const struct chrome_call *c = &w->stack[--w->depth];

	if (!c->counted)
		return;
	uint64_t dur = t > c->start_ns ? t - c->start_ns : 0;
	next_event(w);
	fputs("{\"name\":", w->out);
	put_string(w->out, w->names->funcs[c->func].name);
	/* ts and dur in us, exact to the ns: printed from integers. */
	fprintf(w->out, ",\"cat\":\"call\",\"ph\":\"X\",\"pid\":%u,\"tid\":%u,"
		"\"ts\":%llu.%03llu,\"dur\":%llu.%03llu", w->pid, w->tid,
		(unsigned long long)(c->start_ns / 1000), (unsigned long long)(c->start_ns % 1000),
		(unsigned long long)(dur / 1000), (unsigned long long)(dur % 1000));
	if (how)
		fprintf(w->out, ",\"args\":{\"end\":\"%s\"}", how);
	fputs("}", w->out);
}

void chrome_exit(struct chrome_writer *w, uint64_t time_ns, enum exit_kind kind)
{
	if (w->depth)
		pop(w, time_ns, kind == EXIT_UNWOUND ? "left by longjmp"
				: kind == EXIT_THROWN ? "left by an exception"
				: kind == EXIT_STOPPED ? "open when capture stopped" : NULL);
}

void chrome_instant(struct chrome_writer *w, const char *what, uint64_t time_ns,
		    const char *text, uint64_t value)
{
	next_event(w);
	fputs("{\"name\":", w->out);
	put_string(w->out, what);
	fprintf(w->out, ",\"cat\":\"mark\",\"ph\":\"i\",\"s\":\"t\",\"pid\":%u,\"tid\":%u,"
		"\"ts\":%llu.%03llu,\"args\":{", w->pid, w->tid,
		(unsigned long long)(time_ns / 1000), (unsigned long long)(time_ns % 1000));
	if (text) {
		fputs("\"text\":", w->out);
		put_string(w->out, text);
	} else {
		fprintf(w->out, "\"value\":%llu", (unsigned long long)value);
	}
	fputs("}}", w->out);
}

void chrome_thread_end(struct chrome_writer *w, uint64_t end_ns)
{
	while (w->depth)
		pop(w, end_ns, "still running at the end");
}

int chrome_writer_finish(struct chrome_writer *w)
{
	fputs("\n]}\n", w->out);
	int rc = fflush(w->out) == 0 && !ferror(w->out) ? 0 : -1;
	free(w->stack);
	free(w);
	return rc;
}
