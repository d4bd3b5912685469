/* Reading a whole file into memory, for the offline tools. */
#ifndef CALLSCOPE_LIB_READFILE_H
#define CALLSCOPE_LIB_READFILE_H

#include <stddef.h>
#include <stdio.h>

/*
 * Reads the regular file PATH whole.  MAX bounds its size (0: no bound).
 * Returns 0 with *OUT a malloc'd buffer the caller frees (NUL-ended, so
 * text can be parsed in place) and *SIZE its length; or -1 with errno
 * set: what open() or read() said, EINVAL when PATH is not a regular
 * file, EFBIG when it is larger than MAX.  Callers phrase the message.
 */
int read_file(const char *path, size_t max, char **out, size_t *size);

/*
 * Reads PATH whole, whatever its size says (a /proc file says 0), up to
 * MAX bytes.  Returns a malloc'd NUL-ended buffer, *LEN its length (what
 * was read before MAX, an error or the end), or NULL with errno set when
 * PATH cannot be opened.
 */
char *read_unsized_file(const char *path, size_t max, size_t *len);

/*
 * Opens PATH for reading if it is a regular file.  Opening a FIFO for
 * reading waits for a writer, so PATH is opened without waiting and
 * checked before anything reads it.  Returns the descriptor (close-on-exec,
 * the caller closes it), or -1 with errno set: what open() said, or EINVAL
 * when PATH is not a regular file.
 */
int open_regular(const char *path);

/* open_regular() as a stdio stream for reading; NULL with errno set. */
FILE *fopen_regular(const char *path);

/* strerror(), saying "not a regular file" for open_regular()'s EINVAL. */
const char *open_strerror(int err);

#endif
