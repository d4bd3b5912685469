#include "formats/patch_coverage.h"

#include <stdlib.h>
#include <string.h>

#include "die.h"
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
	for (uint32_t i = 0; i < n; i++) {
		df->patch[i].image_first = 0;
		df->patch[i].image_last = UINT32_MAX;
	}
	/* the trapped functions: all objects' or none */
	for (uint32_t i = 0; i < n && !c->failed && (i > 0 || cursor_left(c)); i++)
		parse_trapped(c, &df->patch[i]);
	/* then, in a merge's, the process images of each: all objects' or
	 * none */
	if (c->failed || !cursor_left(c))
		return;
	if (cursor_left(c) / 8 < n) {
		cursor_fail(c, "fewer patched objects' process images than objects");
		return;
	}
	for (uint32_t i = 0; i < n && !c->failed; i++) {
		struct data_patch_object *o = &df->patch[i];
		o->image_first = cursor_u32(c, "patched object's process images");
		o->image_last = cursor_u32(c, "patched object's process images");
		if (!c->failed && o->image_first > o->image_last)
			cursor_fail(c, "a patched object's last process image before its first");
	}
}

int patch_coverage_covers(const struct data_patch_object *o, uint32_t image)
{
	return image >= o->image_first && image <= o->image_last;
}

static void put_functions(struct sec_builder *b, const struct data_patch_skip *f, size_t n,
			  int with_reason)
{
	for (size_t k = 0; k < n; k++) {
		if (with_reason)
			sec_put_u32(b, f[k].why);
		sec_put_u64(b, f[k].addr);
		sec_put_blob(b, f[k].name ? f[k].name : "", f[k].name_len);
	}
}

uint8_t *patch_coverage_merge(const struct data_file *in, size_t n, const uint32_t *image_offset,
			      const uint32_t *image_max, size_t *len)
{
	size_t cap = 4, nobjects = 0;
	int any = 0;

	for (size_t k = 0; k < n; k++) {
		any |= in[k].patched;
		for (size_t i = 0; i < in[k].npatch; i++) {
			const struct data_patch_object *o = &in[k].patch[i];
			cap += 4 + strlen(o->path) + 16 + 4 + 8;
			for (size_t j = 0; j < o->nskipped; j++)
				cap += 20 + o->skipped[j].name_len;
			for (size_t j = 0; j < o->ntrapped; j++)
				cap += 16 + o->trapped[j].name_len;
			nobjects++;
		}
	}
	*len = 0;
	if (!any)
		return NULL;
	uint8_t *buf = xmalloc(cap);
	struct sec_builder b = { buf, buf + cap, 0 };
	sec_put_u32(&b, (uint32_t)nobjects);
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < in[k].npatch; i++) {
			const struct data_patch_object *o = &in[k].patch[i];
			sec_put_blob(&b, o->path, strlen(o->path));
			sec_put_u32(&b, o->found);
			sec_put_u32(&b, o->patched);
			sec_put_u32(&b, o->fragments);
			sec_put_u32(&b, (uint32_t)o->nskipped);
			put_functions(&b, o->skipped, o->nskipped, 1);
		}
	/* every object's trapped functions, none or not, so that the
	 * process images after them are read as such */
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < in[k].npatch; i++) {
			const struct data_patch_object *o = &in[k].patch[i];
			sec_put_u32(&b, (uint32_t)o->ntrapped);
			put_functions(&b, o->trapped, o->ntrapped, 0);
		}
	for (size_t k = 0; k < n; k++)
		for (size_t i = 0; i < in[k].npatch; i++) {
			const struct data_patch_object *o = &in[k].patch[i];
			uint32_t last = o->image_last < image_max[k] ? o->image_last : image_max[k];
			sec_put_u32(&b, image_offset[k] + o->image_first);
			sec_put_u32(&b, image_offset[k] + last);
		}
	if (b.overflow)
		BUG("merged patch coverage larger than computed");
	*len = (size_t)(b.p - buf);
	return buf;
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
