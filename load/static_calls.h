/*
 * The calls a program's code makes, whether they ran or not (graph
 * --static, as gprof -c): the functions of each object the recording
 * traced are disassembled, and every direct call among them becomes an
 * arc; the ones the recording never saw get count 0, so a reader sees
 * what a run did not reach (error paths a test never took).  Calls
 * through pointers are not guessed, and a call through the PLT (to
 * another object) is left out: its callee is not in the code.
 */
#ifndef CALLSCOPE_LOAD_STATIC_CALLS_H
#define CALLSCOPE_LOAD_STATIC_CALLS_H

#include <stddef.h>

#include "model/profile.h"

/*
 * Adds to P, after profile_find_cycles() (a call that never ran makes no
 * cycle), the arcs and functions found in the code of every object with
 * a traced call, or only of the programs the recording ran (PROGRAMS,
 * NPROGRAMS; 0 for every object): the libraries a run calls into are not
 * the code under test.  Returns how many arcs were added; an object that
 * cannot be read gets one line and adds none.
 */
size_t static_calls_add(struct profile *p, char *const *programs, size_t nprograms);

#endif
