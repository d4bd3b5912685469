/*
 * An output file written safely: under a temporary name beside it (mode
 * 0600 from mkstemp, never following a symlink), renamed into place only
 * once complete, so a failed export never leaves half a file under the
 * real name.  "-" writes to stdout.
 */
#ifndef CALLSCOPE_CLI_OUTFILE_H
#define CALLSCOPE_CLI_OUTFILE_H

#include <stdio.h>

struct outfile {
	FILE *f;
	char *path;		/* owned */
	char *tmp;		/* owned; NULL for stdout */
};

/* Opens PATH for writing; dies with one line when it cannot. */
void outfile_open(struct outfile *o, const char *path);

/* Closes and renames into place.  Returns 0, or -1 after one error line. */
int outfile_commit(struct outfile *o);

/* Closes and removes what was written. */
void outfile_abort(struct outfile *o);

#endif
