#include "report/unhooked.h"

#include <string.h>

#include "json.h"

/* Objects shown by name, and the share (percent) from which an object is
 * named with a way to see inside it. */
#define OBJECTS_SHOWN 5
#define HINT_PCT 5.0

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* The C and C++ runtime: nobody rebuilds them with -pg, so no advice. */
static int system_runtime(const char *path)
{
	static const char *const names[] = { "libc.so", "libm.so", "libstdc++.so",
					      "libgcc_s.so", "ld-linux", "libpthread.so",
					      "libdl.so", "librt.so", "libcallscope" };
	const char *base = base_name(path);

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strncmp(base, names[i], strlen(names[i])))
			return 1;
	return 0;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static void hint(FILE *out, const char *prefix, const struct unhooked_object *o)
{
	const char *base = base_name(o->object);

	if (!o->hooked_build) {
		fprintf(out, "%s  %s (%s) has no hooks, so its own functions are not traced: "
			     "rebuild it with -pg and run with LD_LIBRARY_PATH pointing at that build\n",
			prefix, base, o->object);
		return;
	}
	const char *build = base_name(o->hooked_build);
	int dir_len = (int)(build - o->hooked_build) - 1;
	fprintf(out, "%s  %s was loaded from %s, a copy without hooks; a build with hooks is "
		     "at %s: run with LD_LIBRARY_PATH=%.*s", prefix, base, o->object,
		o->hooked_build, dir_len, o->hooked_build);
	/* the loader looks for the name the program asks for */
	if (strcmp(build, base))
		fprintf(out, " after 'ln -s %s %.*s/%s'", build, dir_len, o->hooked_build, base);
	fputc('\n', out);
}

void report_unhooked(FILE *out, const struct profile *p, const char *prefix)
{
	const struct unhooked *u = &p->unhooked;
	uint64_t outside = u->seen + u->unseen;

	if (!u->samples)
		return;
	fprintf(out, "%stime in code without hooks: %.1f %% (of %llu samples beside the trace)",
		prefix, pct(outside, u->samples), (unsigned long long)u->samples);
	if (!outside) {
		fputc('\n', out);
		return;
	}
	fprintf(out, "; %.1f %% inside library calls the trace shows, %.1f %% in code neither "
		     "hooked nor called through the PLT\n",
		pct(u->seen, u->samples), pct(u->unseen, u->samples));
	for (size_t i = 0; i < u->nobjects && i < OBJECTS_SHOWN; i++) {
		const struct unhooked_object *o = &u->objects[i];
		fprintf(out, "%s  %5.1f %%  %s (%.1f %% inside library calls, %.1f %% unseen)\n",
			prefix, pct(o->seen + o->unseen, u->samples),
			*o->object ? base_name(o->object) : "<outside any object>",
			pct(o->seen, u->samples), pct(o->unseen, u->samples));
	}
	for (size_t i = 0; i < u->nobjects; i++) {
		const struct unhooked_object *o = &u->objects[i];
		if (*o->object && !system_runtime(o->object) &&
		    pct(o->seen + o->unseen, u->samples) >= HINT_PCT)
			hint(out, prefix, o);
	}
}

void report_unhooked_json(struct json *j, const struct profile *p)
{
	const struct unhooked *u = &p->unhooked;

	json_key(j, "unhooked");
	json_object_begin(j);
	json_kv_u64(j, "samples", u->samples);
	json_kv_u64(j, "hooked", u->hooked);
	json_kv_u64(j, "in_library_calls", u->seen);
	json_kv_u64(j, "unseen", u->unseen);
	json_key(j, "objects");
	json_array_begin(j);
	for (size_t i = 0; i < u->nobjects; i++) {
		const struct unhooked_object *o = &u->objects[i];
		json_object_begin(j);
		json_kv_string(j, "object", o->object);
		json_kv_u64(j, "in_library_calls", o->seen);
		json_kv_u64(j, "unseen", o->unseen);
		json_kv_string(j, "hooked_build", o->hooked_build);
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
}
