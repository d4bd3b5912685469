/*
 * record --patch runs each patched function's first instructions moved,
 * in its trampoline (MOVED_CODE, docs/FORMAT.md).  A sample's PC there is
 * taken for the instruction it was moved from, so that every view charges
 * it to that function, as perf does on the unpatched program.
 */
#ifndef CALLSCOPE_LOAD_MOVED_CODE_H
#define CALLSCOPE_LOAD_MOVED_CODE_H

#include <stddef.h>
#include <stdint.h>

#include "formats/native.h"

/* The moved copies of one process image, by address, and the
 * trampolines that hold them. */
struct moved_code_map {
	struct data_moved_code *copies;	/* owned, sorted by copy */
	size_t n;
	struct data_trampolines *trampolines;	/* owned */
	size_t ntrampolines;
};

/* Fills M with DF's copies and trampolines of process image (PID, IMAGE). */
void moved_code_map_init(struct moved_code_map *m, const struct data_file *df, uint32_t pid,
			 uint32_t image);
void moved_code_map_release(struct moved_code_map *m);

/*
 * The address PC stands for: in a copy's moved instructions, the one it
 * was moved from (the window's first where the copy's instructions were
 * re-encoded and their offsets differ); on the copy's jump back, where
 * it lands, the instruction the processor was about to run unpatched;
 * anywhere else PC itself.
 */
uint64_t moved_code_original(const struct moved_code_map *m, uint64_t pc);

/* Whether PC lies in a trampoline's own code, around the copies: the
 * runtime's, the hooks' cost. */
int moved_code_in_trampoline(const struct moved_code_map *m, uint64_t pc);

#endif
