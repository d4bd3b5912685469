#include "die.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static const char *program = "callscope";
static int quiet;

void die_set_program(const char *name)
{
	program = name;
}

void die_set_quiet(int on)
{
	quiet = on;
}

static void report(const char *prefix, const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "%s: %s", program, prefix);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	report("", fmt, ap);
	va_end(ap);
	exit(EXIT_FATAL);
}

void usage_die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	report("", fmt, ap);
	va_end(ap);
	exit(EXIT_USAGE);
}

int error(const char *fmt, ...)
{
	va_list ap;
	if (quiet)
		return -1;
	va_start(ap, fmt);
	report("", fmt, ap);
	va_end(ap);
	return -1;
}

void warning(const char *fmt, ...)
{
	va_list ap;
	if (quiet)
		return;
	va_start(ap, fmt);
	report("warning: ", fmt, ap);
	va_end(ap);
}

void bug_at(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "%s: BUG at %s:%d: ", program, file, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}
