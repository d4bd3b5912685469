#include "cli/record_patch.h"

#include <stdio.h>
#include <stdlib.h>

#include "die.h"
#include "patch/plan.h"
#include "patch/select.h"
#include "xalloc.h"

uint8_t *record_patch_plan(const char *prog, const char *spec, const char *staging,
			   size_t *len)
{
	struct patch_spec s;
	struct patch_plan plan;
	uint64_t found, patched;

	patch_spec_parse(spec, prog, &s);
	patch_plan_init(&plan);
	patch_spec_plan(&s, &plan);
	char *path = xasprintf("%s/%s", staging, PATCH_PLAN_FILE);
	if (patch_plan_write(&plan, path) != 0)
		exit(EXIT_FATAL);
	free(path);
	patch_plan_totals(&plan, &found, &patched);
	fprintf(stderr, "callscope: patching the entries of %llu of %llu function%s in %zu "
		"object%s%s\n", (unsigned long long)patched, (unsigned long long)found,
		found == 1 ? "" : "s", plan.nobjects, plan.nobjects == 1 ? "" : "s",
		patched < found ? "; 'callscope info --verbose' lists the others" : "");
	uint8_t *section = patch_coverage_section(&plan, len);
	patch_plan_release(&plan);
	patch_spec_release(&s);
	return section;
}
