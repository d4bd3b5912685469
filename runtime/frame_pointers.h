/* Whether an object's code keeps frame pointers (frame_pointers.c). */
#ifndef CALLSCOPE_RUNTIME_FRAME_POINTERS_H
#define CALLSCOPE_RUNTIME_FRAME_POINTERS_H

#include <link.h>

#include "runtime.h"

/*
 * 1 when most functions of the loaded object INFO describes set up a
 * frame in rbp (their call frame information says so), 0 when not or
 * when it has no readable call frame information.  Reads the object's
 * mapped memory; not for a signal handler.
 */
HIDDEN int frame_pointers_kept(const struct dl_phdr_info *info);

#endif
