/*
 * One error vocabulary for the offline tools.
 *
 *   die(...)    a fatal error the user can act on: one line on stderr,
 *               "callscope: " + message, exit status 1
 *   usage_die() a wrong command line: exit status 2
 *   error(...)  print the same kind of line and return -1 to the caller
 *   warning(...) print "callscope: warning: ..." and go on
 *   inform(...) say what a command is doing: "callscope: " + message
 *   BUG(...)    a broken invariant; the only one that shows file:line
 *
 * Messages are lowercase, with no trailing period: what is wrong first,
 * the subject quoted, then what to do.
 */
#ifndef CALLSCOPE_LIB_DIE_H
#define CALLSCOPE_LIB_DIE_H

#define EXIT_FATAL 1
#define EXIT_USAGE 2

#include <stdio.h>

#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))

_Noreturn void die(const char *fmt, ...) PRINTF_LIKE(1, 2);
_Noreturn void usage_die(const char *fmt, ...) PRINTF_LIKE(1, 2);
int error(const char *fmt, ...) PRINTF_LIKE(1, 2);
void warning(const char *fmt, ...) PRINTF_LIKE(1, 2);
void inform(const char *fmt, ...) PRINTF_LIKE(1, 2);
_Noreturn void bug_at(const char *file, int line, const char *fmt, ...) PRINTF_LIKE(3, 4);
#define BUG(...) bug_at(__FILE__, __LINE__, __VA_ARGS__)

/* Where messages go; tests point it elsewhere. */
void die_set_program(const char *name);
/* Nonzero: error() and warning() print nothing (the fuzzers, which make
 * millions of damaged inputs); die() and BUG() still do. */
void die_set_quiet(int quiet);
/* Nonzero: inform() prints nothing (record --quiet). */
void die_set_silent(int silent);
/* Every message goes to STREAM instead of stderr (record --log), which
 * a program record runs keeps as its own. */
void die_set_stream(FILE *stream);

#endif
