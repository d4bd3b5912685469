/*
 * gmon.out, the profile a program built with -pg writes at exit, in the
 * three layouts GNU gprof reads: the GNU tagged format (header "gmon",
 * then TIME_HIST, CG_ARC and BB_COUNT records in any order), the old BSD
 * format (a histogram header, bins, then untagged arcs) and the 4.4BSD
 * format (the same with a versioned 40-byte header).  Layouts are in
 * docs/gprof.md ("The files").
 *
 * Integers are in the byte order of the profiled executable and
 * addresses as wide as its pointers: the caller says which (struct
 * gmon_layout), as gprof takes both from the binary, not from the file.
 *
 * The parsed form is deliberately plain: a list of histograms (one per
 * address range, repeated records for the same range already summed, so
 * bins are not limited to 16 bits) and a list of arcs (one per distinct
 * (from_pc, self_pc) pair, repeated records summed, in the order each
 * pair first appeared: gprof's call graph depends on that order).
 * Several files are summed by parsing them into the same struct gmon.
 *
 * The reader treats the file as hostile: every record is bounds-checked,
 * and the first problem is reported with its file offset and the record
 * it was found in.
 */
#ifndef CALLSCOPE_FORMATS_GMON_H
#define CALLSCOPE_FORMATS_GMON_H

#include <stddef.h>
#include <stdint.h>

#define GMON_MAGIC "gmon"
#define GMON_HEADER_SIZE 20
#define GMON_TAG_TIME_HIST 0
#define GMON_TAG_CG_ARC 1
#define GMON_TAG_BB_COUNT 2
#define GMON_BSD44_VERSION 0x00051879u
#define GMON_DIMEN_LEN 15

enum gmon_format {
	GMON_FORMAT_AUTO = 0,	/* for gmon_parse: decide from the first bytes */
	GMON_FORMAT_GNU,
	GMON_FORMAT_BSD,	/* old BSD: no version in the header */
	GMON_FORMAT_BSD44,
};

struct gmon_layout {
	int big_endian;		/* byte order of the executable */
	int ptr_size;		/* 4 or 8: ELFCLASS32 or ELFCLASS64 */
};

struct gmon_hist {
	uint64_t low_pc, high_pc;	/* [low_pc, high_pc) in link-time addresses */
	uint32_t nbins;
	uint32_t rate;			/* samples per second (prof_rate) */
	char dimen[GMON_DIMEN_LEN + 1];	/* "seconds", NUL-ended */
	char abbrev;			/* 's' */
	uint64_t *bins;			/* nbins counts, owned */
};

struct gmon_arc {
	uint64_t from_pc;	/* an address inside the caller */
	uint64_t self_pc;	/* an address inside the callee */
	uint64_t count;
};

struct gmon_bb {
	uint64_t addr;
	uint64_t count;
};

/* What one file held, for gprof -i. */
struct gmon_file_info {
	char *path;		/* owned */
	enum gmon_format format;
	uint32_t version;	/* GNU header version; 0 for the BSD formats */
	size_t hist_records, arc_records, bb_records;
};

struct gmon {
	struct gmon_layout layout;
	struct gmon_hist *hists;
	size_t nhists, hists_alloc;
	struct gmon_arc *arcs;
	size_t narcs, arcs_alloc;
	struct gmon_bb *bbs;
	size_t nbbs, bbs_alloc;
	struct gmon_file_info *files;
	size_t nfiles, files_alloc;
	uint32_t rate;		/* of the first histogram or BSD header; 0 if none */
	int has_hist, has_arcs, has_bbs;
	/* private: finds an arc by (from_pc, self_pc) */
	size_t *arc_index;
	size_t arc_index_size;
};

/* Starts an empty profile for an executable with LAYOUT. */
void gmon_init(struct gmon *g, const struct gmon_layout *layout);
void gmon_release(struct gmon *g);

/*
 * Adds the profile in BUF[0..LEN) (the file NAME, used in messages) to G,
 * summing it with what G holds.  FORMAT forces a layout, or is
 * GMON_FORMAT_AUTO.  Returns 0; or -1 with a one-line reason in ERR
 * (offset and record named) and G unchanged in its summed values only as
 * far as whole records go (discard it on error).
 */
int gmon_parse(struct gmon *g, const char *name, const uint8_t *buf, size_t len,
	       enum gmon_format format, char *err, size_t errlen);

/*
 * Reads the file PATH into G as gmon_parse() does.  Returns 0, or -1
 * after printing one error line naming the file.
 */
int gmon_load(struct gmon *g, const char *path, enum gmon_format format);

/* A record kind's name for messages: "TIME_HIST", "CG_ARC", "BB_COUNT". */
const char *gmon_tag_name(int tag);

#endif
