/*
 * Allocation that cannot fail silently: out of memory is fatal for the
 * offline tools.  ALLOC_GROW(array, needed, alloc) grows a dynamic array so
 * that it holds at least NEEDED elements, as git's does.
 */
#ifndef CALLSCOPE_LIB_XALLOC_H
#define CALLSCOPE_LIB_XALLOC_H

#include <stdarg.h>
#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* Returns a malloc'd string the caller frees. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same from a va_list AP, which it consumes. */
char *xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

#define ALLOC_GROW(array, needed, alloc)                                        \
	do {                                                                    \
		if ((size_t)(needed) > (size_t)(alloc)) {                       \
			size_t grow_ = (size_t)(alloc) < 16 ? 16 : (size_t)(alloc) * 2; \
			if (grow_ < (size_t)(needed))                           \
				grow_ = (size_t)(needed);                       \
			(array) = xrealloc((array), grow_ * sizeof(*(array)));  \
			(alloc) = grow_;                                        \
		}                                                               \
	} while (0)

#endif
