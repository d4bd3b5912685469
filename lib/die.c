#include "die.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static const char *program = "callscope";
static int quiet;
static int silent;
static FILE *stream;

void die_set_program(const char *name)
{
	program = name;
}

void die_set_quiet(int on)
{
	quiet = on;
}

void die_set_silent(int on)
{
	silent = on;
}

void die_set_stream(FILE *to)
{
	stream = to;
}

static FILE *out(void)
{
	return stream ? stream : stderr;
}

static void report(const char *prefix, const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(out(), "%s: %s", program, prefix);
	vfprintf(out(), fmt, ap);
	fputc('\n', out());
	fflush(out());
}

/* The body of every variadic reporter below: one line with PREFIX,
 * unless MUTED. */
#define REPORT_UNLESS(muted, prefix)                  \
	do {                                          \
		va_list ap;                           \
		if (!(muted)) {                       \
			va_start(ap, fmt);            \
			report(prefix, fmt, ap);      \
			va_end(ap);                   \
		}                                     \
	} while (0)

void die(const char *fmt, ...)
{
	REPORT_UNLESS(0, "");
	exit(EXIT_FATAL);
}

void usage_die(const char *fmt, ...)
{
	REPORT_UNLESS(0, "");
	exit(EXIT_USAGE);
}

int error(const char *fmt, ...)
{
	REPORT_UNLESS(quiet, "");
	return -1;
}

void warning(const char *fmt, ...)
{
	REPORT_UNLESS(quiet, "warning: ");
}

void inform(const char *fmt, ...)
{
	REPORT_UNLESS(silent, "");
}

void bug_at(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	fprintf(out(), "%s: BUG at %s:%d: ", program, file, line);
	va_start(ap, fmt);
	vfprintf(out(), fmt, ap);
	va_end(ap);
	fputc('\n', out());
	fflush(out());
	abort();
}
