#include "cli/patch_info.h"

#include <stdlib.h>
#include <string.h>

#include "patch/skip.h"
#include "xalloc.h"

/* The reasons' phrase, or one for a code from a newer callscope. */
static const char *reason(uint32_t why, char *buf, size_t size)
{
	const char *name = patch_skip_name(why);
	if (name)
		return name;
	snprintf(buf, size, "reason %u (from a newer callscope)", why);
	return buf;
}

/* The skipped function's name, or OBJECT+0xADDR for one without. */
static char *skip_name(const struct data_patch_object *o, const struct data_patch_skip *s)
{
	if (s->name_len)
		return xstrndup(s->name, s->name_len);
	const char *base = strrchr(o->path, '/');
	return xasprintf("%s+%#llx", base ? base + 1 : o->path, (unsigned long long)s->addr);
}

struct totals {
	uint64_t found, patched, fragments, trapped;
	uint64_t per_reason[PATCH_SKIP_COUNT + 1];	/* the last: unknown codes */
};

static struct totals totals(const struct data_file *df)
{
	struct totals t;

	memset(&t, 0, sizeof(t));
	for (size_t i = 0; i < df->npatch; i++) {
		const struct data_patch_object *o = &df->patch[i];
		t.found += o->found;
		t.patched += o->patched;
		t.fragments += o->fragments;
		t.trapped += o->ntrapped;
		for (size_t k = 0; k < o->nskipped; k++)
			t.per_reason[o->skipped[k].why < PATCH_SKIP_COUNT ? o->skipped[k].why
									 : PATCH_SKIP_COUNT]++;
	}
	return t;
}

void patch_info_text(FILE *out, const struct data_file *df, const char *prefix, int verbose)
{
	if (!df->patched)
		return;
	struct totals t = totals(df);
	char buf[64];
	fprintf(out, "%s%llu of %llu functions (%.1f%%) in %zu object%s; %llu parts split "
		"off functions (.cold) left out\n", prefix, (unsigned long long)t.patched,
		(unsigned long long)t.found, t.found ? 100.0 * (double)t.patched / (double)t.found : 0,
		df->npatch, df->npatch == 1 ? "" : "s", (unsigned long long)t.fragments);
	if (t.trapped)
		fprintf(out, "  %llu of them by a trap (int3, where no jump fits: a signal per call, "
			"some microseconds)\n", (unsigned long long)t.trapped);
	for (size_t i = 0; verbose && i < df->npatch; i++) {
		const struct data_patch_object *o = &df->patch[i];
		for (size_t k = 0; k < o->ntrapped; k++) {
			char *name = skip_name(o, &o->trapped[k]);
			fprintf(out, "    %s\n", name);
			free(name);
		}
	}
	for (unsigned r = 1; r <= PATCH_SKIP_COUNT; r++) {
		if (!t.per_reason[r])
			continue;
		fprintf(out, "  %llu skipped: %s\n", (unsigned long long)t.per_reason[r],
			r < PATCH_SKIP_COUNT ? patch_skip_name(r) : "reasons from a newer callscope");
		for (size_t i = 0; verbose && i < df->npatch; i++) {
			const struct data_patch_object *o = &df->patch[i];
			for (size_t k = 0; k < o->nskipped; k++) {
				const struct data_patch_skip *s = &o->skipped[k];
				unsigned code = s->why < PATCH_SKIP_COUNT ? s->why : PATCH_SKIP_COUNT;
				if (code != r)
					continue;
				char *name = skip_name(o, s);
				fprintf(out, "    %s%s%s\n", name,
					code == PATCH_SKIP_COUNT ? ": " : "",
					code == PATCH_SKIP_COUNT ? reason(s->why, buf, sizeof(buf)) : "");
				free(name);
			}
		}
	}
}

void patch_info_json(struct json *j, const struct data_file *df)
{
	if (!df->patched)
		return;
	struct totals t = totals(df);
	char buf[64];
	json_key(j, "patch");
	json_object_begin(j);
	json_kv_u64(j, "functions", t.found);
	json_kv_u64(j, "patched", t.patched);
	json_kv_u64(j, "fragments", t.fragments);
	json_kv_u64(j, "trapped", t.trapped);
	json_key(j, "objects");
	json_array_begin(j);
	for (size_t i = 0; i < df->npatch; i++) {
		const struct data_patch_object *o = &df->patch[i];
		json_object_begin(j);
		json_kv_string(j, "path", o->path);
		json_kv_u64(j, "functions", o->found);
		json_kv_u64(j, "patched", o->patched);
		json_kv_u64(j, "fragments", o->fragments);
		json_key(j, "trapped");
		json_array_begin(j);
		for (size_t k = 0; k < o->ntrapped; k++) {
			char *name = skip_name(o, &o->trapped[k]);
			json_object_begin(j);
			json_kv_string(j, "name", name);
			json_kv_u64(j, "address", o->trapped[k].addr);
			json_object_end(j);
			free(name);
		}
		json_array_end(j);
		json_key(j, "skipped");
		json_array_begin(j);
		for (size_t k = 0; k < o->nskipped; k++) {
			char *name = skip_name(o, &o->skipped[k]);
			json_object_begin(j);
			json_kv_string(j, "name", name);
			json_kv_u64(j, "address", o->skipped[k].addr);
			json_kv_string(j, "reason", reason(o->skipped[k].why, buf, sizeof(buf)));
			json_object_end(j);
			free(name);
		}
		json_array_end(j);
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
}
