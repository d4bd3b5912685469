/*
 * Sealing: turning the runtime's staging directory into one data file.
 * The process files' sections are copied as they are (whole sections
 * only: a crash mid-write leaves a partial last one, which is dropped);
 * each thread file becomes a THREAD section holding the committed prefix
 * of its stream.  The first thread file of a finished process becomes the
 * data file itself, its stream left in place (docs/FORMAT.md, staging
 * files); otherwise the file is written under a temporary name.  Either
 * way it is renamed into place, so OUT_PATH never holds half a file, and
 * the staging directory reads as the recording until then.
 */
#ifndef CALLSCOPE_FORMATS_SEAL_H
#define CALLSCOPE_FORMATS_SEAL_H

#include <stddef.h>
#include <stdint.h>

#include "contract.h"

struct seal_session {
	uint64_t tsc_start, mono_start, tsc_end, mono_end, unix_start_ns;
	uint32_t clock;
	uint32_t mode;		/* enum data_mode */
	int wait_status;
	uint32_t flags;		/* SESSION_* of common/sections.h */
	const char *cwd;
	int argc;
	char **argv;
	/* record -e: the counters, as a COUNTERS section */
	uint32_t ncounters;
	uint32_t counter_types[CONTRACT_COUNTERS_MAX];
	uint64_t counter_configs[CONTRACT_COUNTERS_MAX];
	const char *counter_names[CONTRACT_COUNTERS_MAX];
	/* record --patch: the PATCH section's payload, or NULL */
	const uint8_t *patch_coverage;
	size_t patch_coverage_len;
};

struct seal_result {
	/* processes (the first image of each pid), their images (a process
	 * that execs starts another), and threads (a thread that execs goes
	 * on as the new image's main thread: one thread) */
	size_t processes;
	size_t images;
	size_t threads;
	uint64_t bytes;
	uint64_t lost_events;
	size_t dropped_sections;	/* partial sections left by a crash */
};

/* Returns 0, or -1 after printing why. */
int seal_staging(const char *staging_dir, const char *out_path,
		 const struct seal_session *s, struct seal_result *res);

/*
 * Deletes OUT_PATH.old when sealing will replace it (OUT_PATH is a
 * regular file, to be kept as .old), so that record can do it while the
 * program runs: deleting a file releases its blocks, which on a file
 * system mounted with discard waits milliseconds for the device, and
 * would otherwise lengthen every run's end.  If the seal then fails,
 * OUT_PATH is still the earlier recording.
 */
void seal_drop_older(const char *out_path);

/* Whether DIR holds what the runtime writes while recording. */
int seal_is_staging(const char *dir);

/*
 * The data file STAGING_DIR would seal into, built in memory, for reading
 * a staging directory that record could not seal (a full disk).  Returns
 * 0 with *BYTES a malloc'd buffer the caller frees, or -1.
 */
int seal_to_memory(const char *staging_dir, uint8_t **bytes, size_t *size);

/* Removes the staging directory and what is in it. */
void seal_remove_staging(const char *staging_dir);

#endif
