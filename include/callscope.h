/*
 * callscope's in-program API.
 *
 * A program may call these whether or not it runs under callscope: the
 * functions they reach live in the runtime (libcallscope.so) and are
 * referenced weakly, so without the runtime each call is a test of a null
 * pointer and nothing more.  No library needs to be linked.
 *
 *   callscope_mark(7);             a numbered mark in the trace
 *   callscope_mark_str("phase 2"); a mark with text (up to 255 bytes kept)
 *   callscope_task(42);            the program switched to task 42
 *
 * Marks appear in `callscope replay` at the point they were made, and are
 * counted by `callscope info`.
 *
 *   callscope_stop();              capture off: nothing is recorded
 *   callscope_start();             capture on again
 *   callscope_enabled();           1 capturing, 0 stopped, or an error code
 *   callscope_flush();             everything recorded so far readable now
 *   callscope_reset();             forget what was recorded so far
 *
 * Each returns 0 (callscope_enabled: 1 or 0) or one of the negative codes
 * below, which callscope_strerror() names; see docs/api.md.
 */
#ifndef CALLSCOPE_H
#define CALLSCOPE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Implemented by the runtime; null when it is not loaded. */
extern void callscope__mark(uint16_t value) __attribute__((weak));
extern void callscope__mark_str(const char *text) __attribute__((weak));
extern void callscope__task(uint32_t id) __attribute__((weak));
extern int callscope__start(void) __attribute__((weak));
extern int callscope__stop(void) __attribute__((weak));
extern int callscope__flush(void) __attribute__((weak));
extern int callscope__reset(void) __attribute__((weak));
extern int callscope__enabled(void) __attribute__((weak));

/* The errors of the calls below (never positive, 0 is success). */
#define CALLSCOPE_OK 0
#define CALLSCOPE_ENOTLOADED (-1)	/* the program does not run under callscope */
#define CALLSCOPE_EINACTIVE (-2)	/* the runtime is loaded but records nothing */
#define CALLSCOPE_EALREADY_ON (-3)	/* start: capture is already on */
#define CALLSCOPE_EALREADY_OFF (-4)	/* stop: capture is already off */
#define CALLSCOPE_ENOTSUP (-5)	/* not possible in this recording mode */

__attribute__((no_instrument_function)) static inline void callscope_mark(uint16_t value)
{
	if (callscope__mark)
		callscope__mark(value);
}

__attribute__((no_instrument_function)) static inline void callscope_mark_str(const char *text)
{
	if (callscope__mark_str)
		callscope__mark_str(text);
}

__attribute__((no_instrument_function)) static inline void callscope_task(uint32_t id)
{
	if (callscope__task)
		callscope__task(id);
}

__attribute__((no_instrument_function)) static inline int callscope_start(void)
{
	return callscope__start ? callscope__start() : CALLSCOPE_ENOTLOADED;
}

__attribute__((no_instrument_function)) static inline int callscope_stop(void)
{
	return callscope__stop ? callscope__stop() : CALLSCOPE_ENOTLOADED;
}

__attribute__((no_instrument_function)) static inline int callscope_flush(void)
{
	return callscope__flush ? callscope__flush() : CALLSCOPE_ENOTLOADED;
}

__attribute__((no_instrument_function)) static inline int callscope_reset(void)
{
	return callscope__reset ? callscope__reset() : CALLSCOPE_ENOTLOADED;
}

__attribute__((no_instrument_function)) static inline int callscope_enabled(void)
{
	return callscope__enabled ? callscope__enabled() : CALLSCOPE_ENOTLOADED;
}

/* Works with or without the runtime: the text lives here. */
__attribute__((no_instrument_function)) static inline const char *callscope_strerror(int code)
{
	switch (code) {
	case CALLSCOPE_OK: return "success";
	case CALLSCOPE_ENOTLOADED: return "the program does not run under callscope";
	case CALLSCOPE_EINACTIVE: return "callscope records nothing in this process";
	case CALLSCOPE_EALREADY_ON: return "capture is already on";
	case CALLSCOPE_EALREADY_OFF: return "capture is already off";
	case CALLSCOPE_ENOTSUP: return "not possible in this recording mode";
	default: return "unknown callscope error";
	}
}

#ifdef __cplusplus
}
#endif

#endif
