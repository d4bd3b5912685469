/*
 * CodeScape profiler files (.prf), after the layout in Appendix B of its
 * guide as docs/prf.md reads it: the 14 bytes "PROFILER FILE:", then
 * structures that each start with a u32 length L of the L bytes after it.
 * The header (L = 85) is followed by three regions, found by offsets
 * counted from the end of the header: overlay records, function records,
 * and (in a trace profile) call and return records that nest like the
 * calls did.  Integers are little-endian, or all big-endian: the header's
 * L tells which.
 *
 * struct prf_file mirrors the file field for field, spares included, so
 * that reading a file this writer made and writing it again gives the
 * same bytes.  Counts and offsets are not stored: the writer derives them
 * and the reader checks them.
 */
#ifndef CALLSCOPE_FORMATS_PRF_H
#define CALLSCOPE_FORMATS_PRF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model/cct.h"
#include "model/profile.h"

#define PRF_MAGIC "PROFILER FILE:"
#define PRF_MAGIC_LEN 14
#define PRF_HEADER_LEN 85	/* L of the header: 89 bytes with L itself */
#define PRF_OVERLAY_LEN 16
#define PRF_FUNC_FIXED_LEN 79	/* L of a function record without its names */
#define PRF_CALL_FIXED_LEN 84	/* L of a call record without its names */
#define PRF_RETURN_LEN 5
#define PRF_VERSION 1		/* what callscope writes at offset 4 */
#define PRF_CALL_MARK 0xFF
#define PRF_RETURN_MARK 0x00

enum prf_type {
	PRF_STATISTICAL = 1,	/* only hits are valid */
	PRF_TRACE = 2,
};

/* The guide's counter ids callscope knows by name (see prf_counter_name). */
enum prf_counter {
	PRF_COUNTER_NONE = 0x00,
	PRF_COUNTER_ICACHE_MISS = 0x08,
	PRF_COUNTER_INSN_EXEC = 0x13,
	PRF_COUNTER_ELAPSED = 0x23,	/* elapsed time: callscope writes ns */
	PRF_COUNTER_FREEZE_24 = 0x24,
	PRF_COUNTER_FREEZE_25 = 0x25,
};

enum prf_func_description {
	PRF_DESC_UNKNOWN = 0,
	PRF_DESC_FUNCTION = 1,
	PRF_DESC_INTERRUPT = 2,
	PRF_DESC_EXC_VBR100 = 3,
	PRF_DESC_EXC_VBR400 = 4,
	PRF_DESC_INT_VBR600 = 5,
	PRF_DESC_DBR = 6,
	PRF_DESC_USER_BLOCK = 7,
};

enum prf_func_attributes {
	PRF_ATTR_SUSPECT = 1 << 0,	/* possibly incorrect counter data */
	PRF_ATTR_TAGGED = 1 << 1,
};

#define PRF_CACHE_LINE_NONE 0xFFFF	/* non-cacheable */
#define PRF_GROUP_NONE 0xFFFFFFFFu

struct prf_header {
	uint8_t version;	/* offset 4 */
	uint8_t spare1[2];	/* 5-6 */
	uint8_t icache;		/* 7: 1 = 8 KB instruction cache enabled */
	uint8_t day, month, year, hour, minute, second;	/* 8-13 */
	uint8_t type;		/* 14: enum prf_type */
	uint64_t hits;		/* 15-22 */
	uint64_t c1, c1_self;	/* 23-30, 31-38 (self: "minus children") */
	uint64_t c2, c2_self;	/* 39-46, 47-54 */
	uint8_t counter1, counter2;	/* 55, 56: enum prf_counter */
	uint8_t spare2[8];	/* 81-88 */
};

struct prf_overlay {
	uint32_t index_id, start, end, current;
};

/* Names are byte strings with a u16 length; kept NUL-ended for use. */
struct prf_name {
	char *s;		/* owned */
	uint16_t len;
};

struct prf_func {
	uint8_t description;	/* enum prf_func_description */
	uint16_t attributes;	/* enum prf_func_attributes */
	uint16_t cache_line;
	uint32_t min_pc, max_pc;
	uint32_t overlay_area, overlay_id, group_id;
	uint8_t spare[8];
	uint64_t hits;
	uint64_t c1, c1_self, c2, c2_self;
	struct prf_name name, label, qualified;
};

/* One record of the trace region: a call (with its path's values) or the
 * return that closes the innermost open call. */
struct prf_trace {
	int is_call;
	uint32_t call_number;
	struct prf_func f;	/* calls only */
};

struct prf_file {
	int big_endian;
	struct prf_header h;
	struct prf_overlay *overlays;
	size_t noverlays;
	struct prf_func *funcs;
	size_t nfuncs;
	struct prf_trace *trace;
	size_t ntrace, trace_alloc;
};

/*
 * Parses BYTES (not kept).  Returns 0, or -1 with the first problem in
 * ERR ("offset N in function record 3: ...").  OUT is always safe to
 * release.
 */
int prf_parse(const uint8_t *bytes, size_t n, struct prf_file *out, char *err, size_t errlen);
void prf_file_release(struct prf_file *f);

/* Returns the encoded file, malloc'd, the caller frees it; *LEN its size. */
uint8_t *prf_encode(const struct prf_file *f, size_t *len);

/* Writes the encoded file; 0, or -1 with errno set. */
int prf_write(FILE *out, const struct prf_file *f);

/* The guide's name of counter ID, or NULL when callscope does not know it. */
const char *prf_counter_name(uint8_t id);

/*
 * The guide's counter id for callscope's counter EVENT (a perf event name
 * as record -e takes it: "instructions" -> 0x13), or PRF_COUNTER_NONE.
 */
uint8_t prf_counter_of_event(const char *event);

/* Sets NAME to a copy of S. */
void prf_name_set(struct prf_name *name, const char *s);

/*
 * A trace profile of P: one function record per function that ran, and
 * the call-path tree T as nested call and return records.  Counter 1 is
 * elapsed time in ns (0x23); counter 2 is the first of P's counters
 * (record -e) that has an id in the guide (prf_counter_of_event()), the
 * others named in a warning; hits are calls.
 * A profile of timer samples alone (profile_samples_only()) becomes a
 * statistical profile instead: hits are each function's own samples, T
 * is not read.  UNIX_START_NS dates the header (UTC).
 */
void prf_from_profile(const struct profile *p, const struct cct *t,
		      uint64_t unix_start_ns, struct prf_file *out);

/*
 * The profile of a parsed file: a new one the caller frees with
 * profile_free().  With TREE not NULL, *TREE gets the calling-context tree
 * of the trace records (numbered by the profile's functions; an empty one
 * for a statistical file), which the caller frees with cct_free().  A
 * trace file's counter 2 becomes the profile's (and the tree's) first
 * counter.  Prints nothing.
 */
struct profile *prf_file_to_profile(const struct prf_file *f, struct cct **tree);

/*
 * Reads a .prf file into a new profile (*OUT, freed by the caller with
 * profile_free()).  Returns 0, or -1 with the problem in ERR.  Prints a
 * warning when counter 1 is not elapsed time, or the file is statistical
 * (its hits stand in the self column), since the numbers then are not ns.
 */
int prf_to_profile(const uint8_t *bytes, size_t n, struct profile **out, char *err,
		   size_t errlen);
/* The same, with the calling-context tree as prf_file_to_profile() gives it. */
int prf_to_profile_tree(const uint8_t *bytes, size_t n, struct profile **out, struct cct **tree,
			char *err, size_t errlen);

#endif
