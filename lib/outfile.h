/*
 * An output file written safely: under a temporary name beside it
 * (mkstemp: never following a symlink), renamed into place only once
 * complete and closed without error, so a failed write never leaves half
 * a file under the real name nor a temporary file behind.  Every file
 * the offline tools write goes through here (exports, merges, sealed
 * recordings, HTML pages, gmon.out sums), and so every failure to write
 * one is worded the same way:
 *
 *   cannot write 'PATH': REASON; what to do
 */
#ifndef CALLSCOPE_LIB_OUTFILE_H
#define CALLSCOPE_LIB_OUTFILE_H

#include <stdio.h>

struct outfile {
	FILE *f;		/* write here; NULL once closed */
	char *path;		/* owned */
	char *tmp;		/* owned; NULL for stdout */
};

enum outfile_flags {
	OUTFILE_DASH_IS_STDOUT = 1,	/* the path "-" writes to standard output */
	OUTFILE_READABLE = 2,		/* mode 0666 less the umask, as any new
					 * file; else 0600, private to the user */
};

/* Opens PATH for writing.  Returns 0, or -1 after one error line. */
int outfile_open(struct outfile *o, const char *path, unsigned flags);

/* Renames the finished file into place.  Returns 0, or -1 after one error
 * line, with nothing left under the temporary name. */
int outfile_commit(struct outfile *o);

/* Closes and removes what was written. */
void outfile_abort(struct outfile *o);

/* outfile_abort() after writing failed with ERR (an errno value), and the
 * error line that says so.  Returns -1. */
int outfile_fail(struct outfile *o, int err);

/*
 * For a writer with more to say when it fails: outfile_close() flushes and
 * closes the stream, outfile_commit_quiet() closes it if still open and
 * renames.  Both return 0, or -1 with errno set and print nothing;
 * outfile_commit_quiet() removes the temporary file when it fails.
 */
int outfile_close(struct outfile *o);
int outfile_commit_quiet(struct outfile *o);

#endif
