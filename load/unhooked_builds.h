/*
 * For each object without hooks that took a good share of a traced run's
 * time, looks for a copy of the same library with hooks beside the
 * program and in its working directory: the -pg build a user meant to
 * load (Debian's bzip2 builds its own libbz2.so.1.0.8 next to bzip2).
 */
#ifndef CALLSCOPE_LOAD_UNHOOKED_BUILDS_H
#define CALLSCOPE_LOAD_UNHOOKED_BUILDS_H

#include "formats/native.h"
#include "model/unhooked.h"

void unhooked_find_builds(struct unhooked *u, const struct data_file *df);

#endif
