/*
 * Opening a profile by path, whichever format it is in: a callscope
 * recording, or a CodeScape .prf file (recognised by its ID string).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load/load.h"
#include "die.h"
#include "formats/prf.h"
#include "readfile.h"
#include "xalloc.h"

int load_path_is_prf(const char *path)
{
	char magic[PRF_MAGIC_LEN];
	FILE *f = fopen_regular(path);
	int yes = 0;

	if (f) {
		yes = fread(magic, 1, sizeof(magic), f) == sizeof(magic) &&
		      !memcmp(magic, PRF_MAGIC, PRF_MAGIC_LEN);
		fclose(f);
	}
	return yes;
}

/* Reads PATH whole; dies with one line when it cannot. */
static uint8_t *read_whole(const char *path, size_t *size)
{
	char *buf;

	if (read_file(path, 0, &buf, size) != 0) {
		if (errno == EINVAL)
			die("'%s' is not a regular file; give the path of a recording", path);
		die("cannot %s '%s': %s", errno == EIO ? "read" : "open", path, strerror(errno));
	}
	return (uint8_t *)buf;
}

struct profile *load_prf_tree(const char *path, struct cct **tree)
{
	struct profile *p;
	size_t size;
	char err[256];
	uint8_t *bytes = read_whole(path, &size);

	if (prf_to_profile_tree(bytes, size, &p, tree, err, sizeof(err)) != 0)
		die("'%s' is damaged: %s", path, err);
	free(bytes);
	return p;
}

struct profile *load_profile_path(const char *path, int *salvaged)
{
	struct profile *p;

	if (load_path_is_prf(path))
		return load_prf_tree(path, NULL);
	struct data_file df;
	struct load_stats stats;
	struct load_filter all = { -1, -1, SIGNAL_SEPARATE };
	if (data_file_load(path, &df) != 0)
		exit(EXIT_FATAL);
	p = load_profile(&df, &all, &stats);
	*salvaged |= stats.salvaged;
	data_file_release(&df);
	return p;
}
