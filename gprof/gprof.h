/*
 * GNU gprof's analysis, redone so that `callscope gprof` prints what
 * gprof prints for the same binary and gmon.out (docs/gprof.md says
 * how gprof computes each number).  The pieces:
 *
 *   gprof_syms.c    the symbol table gprof builds from the executable
 *                   (.symtab text symbols, its name filter, one function
 *                   ending where the next begins) plus DWARF file:line
 *   gprof_spec.c    symspecs (main.c, main, main.c:main, main.c:134) into
 *                   address ranges, for -p/-P/-q/-Q/-n/-N/-k/-A/-J
 *   gprof_graph.c   samples -> functions, arcs -> call graph, cycles,
 *                   time propagation, the index numbers
 *   gprof_flat.c    the flat profile
 *   gprof_cg.c      the call graph and the index by function name
 *   gprof_lines.c   -l (line granularity) and -A (annotated source)
 *   gprof_sum.c     -s: the summed profile written back as gmon.out
 *
 * Times are kept in histogram ticks as gprof does and divided by the
 * sampling rate only when printed, so the rounding is the same.
 */
#ifndef CALLSCOPE_REPORT_GPROF_H
#define CALLSCOPE_REPORT_GPROF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "formats/gmon.h"
#include "symbols/symtab_entries.h"

struct gprof_arc;

struct gprof_sym {
	uint64_t addr;		/* first address */
	uint64_t end_addr;	/* last address (inclusive), as gprof keeps it */
	const char *name;	/* owned by the table; NULL for a cycle */
	const char *file;	/* source file from DWARF, or NULL; owned likewise */
	int line;		/* line of ADDR, 0 if unknown */
	unsigned is_static : 1;
	unsigned is_func : 1;
	unsigned print_flag : 1;
	unsigned is_line : 1;	/* a line symbol (-l), not a function */
	uint32_t order;		/* position in .symtab: breaks ties as gprof's sort does */

	double time;		/* self time from the histogram, in ticks */
	uint64_t ncalls;	/* calls from other functions */
	uint64_t self_calls;	/* calls to itself */
	struct gprof_arc *parents, *children;

	/* call graph */
	int top_order;
	int cyc_num;		/* 0 when not on a cycle */
	struct gprof_sym *cyc_head, *cyc_next;
	double child_time;
	double prop_fract, prop_self, prop_child;
	int index;		/* [N] in the call graph; 0 if unnumbered */
	uint64_t scaled_addr;
};

struct gprof_arc {
	struct gprof_sym *parent, *child;
	uint64_t count;
	double time, child_time;	/* propagated, in ticks */
	struct gprof_arc *next_parent, *next_child;
};

/* A set of address ranges [lo, hi] (inclusive), from symspecs. */
struct gprof_ranges {
	struct { uint64_t lo, hi; } *r;
	size_t n, alloc;
};

/* A from/to symspec (-k, -q/-Q with a slash). */
struct gprof_arcspec {
	struct gprof_ranges from, to;
};

struct gprof_arcspecs {
	struct gprof_arcspec *a;
	size_t n, alloc;
};

enum gprof_table {
	GT_INCL_GRAPH, GT_EXCL_GRAPH, GT_INCL_FLAT, GT_EXCL_FLAT,
	GT_INCL_TIME, GT_EXCL_TIME, GT_INCL_ANNO, GT_EXCL_ANNO,
	GT_INCL_EXEC, GT_EXCL_EXEC, GT_NTABLES
};

struct gcov_data;

struct gprof_opts {
	int brief;		/* -b: no explanations */
	int bsd_style;		/* -T */
	int ignore_zeros;	/* cleared by -z */
	int ignore_static;	/* -a */
	int ignore_non_functions;	/* -D */
	int line_granularity;	/* -l */
	int print_path;		/* -L */
	int strict;		/* --compat=strict: reproduce gprof's documented bugs */
	int static_calls;	/* -c: the direct calls in the code, as arcs of count 0 */
	int output_width;	/* -w */
	int annotate_all_lines;	/* -x */
	int separate_files;	/* -y */
	unsigned long min_count;	/* -m */
	int table_length;	/* -t */
	char **search_dirs;	/* -I, owned by the caller */
	size_t nsearch_dirs;
	/* -l -A -x of a program built with --coverage: each line's
	 * executions (formats/gcov_read.h), owned by the caller; else NULL */
	const struct gcov_data *line_counts;
};

