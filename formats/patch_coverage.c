#include "formats/patch_coverage.h"

#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

/* The fewest bytes an object and a skipped function take. */
#define OBJECT_MIN 20
#define SKIP_MIN 16
#define TRAP_MIN 12

static void parse_object(struct cursor *c, struct data_patch_object *o)
{
	size_t len;
	const uint8_t *path = cursor_blob(c, &len, "patched object path");

	o->found = cursor_u32(c, "patch counts");
	o->patched = cursor_u32(c, "patch counts");
	o->fragments = cursor_u32(c, "patch counts");
	uint32_t n = cursor_u32(c, "patch counts");
	if (c->failed)
		return;
	o->path = xstrndup((const char *)path, len);
	if (n > cursor_left(c) / SKIP_MIN || o->patched > o->found ||
	    n > (uint64_t)o->found - o->patched) {
		cursor_fail(c, "more functions patched and skipped than found");
		return;
	}
	o->skipped = xcalloc(n ? n : 1, sizeof(*o->skipped));
	for (uint32_t k = 0; k < n && !c->failed; k++) {
		struct data_patch_skip *s = &o->skipped[k];
		s->why = cursor_u32(c, "skipped function");
		s->addr = cursor_u64(c, "skipped function");
		s->name = (const char *)cursor_blob(c, &s->name_len, "skipped function name");
		if (!c->failed)
			o->nskipped = k + 1;
	}
}

/* The functions an object's entries trap for, after every object (a
 * writer that had none, or an earlier one, writes nothing there). */
static void parse_trapped(struct cursor *c, struct data_patch_object *o)
{
	uint32_t n = cursor_u32(c, "trapped function count");
	if (c->failed)
		return;
	if (n > cursor_left(c) / TRAP_MIN || n > o->patched) {
		cursor_fail(c, "more functions trapped than patched");
		return;
	}
	o->trapped = xcalloc(n ? n : 1, sizeof(*o->trapped));
	for (uint32_t k = 0; k < n && !c->failed; k++) {
		struct data_patch_skip *s = &o->trapped[k];
		s->addr = cursor_u64(c, "trapped function");
		s->name = (const char *)cursor_blob(c, &s->name_len, "trapped function name");
		if (!c->failed)
			o->ntrapped = k + 1;
	}
}

void patch_coverage_parse(struct cursor *c, struct data_file *df)
{
	if (df->patched) {
		cursor_fail(c, "a second PATCH section");
		return;
	}
	uint32_t n = cursor_u32(c, "patched object count");
	if (!c->failed && n > cursor_left(c) / OBJECT_MIN)
		cursor_fail(c, "more patched objects than the section holds");
	if (c->failed)
		return;
	df->patched = 1;
	df->patch = xcalloc(n ? n : 1, sizeof(*df->patch));
	for (uint32_t i = 0; i < n && !c->failed; i++) {
		df->npatch = i + 1;
		parse_object(c, &df->patch[i]);
	}
	/* the trapped functions: all objects' or none */
	for (uint32_t i = 0; i < n && !c->failed && (i > 0 || cursor_left(c)); i++)
		parse_trapped(c, &df->patch[i]);
}

void patch_coverage_release(struct data_file *df)
{
	for (size_t i = 0; i < df->npatch; i++) {
		free(df->patch[i].path);
		free(df->patch[i].skipped);
		free(df->patch[i].trapped);
	}
	free(df->patch);
	df->patch = NULL;
	df->npatch = 0;
}
