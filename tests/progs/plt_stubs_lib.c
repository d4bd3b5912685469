/*
 * plt_stubs_lib: the library without hooks that plt_stubs.c calls; it
 * calls strlen through its own PLT (a call, not a tail jump, so that
 * its own instructions run after it).
 */
#include <string.h>

size_t lib_len(const char *s);

size_t lib_len(const char *s)
{
	return strlen(s) + 1;
}