/* The program's functions as gprof sees them, sorted by address. */
struct gprof_symtab {
	struct gprof_sym *syms;
	size_t n;
	/* the function table when syms holds line symbols (-l) */
	struct gprof_sym *funcs;
	size_t nfuncs;
	uint64_t text_lo, text_hi;	/* .text, [lo, hi) */
	uint8_t *text;		/* -c: the bytes of .text, owned; NULL otherwise */
	struct gmon_layout layout;
	char *path;
	char **strings;		/* every owned string, freed with the table */
	size_t nstrings, strings_alloc;
	struct symtab_entries file;	/* private: the executable's .symtab and DWARF */
};

/*
 * Reads the executable PATH as gprof does.  Returns 0, or -1 after one
 * error line (not an ELF file, no .text, no symbols).
 */
int gprof_symtab_load(struct gprof_symtab *st, const char *path, const struct gprof_opts *o);
void gprof_symtab_release(struct gprof_symtab *st);
/* Keeps S until the table is released and returns it. */
const char *gprof_symtab_keep(struct gprof_symtab *st, char *s);
/*
 * gprof's symtab_finalize: sorts SYMS by address, drops duplicates of one
 * address (keeping the one gprof keeps) and ends each symbol where the
 * next starts; the last ends at TEXT_END.  Returns the new count.
 */
size_t gprof_symtab_finalize(struct gprof_sym *syms, size_t n, uint64_t text_end);
/* The function containing ADDR, or NULL, with gprof's lookup rules. */
struct gprof_sym *gprof_lookup(struct gprof_sym *syms, size_t n, uint64_t addr);
/* file:line of ADDR from DWARF; 0 and NULL when unknown.  With FUNC, also
 * the innermost function there (inlined or not) as DWARF names it, or
 * NULL: the name gprof gives a line (BFD's find_nearest_line). */
int gprof_src_info(struct gprof_symtab *st, uint64_t addr, const char **file, int *line,
		   const char **func);
/* A malloc'd table of line symbols plus the function symbols, finalized,
 * as -l makes it; *NOUT gets its length. */
struct gprof_sym *gprof_line_syms(struct gprof_symtab *st, size_t *nout);
/* -l: replaces the table by one symbol per source line (functions kept). */
void gprof_make_line_syms(struct gprof_symtab *st, const struct gmon *g);

/* symspecs */
int gprof_ranges_has(const struct gprof_ranges *t, uint64_t addr);
/* Whether ADDR passes a table pair as gprof's sym_lookup tests do: in
 * INCL, or INCL empty and not in EXCL. */
struct gprof_filters;
int gprof_table_accepts(const struct gprof_filters *f, enum gprof_table incl,
			enum gprof_table excl, uint64_t addr);
void gprof_ranges_release(struct gprof_ranges *t);
/*
 * Adds to T the address ranges of the symbols SPEC matches (gprof's
 * FILE:FUNC|LINE syntax).  Returns the number of symbols matched.
 */
size_t gprof_spec_match(const struct gprof_symtab *st, const char *spec, struct gprof_ranges *t);
int gprof_arcspecs_has(const struct gprof_arcspecs *s, const struct gprof_sym *from,
		       const struct gprof_sym *to);
void gprof_arcspecs_release(struct gprof_arcspecs *s);

/* The analysis. */
struct gprof_result {
	double total_time;	/* ticks in the flat profile */
	double print_time;	/* ticks propagated in the call graph */
	double hist_scale;	/* 2-byte units per bin */
	double hz;
	char dimen[GMON_DIMEN_LEN + 1];
	char abbrev;
	int num_cycles;
	struct gprof_sym *cycles;	/* cycles[1..num_cycles] */
	struct gprof_sym **time_sorted;	/* n + num_cycles entries, call-graph order */
	size_t ntime_sorted;
	struct gprof_arc **arcs;	/* every arc, owned */
	size_t narcs, arcs_alloc;
};

