/*
 * The call memo of a count-mode staging file timed by samples
 * (sections.h, struct thread_call_memo): calls the runtime counted there
 * and not yet in their call-path nodes.
 */
#ifndef CALLSCOPE_FORMATS_CALL_MEMO_H
#define CALLSCOPE_FORMATS_CALL_MEMO_H

#include <stddef.h>
#include <stdint.h>

/*
 * Writes each call memo entry's count into its node in the staging file
 * of SIZE bytes at FILE (writable) and empties the memo, so that the
 * nodes hold every call however the process ended.  Anything else than a
 * count-mode staging file with a memo is left as it is.
 */
void call_memo_settle(uint8_t *file, size_t size);

#endif
