#include "cli/record_patch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "die.h"
#include "patch/plan.h"
#include "patch/select.h"
#include "patch/skip.h"
#include "readfile.h"
#include "xalloc.h"

struct patch_plan *record_patch_plan(const char *prog, const char *spec, const char *staging)
{
	struct patch_spec s;
	struct patch_plan *plan = xmalloc(sizeof(*plan));
	uint64_t found, patched;

	patch_spec_parse(spec, prog, &s);
	patch_plan_init(plan);
	patch_spec_plan(&s, plan);
	char *path = xasprintf("%s/%s", staging, PATCH_PLAN_FILE);
	if (patch_plan_write(plan, path) != 0)
		exit(EXIT_FATAL);
	free(path);
	patch_plan_totals(plan, &found, &patched);
	inform("patching the entries of %llu of %llu function%s in %zu object%s%s",
	       (unsigned long long)patched, (unsigned long long)found,
	       found == 1 ? "" : "s", plan->nobjects, plan->nobjects == 1 ? "" : "s",
	       patched < found ? "; 'callscope info --verbose' lists the others" : "");
	patch_spec_release(&s);
	return plan;
}

/* Moves the sites the runtime refused (the notes it left in STAGING) to
 * the skipped functions; each once, however many processes noted it. */
static void add_refusals(struct patch_plan *plan, const char *staging)
{
	char *path = xasprintf("%s/%s", staging, PATCH_REFUSED_FILE);
	char *bytes = NULL;
	size_t size = 0;

	if (read_file(path, 0, &bytes, &size) != 0) {
		free(path);
		return;	/* nothing refused */
	}
	uint8_t *done = xcalloc(plan->nsites ? plan->nsites : 1, 1);
	for (size_t at = 0; at + sizeof(struct patch_refusal) <= size;
	     at += sizeof(struct patch_refusal)) {
		struct patch_refusal r;
		memcpy(&r, bytes + at, sizeof(r));
		if (r.site >= plan->nsites || done[r.site] || r.why == SITE_OK ||
		    r.why >= SITE_REFUSALS)
			continue;
		done[r.site] = 1;
		patch_coverage_refuse(plan, r.site, patch_skip_refused(r.why));
	}
	free(done);
	free(bytes);
	free(path);
}

uint8_t *record_patch_coverage(struct patch_plan *plan, const char *staging, size_t *len)
{
	add_refusals(plan, staging);
	uint8_t *section = patch_coverage_section(plan, len);
	patch_plan_release(plan);
	free(plan);
	return section;
}