struct gprof_filters {
	struct gprof_ranges t[GT_NTABLES];
	struct gprof_arcspecs incl_arcs, excl_arcs;
};

/* Credits the histogram to functions (hist_assign_samples). */
void gprof_assign_samples(struct gprof_symtab *st, const struct gmon *g,
			  const struct gprof_filters *f, struct gprof_result *res);
/* Turns the arcs into call counts and the parent/child lists (cg_tally). */
void gprof_tally(struct gprof_symtab *st, const struct gmon *g, const struct gprof_filters *f,
		 const struct gprof_opts *o, struct gprof_result *res);
/*
 * gprof -c (find_call): each 0xe8 byte (x86 call rel32) in a function's
 * code whose target is the start of a function becomes an arc of count
 * 0, unless the arc ran.  As gprof, only code and targets inside the
 * histogram's ranges count.  gprof reads the displacement unsigned, so it
 * finds forward calls only; STRICT does the same, else backward calls
 * are found too (and without a histogram the whole .text is read).
 * Call before gprof_assemble().
 */
void gprof_static_calls(struct gprof_symtab *st, const struct gmon *g, int strict,
			struct gprof_result *res);
/* Cycles, propagation and index numbers (cg_assemble). */
void gprof_assemble(struct gprof_symtab *st, const struct gprof_filters *f,
		    struct gprof_result *res);
void gprof_result_release(struct gprof_result *res);
/*
 * The bytes a histogram bin covers, as gprof's "granularity" line prints
 * them: (long) hist_scale * (long) sizeof (UNIT), with x86-64's results
 * where a damaged histogram's range leaves a long too small for it.
 */
long gprof_granularity(const struct gprof_result *res);

/* Output.  FIRST tracks whether a form feed must separate sections. */
void gprof_print_flat(FILE *out, struct gprof_symtab *st, const struct gprof_filters *f,
		      const struct gprof_opts *o, struct gprof_result *res, int *first);
void gprof_print_graph(FILE *out, struct gprof_symtab *st, const struct gprof_opts *o,
		       struct gprof_result *res, int *first);
void gprof_print_index(FILE *out, struct gprof_symtab *st, const struct gprof_opts *o,
		       struct gprof_result *res);
void gprof_print_name(FILE *out, const struct gprof_sym *s, const struct gprof_opts *o);
int gprof_print_name_only(FILE *out, const struct gprof_sym *s, const struct gprof_opts *o);
/* S's source file as gprof names it: without its directories unless -L;
 * borrowed from S. */
const char *gprof_sym_file(const struct gprof_sym *s, const struct gprof_opts *o);
/* -A: annotated source of the files with profiled functions.  *FIRST
 * as for the tables: a form feed before a file when output came before. */
int gprof_print_annotated(FILE *out, struct gprof_symtab *st, const struct gmon *g,
			  const struct gprof_filters *f, const struct gprof_opts *o,
			  struct gprof_result *res, int *first);
/*
 * Basic-block counts (BB_COUNT records, which only old compilers wrote)
 * on the symbol of ST holding each block, as gprof keeps them with -l: up
 * to GPROF_NBBS blocks per symbol (slots [i * GPROF_NBBS, +GPROF_NBBS) of
 * symbol i, address 0 when free), a block met again summed into its slot,
 * blocks past the tenth dropped.  Returns the malloc'd addresses and sets
 * *CALLS to the malloc'd counts, or NULL for both when G has none or -l
 * is off (gprof then ignores them).
 */
#define GPROF_NBBS 10
uint64_t *gprof_bb_slots(const struct gprof_symtab *st, const struct gmon *g,
			 const struct gprof_opts *o, uint64_t **calls);
/* -C: execution counts per function (from call counts; glibc writes no
 * block counts), after a form feed when output came before (*FIRST). */
void gprof_print_exec_counts(FILE *out, struct gprof_symtab *st, const struct gmon *g,
			     const struct gprof_filters *f, const struct gprof_opts *o,
			     int *first);

/* -s: writes G (summed) to PATH as a GNU gmon.out whose bins never wrap. */
int gprof_write_sum(const char *path, const struct gmon *g, struct gprof_symtab *st,
		    const struct gprof_result *res, int strict);

#endif
