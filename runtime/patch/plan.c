/*
 * Checking a patch plan before anything is patched from it.  The file was
 * written by the launcher, but the runtime patches live code from it: a
 * damaged or lying plan must be refused whole, with one line, and never
 * read past its end.  Every count is multiplied in 64 bits, every offset
 * is checked against the section it points into, and the sections must
 * fill the file exactly.
 */
#include "patch.h"

#include <string.h>

void plan_object(const struct plan *p, uint32_t i, struct patch_plan_object *out)
{
	memcpy(out, p->data + p->objects_at + (size_t)i * sizeof(*out), sizeof(*out));
}

void plan_site(const struct plan *p, uint32_t i, struct patch_plan_site *out)
{
	memcpy(out, p->data + p->sites_at + (size_t)i * sizeof(*out), sizeof(*out));
}

void plan_fixup(const struct plan *p, uint32_t i, struct patch_plan_fixup *out)
{
	memcpy(out, p->data + p->fixups_at + (size_t)i * sizeof(*out), sizeof(*out));
}

/* [FIRST, FIRST + N) lies within [0, TOTAL). */
static int span_ok(uint64_t first, uint64_t n, uint64_t total)
{
	return first <= total && n <= total - first;
}

static int check_site(const struct plan *p, const struct patch_plan_site *s, const char **why)
{
	const struct patch_plan_header *h = &p->hdr;

	if (s->kind != PATCH_JMP32 && s->kind != PATCH_INT3 && s->kind != PATCH_JMP8) {
		*why = "a site of an unknown kind";
		return -1;
	}
	if (s->flags & ~PATCH_SELF_TAIL) {
		*why = "a site with flags this runtime does not know";
		return -1;
	}
	unsigned least = s->kind == PATCH_INT3 ? 1 : s->kind == PATCH_JMP8 ? 2 : 5;
	if (s->window < least || s->window > PATCH_WINDOW_MAX) {
		*why = "a site's window is not 5 (a trap's: 1, a short jump's: 2) to 16 bytes";
		return -1;
	}
	/* the short jump reaches its island, which lies outside its window */
	if (s->kind == PATCH_JMP8 &&
	    (s->island > UINT64_MAX - PATCH_ISLAND || s->island + 128 < s->addr + 2 ||
	     s->island > s->addr + 2 + 127 ||
	     (s->island < s->addr + s->window && s->addr < s->island + PATCH_ISLAND))) {
		*why = "a short jump's island is out of its reach or in its window";
		return -1;
	}
	if (!span_ok(s->code, s->code_len, h->code_bytes)) {
		*why = "a site's code lies outside the code section";
		return -1;
	}
	if (!span_ok(s->first_fixup, s->nfixups, h->nfixups)) {
		*why = "a site's fixups lie outside the fixup table";
		return -1;
	}
	for (uint32_t k = 0; k < s->nfixups; k++) {
		struct patch_plan_fixup f;
		plan_fixup(p, s->first_fixup + k, &f);
		if (f.insn_end > s->code_len || f.at > f.insn_end || f.insn_end - f.at < 4) {
			*why = "a fixup lies outside its site's instruction";
			return -1;
		}
	}
	return 0;
}

static int check_object(const struct plan *p, const struct patch_plan_object *o, const char **why)
{
	if (o->path >= p->hdr.string_bytes) {
		*why = "an object's path lies outside the strings";
		return -1;
	}
	if (o->build_id_len > sizeof(o->build_id)) {
		*why = "an object's build ID is longer than 20 bytes";
		return -1;
	}
	if (!span_ok(o->first_site, o->nsites, p->hdr.nsites)) {
		*why = "an object's sites lie outside the site table";
		return -1;
	}
	/* two windows that overlap would write one jump over another */
	for (uint32_t i = 1; i < o->nsites; i++) {
		struct patch_plan_site a, b;
		plan_site(p, o->first_site + i - 1, &a);
		plan_site(p, o->first_site + i, &b);
		if (a.addr > UINT64_MAX - a.window || a.addr + a.window > b.addr) {
			*why = "an object's sites are not sorted or their windows overlap";
			return -1;
		}
	}
	return 0;
}

int plan_check(const uint8_t *data, size_t size, struct plan *out, const char **why)
{
	struct patch_plan_header *h = &out->hdr;

	if (size < sizeof(*h)) {
		*why = "the file is shorter than its header";
		return -1;
	}
	memcpy(h, data, sizeof(*h));
	if (memcmp(h->magic, PATCH_PLAN_MAGIC, sizeof(h->magic)) != 0) {
		*why = "the file is not a patch plan";
		return -1;
	}
	if (h->version != PATCH_PLAN_VERSION) {
		*why = "the plan's version is not this runtime's";
		return -1;
	}
	uint64_t at = sizeof(*h);
	out->data = data;
	out->size = size;
	out->objects_at = at;
	at += (uint64_t)h->nobjects * sizeof(struct patch_plan_object);
	out->sites_at = at;
	at += (uint64_t)h->nsites * sizeof(struct patch_plan_site);
	out->fixups_at = at;
	at += (uint64_t)h->nfixups * sizeof(struct patch_plan_fixup);
	out->code_at = at;
	at += h->code_bytes;
	out->strings_at = at;
	at += h->string_bytes;
	if (at != size) {
		*why = "the plan's counts do not match its size";
		return -1;
	}
	if (h->string_bytes && data[size - 1] != 0) {
		*why = "the plan's strings do not end with a NUL";
		return -1;
	}
	for (uint32_t i = 0; i < h->nsites; i++) {
		struct patch_plan_site s;
		plan_site(out, i, &s);
		if (check_site(out, &s, why) != 0)
			return -1;
	}
	for (uint32_t i = 0; i < h->nobjects; i++) {
		struct patch_plan_object o;
		plan_object(out, i, &o);
		if (check_object(out, &o, why) != 0)
			return -1;
	}
	return 0;
}
