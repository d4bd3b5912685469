/*
 * The names gcc gives the pieces it makes of a function: foo.cold (the
 * unlikely blocks split off by -freorder-blocks-and-partition), foo.part.0
 * (partial inlining), foo.isra.0 and foo.constprop.0 (clones with changed
 * arguments), and combinations (foo.constprop.0.isra.0.cold).  Two builds
 * of one program (an instrumented one and the release one) number and
 * choose these pieces differently, so a profile's foo.isra.1 may be the
 * release binary's foo.constprop.0, or plain foo; matching by base name
 * finds it.
 */
#ifndef CALLSCOPE_OPTIMIZE_CLONE_NAMES_H
#define CALLSCOPE_OPTIMIZE_CLONE_NAMES_H

#include <stddef.h>

/*
 * The length of NAME's base: the part before its first clone suffix, or
 * the whole name when it has none (C++ and other names that merely
 * contain a dot keep it).
 */
size_t clone_base_len(const char *name);

/* 1 if NAME is a piece gcc split off as unlikely code (ends in ".cold"). */
int clone_is_cold(const char *name);

/* 1 if NAME and OTHER have the same base (see clone_base_len()). */
int clone_same_base(const char *name, const char *other);

#endif
