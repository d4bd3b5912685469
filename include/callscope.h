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

#ifdef __cplusplus
}
#endif

#endif
