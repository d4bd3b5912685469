/*
 * The hooks' cost measured once a run.  Measuring it (calibrate.c) takes
 * a few milliseconds of batches, which a program that runs many short
 * processes (a build's shells and compiler drivers, a test runner, a
 * server that forks) would pay in every image exec starts: under a trace
 * that was most of what each of them cost.  A fork's child keeps its
 * parent's figures in memory; an image exec started finds them in the
 * staging directory instead, in the file the run's first measurement
 * wrote there.
 *
 * The figures are those of the same runtime, on the same machine, with
 * the same settings: the file holds a hash of the launcher's contract
 * (which names the hooks, the counters and the mode, and the staging
 * directory, so one run's file serves no other) and whether library
 * calls are traced, and a figure measured with anything else is not
 * used.  The file is written in one write() after the measurement and
 * never changed; a reader that finds it short or its check wrong, as it
 * is while being written, measures for itself.
 */
#define _GNU_SOURCE
#include "runtime.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#define SHARED_FILE "/hook-cost"
#define SHARED_MAGIC 0x3174736f636b6f68ull	/* "hookcst1" */

struct shared_hook_cost {
	uint64_t magic;
	uint64_t key;
	struct hook_cost_figures figures;
	uint64_t check;
};

/* FNV-1a over N bytes at P, from H. */
static uint64_t fnv1a(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}

static uint64_t check_of(const struct shared_hook_cost *s)
{
	return fnv1a(0xcbf29ce484222325ull, s, offsetof(struct shared_hook_cost, check));
}

static char *shared_path(char *path, size_t size)
{
	return rt_append(rt_append(path, path + size, runtime_config.contract.dir), path + size,
			 SHARED_FILE);
}

int hook_cost_shared_read(uint64_t key, struct hook_cost_figures *out)
{
	char path[CONTRACT_PATH_MAX + 16];
	struct shared_hook_cost s;

	if (!shared_path(path, sizeof(path)) ||
	    rt_read_small_file(path, (char *)&s, sizeof(s)) != sizeof(s))
		return -1;
	if (s.magic != SHARED_MAGIC || s.key != key || s.check != check_of(&s))
		return -1;
	*out = s.figures;
	return 0;
}

void hook_cost_shared_write(uint64_t key, const struct hook_cost_figures *figures)
{
	char path[CONTRACT_PATH_MAX + 16];
	struct shared_hook_cost s;

	if (!shared_path(path, sizeof(path)))
		return;
	memset(&s, 0, sizeof(s));
	s.magic = SHARED_MAGIC;
	s.key = key;
	s.figures = *figures;
	s.check = check_of(&s);
	/* the first measurement's stays: O_EXCL */
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return;
	ssize_t w;
	do
		w = write(fd, &s, sizeof(s));
	while (w < 0 && errno == EINTR);
	close(fd);
}

uint64_t hook_cost_shared_key(const char *contract_text, int library_traced)
{
	uint64_t h = fnv1a(0xcbf29ce484222325ull, contract_text, strlen(contract_text));

	return fnv1a(h, &library_traced, sizeof(library_traced));
}
