/*
 * A patch plan being built: the objects, sites, fixups and relocated code
 * of common/patch_plan.h, and beside them the coverage (every function
 * considered, patched or skipped with its reason) that the recording keeps
 * for 'callscope info'.
 */
#ifndef CALLSCOPE_PATCH_PLAN_H
#define CALLSCOPE_PATCH_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "patch_plan.h"
#include "patch/relocate.h"

struct patch_skipped {
	uint64_t addr;		/* link-time entry */
	char *name;		/* owned; NULL when the object names it nowhere */
	unsigned why;		/* enum patch_skip */
};

struct patch_coverage {
	char *path;		/* owned */
	uint32_t found;		/* functions selected */
	uint32_t patched;
	uint32_t fragments;	/* parts split off functions (.cold), not functions */
	struct patch_skipped *skipped;
	size_t nskipped, skipped_alloc;
	struct patch_skipped *trapped;	/* patched with an int3 (why: 0) */
	size_t ntrapped, trapped_alloc;
};

struct patch_plan {
	struct patch_plan_object *objects;
	size_t nobjects, objects_alloc;
	struct patch_plan_site *sites;
	size_t nsites, sites_alloc;
	struct patch_plan_fixup *fixups;
	size_t nfixups, fixups_alloc;
	uint8_t *code;
	size_t code_len, code_alloc;
	char *strings;
	size_t string_len, strings_alloc;
	char **site_names;	/* owned, one per site (NULL: no name) */
	struct patch_coverage *coverage;	/* one per object, same order */
};

void patch_plan_init(struct patch_plan *plan);
void patch_plan_release(struct patch_plan *plan);

/* Starts the object PATH; the sites added next are its.  Returns its
 * coverage record (borrowed, valid until the next object is added). */
struct patch_coverage *patch_plan_add_object(struct patch_plan *plan, const char *path,
					     const uint8_t *build_id, size_t build_id_len);

/* A site to add: the function NAME (NULL: none) entering at FUNCTION,
 * entered by KIND written at ADDR over WINDOW bytes whose contents are
 * ORIGINAL; a PATCH_JMP8's jump goes to ISLAND, whose PATCH_ISLAND bytes
 * are ISLAND_ORIGINAL. */
struct patch_site_at {
	uint64_t function;
	const char *name;
	enum patch_site_kind kind;
	uint64_t addr;
	unsigned window;
	const uint8_t *original;
	uint64_t island;
	const uint8_t *island_original;
	unsigned flags;		/* enum patch_site_flags */
};

/* Adds site S to the current object, running the relocated R and then
 * RESUME (0: R ends in a jump). */
void patch_plan_add_site(struct patch_plan *plan, const struct patch_site_at *s,
			 const struct patch_reloc *r, uint64_t resume);

/* Notes that the current object skips FUNCTION (NAME may be NULL). */
void patch_coverage_skip(struct patch_coverage *cov, uint64_t function, const char *name,
			 unsigned why);

/* Writes the plan as PATH; returns 0, or -1 after printing why. */
int patch_plan_write(const struct patch_plan *plan, const char *path);

/* The recording's PATCH section payload (docs/FORMAT.md); a malloc'd
 * buffer the caller frees, its length in *LEN. */
uint8_t *patch_coverage_section(const struct patch_plan *plan, size_t *len);

/*
 * Takes site I (a plan-wide index) out of its object's patched functions
 * and lists it as skipped for WHY: the runtime refused it.  Returns 0, or
 * -1 when the plan has no site I.
 */
int patch_coverage_refuse(struct patch_plan *plan, uint32_t i, unsigned why);

/* Sites and functions considered over every object. */
void patch_plan_totals(const struct patch_plan *plan, uint64_t *found, uint64_t *patched);

#endif
