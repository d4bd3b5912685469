#include "patch/plan.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "die.h"
#include "sections.h"
#include "xalloc.h"

void patch_plan_init(struct patch_plan *plan)
{
	memset(plan, 0, sizeof(*plan));
}

void patch_plan_release(struct patch_plan *plan)
{
	for (size_t i = 0; i < plan->nobjects; i++) {
		struct patch_coverage *cov = &plan->coverage[i];
		for (size_t k = 0; k < cov->nskipped; k++)
			free(cov->skipped[k].name);
		for (size_t k = 0; k < cov->ntrapped; k++)
			free(cov->trapped[k].name);
		free(cov->skipped);
		free(cov->trapped);
		free(cov->path);
	}
	for (size_t i = 0; i < plan->nsites; i++)
		free(plan->site_names[i]);
	free(plan->site_names);
	free(plan->coverage);
	free(plan->objects);
	free(plan->sites);
	free(plan->fixups);
	free(plan->code);
	free(plan->strings);
	memset(plan, 0, sizeof(*plan));
}

static uint32_t add_string(struct patch_plan *plan, const char *s)
{
	size_t n = strlen(s) + 1;
	uint32_t at = (uint32_t)plan->string_len;

	ALLOC_GROW(plan->strings, plan->string_len + n, plan->strings_alloc);
	memcpy(plan->strings + plan->string_len, s, n);
	plan->string_len += n;
	return at;
}

struct patch_coverage *patch_plan_add_object(struct patch_plan *plan, const char *path,
					     const uint8_t *build_id, size_t build_id_len)
{
	size_t alloc = plan->objects_alloc;
	struct patch_plan_object o;

	memset(&o, 0, sizeof(o));
	o.path = add_string(plan, path);
	if (build_id_len > sizeof(o.build_id))
		build_id_len = 0;
	o.build_id_len = (uint32_t)build_id_len;
	if (build_id_len)
		memcpy(o.build_id, build_id, build_id_len);
	o.first_site = (uint32_t)plan->nsites;
	ALLOC_GROW(plan->objects, plan->nobjects + 1, plan->objects_alloc);
	/* the coverage array grows with the objects' */
	if (plan->objects_alloc != alloc || !plan->coverage)
		plan->coverage = xrealloc(plan->coverage,
					  plan->objects_alloc * sizeof(*plan->coverage));
	plan->objects[plan->nobjects] = o;
	struct patch_coverage *cov = &plan->coverage[plan->nobjects++];
	memset(cov, 0, sizeof(*cov));
	cov->path = xstrdup(path);
	return cov;
}

static void note(struct patch_skipped **v, size_t *n, size_t *alloc, uint64_t function,
		 const char *name, unsigned why)
{
	ALLOC_GROW(*v, *n + 1, *alloc);
	(*v)[(*n)++] = (struct patch_skipped){ function, name ? xstrdup(name) : NULL, why };
}

void patch_plan_add_site(struct patch_plan *plan, const struct patch_site_at *at,
			 const struct patch_reloc *r, uint64_t resume)
{
	struct patch_plan_site s;
	unsigned least = at->kind == PATCH_INT3 ? 1 : at->kind == PATCH_JMP8 ? 2 : 5;

	if (!plan->nobjects || at->window < least || at->window > PATCH_WINDOW_MAX)
		BUG("a site without its object, or of %u bytes", at->window);
	memset(&s, 0, sizeof(s));
	s.function = at->function;
	s.addr = at->addr;
	s.resume = resume;
	s.code = (uint32_t)plan->code_len;
	s.code_len = (uint32_t)r->len;
	s.first_fixup = (uint32_t)plan->nfixups;
	s.nfixups = (uint32_t)r->nfixups;
	s.kind = (uint8_t)at->kind;
	s.window = (uint8_t)at->window;
	s.flags = (uint8_t)at->flags;
	memcpy(s.original, at->original, at->window);
	if (at->kind == PATCH_JMP8) {
		s.island = at->island;
		memcpy(s.island_original, at->island_original, PATCH_ISLAND);
	}
	ALLOC_GROW(plan->code, plan->code_len + r->len, plan->code_alloc);
	memcpy(plan->code + plan->code_len, r->code, r->len);
	plan->code_len += r->len;
	if (r->nfixups) {
		ALLOC_GROW(plan->fixups, plan->nfixups + r->nfixups, plan->fixups_alloc);
		memcpy(plan->fixups + plan->nfixups, r->fixups, r->nfixups * sizeof(*r->fixups));
		plan->nfixups += r->nfixups;
	}
	size_t alloc = plan->sites_alloc;
	ALLOC_GROW(plan->sites, plan->nsites + 1, plan->sites_alloc);
	/* the names grow with the sites */
	if (plan->sites_alloc != alloc || !plan->site_names)
		plan->site_names = xrealloc(plan->site_names,
					    plan->sites_alloc * sizeof(*plan->site_names));
	plan->site_names[plan->nsites] = at->name ? xstrdup(at->name) : NULL;
	plan->sites[plan->nsites++] = s;
	plan->objects[plan->nobjects - 1].nsites++;
	struct patch_coverage *cov = &plan->coverage[plan->nobjects - 1];
	cov->patched++;
	if (at->kind == PATCH_INT3)
		note(&cov->trapped, &cov->ntrapped, &cov->trapped_alloc, at->function, at->name, 0);
}

