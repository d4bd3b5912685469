/* Reading a whole file into memory, for the offline tools. */
#ifndef CALLSCOPE_LIB_READFILE_H
#define CALLSCOPE_LIB_READFILE_H

#include <stddef.h>

/*
 * Reads the regular file PATH whole.  MAX bounds its size (0: no bound).
 * Returns 0 with *OUT a malloc'd buffer the caller frees (NUL-ended, so
 * text can be parsed in place) and *SIZE its length; or -1 with errno
 * set: what open() or read() said, EINVAL when PATH is not a regular
 * file, EFBIG when it is larger than MAX.  Callers phrase the message.
 */
int read_file(const char *path, size_t max, char **out, size_t *size);

/*
 * Opens the regular file PATH for reading without blocking on a FIFO or
 * a device.  Returns the fd, or -1 with *WHY set to a static string.
 */
int open_regular(const char *path, const char **why);

#endif
