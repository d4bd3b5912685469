/*
 * How `callscope record` tells the runtime which library calls to trace:
 * the environment variable CALLSCOPE_LIBCALL, absent for none, "*" for
 * every call through the PLT or GOT of an object with hooks, or a
 * comma-separated list of what to keep: function names (a trailing '*'
 * matches any ending) and objects (a name with ".so", matched against the
 * start of the defining object's file name: "libm.so" keeps libm's).
 */
#ifndef CALLSCOPE_COMMON_LIBCALL_SETTING_H
#define CALLSCOPE_COMMON_LIBCALL_SETTING_H

#define LIBCALL_ENV "CALLSCOPE_LIBCALL"
#define LIBCALL_ALL "*"
#define LIBCALL_SPEC_MAX 1024

#endif