void patch_coverage_skip(struct patch_coverage *cov, uint64_t function, const char *name,
			 unsigned why)
{
	note(&cov->skipped, &cov->nskipped, &cov->skipped_alloc, function, name, why);
}

int patch_coverage_refuse(struct patch_plan *plan, uint32_t i, unsigned why)
{
	for (size_t k = 0; k < plan->nobjects; k++) {
		const struct patch_plan_object *o = &plan->objects[k];
		struct patch_coverage *cov = &plan->coverage[k];
		if (i < o->first_site || i - o->first_site >= o->nsites)
			continue;
		const struct patch_plan_site *s = &plan->sites[i];
		if (!cov->patched)
			return -1;
		cov->patched--;
		patch_coverage_skip(cov, s->function, plan->site_names[i], why);
		/* no longer patched, by a trap or otherwise */
		for (size_t t = 0; t < cov->ntrapped; t++) {
			if (cov->trapped[t].addr != s->function)
				continue;
			free(cov->trapped[t].name);
			cov->trapped[t] = cov->trapped[--cov->ntrapped];
			break;
		}
		return 0;
	}
	return -1;
}

int patch_plan_write(const struct patch_plan *plan, const char *path)
{
	struct patch_plan_header h;
	FILE *f = fopen(path, "wb");

	if (!f)
		return error("cannot write the patch plan '%s': %s", path, strerror(errno));
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, PATCH_PLAN_MAGIC, sizeof(h.magic));
	h.version = PATCH_PLAN_VERSION;
	h.nobjects = (uint32_t)plan->nobjects;
	h.nsites = (uint32_t)plan->nsites;
	h.nfixups = (uint32_t)plan->nfixups;
	h.code_bytes = (uint32_t)plan->code_len;
	h.string_bytes = (uint32_t)plan->string_len;
	size_t ok = fwrite(&h, sizeof(h), 1, f);
	ok &= !plan->nobjects || fwrite(plan->objects, sizeof(*plan->objects), plan->nobjects, f) ==
				 plan->nobjects;
	ok &= !plan->nsites ||
	      fwrite(plan->sites, sizeof(*plan->sites), plan->nsites, f) == plan->nsites;
	ok &= !plan->nfixups ||
	      fwrite(plan->fixups, sizeof(*plan->fixups), plan->nfixups, f) == plan->nfixups;
	ok &= !plan->code_len || fwrite(plan->code, 1, plan->code_len, f) == plan->code_len;
	ok &= !plan->string_len ||
	      fwrite(plan->strings, 1, plan->string_len, f) == plan->string_len;
	if (fclose(f) != 0 || !ok)
		return error("cannot write the patch plan '%s': %s", path, strerror(errno));
	return 0;
}

uint8_t *patch_coverage_section(const struct patch_plan *plan, size_t *len)
{
	size_t cap = 4;

	for (size_t i = 0; i < plan->nobjects; i++) {
		const struct patch_coverage *cov = &plan->coverage[i];
		cap += 4 + strlen(cov->path) + 16;
		for (size_t k = 0; k < cov->nskipped; k++)
			cap += 20 + (cov->skipped[k].name ? strlen(cov->skipped[k].name) : 0);
		cap += 4;
		for (size_t k = 0; k < cov->ntrapped; k++)
			cap += 16 + (cov->trapped[k].name ? strlen(cov->trapped[k].name) : 0);
	}
	uint8_t *buf = xmalloc(cap);
	struct sec_builder b = { buf, buf + cap, 0 };
	sec_put_u32(&b, (uint32_t)plan->nobjects);
	for (size_t i = 0; i < plan->nobjects; i++) {
		const struct patch_coverage *cov = &plan->coverage[i];
		sec_put_blob(&b, cov->path, strlen(cov->path));
		sec_put_u32(&b, cov->found);
		sec_put_u32(&b, cov->patched);
		sec_put_u32(&b, cov->fragments);
		sec_put_u32(&b, (uint32_t)cov->nskipped);
		for (size_t k = 0; k < cov->nskipped; k++) {
			const struct patch_skipped *s = &cov->skipped[k];
			sec_put_u32(&b, s->why);
			sec_put_u64(&b, s->addr);
			sec_put_blob(&b, s->name ? s->name : "", s->name ? strlen(s->name) : 0);
		}
	}
	/* after the objects, so that earlier readers stop before it: the
	 * functions patched with a trap, per object */
	for (size_t i = 0; i < plan->nobjects; i++) {
		const struct patch_coverage *cov = &plan->coverage[i];
		sec_put_u32(&b, (uint32_t)cov->ntrapped);
		for (size_t k = 0; k < cov->ntrapped; k++) {
			const struct patch_skipped *s = &cov->trapped[k];
			sec_put_u64(&b, s->addr);
			sec_put_blob(&b, s->name ? s->name : "", s->name ? strlen(s->name) : 0);
		}
	}
	if (b.overflow)
		BUG("patch coverage larger than computed");
	*len = (size_t)(b.p - buf);
	return buf;
}

void patch_plan_totals(const struct patch_plan *plan, uint64_t *found, uint64_t *patched)
{
	*found = *patched = 0;
	for (size_t i = 0; i < plan->nobjects; i++) {
		*found += plan->coverage[i].found;
		*patched += plan->coverage[i].patched;
	}
}
