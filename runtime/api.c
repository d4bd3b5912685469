/*
 * The runtime side of include/callscope.h.  Each call writes one record
 * into the calling thread's stream; a thread's first call starts its
 * buffer like a first hook would.
 */
#include "callscope.h"
#include "runtime.h"
#include "control.h"
#include "stream.h"

#include <string.h>

static void note(unsigned subtype, uint64_t value, const char *text, size_t len)
{
	struct thread_state *t = trace_current();

	if (!runtime_thread_ready(t) || t->guard)
		return;
	guard_take(t, 1);
	/* a callscope_start() just made, with no hook run since, must
	 * take effect here, or the note would be dropped unseen */
	trace_check_capture(t);
	trace_emit_note(t, subtype, value, text, len);
	guard_restore(t, 0);
}

EXPORT void callscope__mark(uint16_t value)
{
	note(STREAM_MARK, value, NULL, 0);
}

EXPORT void callscope__mark_str(const char *text)
{
	size_t len = text ? strnlen(text, MARK_STR_MAX) : 0;
	note(STREAM_MARK_STR, 0, text ? text : "", len);
}

EXPORT void callscope__task(uint32_t id)
{
	note(STREAM_TASK, id, NULL, 0);
}

EXPORT int callscope__start(void)
{
	return capture_set(1);
}

EXPORT int callscope__stop(void)
{
	return capture_set(0);
}

EXPORT int callscope__enabled(void)
{
	return capture_enabled();
}

EXPORT int callscope__flush(void)
{
	return capture_flush();
}

EXPORT int callscope__reset(void)
{
	return capture_reset();
}
