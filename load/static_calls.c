#include "load/static_calls.h"

#include <stdlib.h>
#include <string.h>

#include "die.h"
#include "symbols/elf_funcs.h"
#include "symbols/code.h"
#include "symbols/demangle.h"
#include "u64map.h"
#include "xalloc.h"

/* The profile's function for ELF function K of OBJECT: the one the
 * recording already has at its address (under whichever alias the
 * symbolizer chose), else a new one with no calls. */
static uint32_t func_of(struct profile *p, struct u64map *by_addr, const char *object,
			const struct elf_func *f)
{
	uint32_t id;

	if (u64map_get(by_addr, f->addr, &id))
		return id;
	char *shown = demangle_for_display(f->name);
	id = profile_intern_symbol(p, f->name, shown, object, f->addr, f->size, NULL, 0);
	free(shown);
	u64map_put(by_addr, f->addr, id);
	return id;
}

/* Whether F is the cold part gcc split off a function (NAME.cold): a
 * jump there stays inside the function, it is no tail call. */
static int is_split_part(const struct elf_func *f)
{
	return strstr(f->name, ".cold") != NULL;
}

static size_t add_object(struct profile *p, const char *object)
{
	struct elf_funcs t;
	struct code_file *cf;
	struct u64map by_addr;
	size_t added = 0;

	/* elf_funcs_load() says itself what is wrong with the file */
	if (elf_funcs_load(object, &t) != 0 || !(cf = code_file_open(object))) {
		if (t.n)
			warning("'%s' cannot be read: the calls in it that never ran are not shown",
				object);
		elf_funcs_release(&t);
		return 0;
	}
	u64map_init(&by_addr);
	for (size_t i = 0; i < p->nfuncs; i++)
		if (!strcmp(p->funcs[i].object, object) && p->funcs[i].addr)
			u64map_put(&by_addr, p->funcs[i].addr, (uint32_t)i);
	for (size_t i = 0; i < t.n; i++) {
		const struct elf_func *f = &t.funcs[i];
		/* aliases share their code: the first at an address stands for all */
		if (!f->size || (i && t.funcs[i - 1].addr == f->addr))
			continue;
		uint8_t *code = code_file_read(cf, f->addr, f->size);
		if (!code)
			continue;
		struct code_call *calls;
		size_t n = code_direct_calls(code, f->addr, f->size, &calls);
		for (size_t k = 0; k < n; k++) {
			/* none for a PLT stub or the middle of a function */
			long callee = elf_funcs_at(&t, calls[k].target);
			if (callee < 0 || (calls[k].tail && is_split_part(&t.funcs[callee])))
				continue;
			uint32_t from = func_of(p, &by_addr, object, f);
			uint32_t to = func_of(p, &by_addr, object, &t.funcs[callee]);
			size_t before = p->narcs;
			/* interned before P->arcs is read: a new arc may move it */
			uint32_t arc = profile_intern_arc(p, from, to);
			struct arc *a = &p->arcs[arc];
			/* a tail call is said only where no call instruction is */
			if (p->narcs > before)
				a->static_tail = calls[k].tail;
			else if (!calls[k].tail)
				a->static_tail = 0;
			added += p->narcs - before;
		}
		free(calls);
		free(code);
	}
	u64map_release(&by_addr);
	code_file_close(cf);
	elf_funcs_release(&t);
	return added;
}

/* Whether OBJECT is one of PROGRAMS, or N is 0. */
static int wanted(const char *object, char *const *programs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (programs[i] && !strcmp(programs[i], object))
			return 1;
	return !n;
}

size_t static_calls_add(struct profile *p, char *const *programs, size_t nprograms)
{
	char **objects = NULL;
	size_t nobjects = 0, alloc = 0, added = 0;

	for (size_t i = 0; i < p->nfuncs; i++) {
		const struct func *f = &p->funcs[i];
		if (!f->calls || !*f->object || !wanted(f->object, programs, nprograms))
			continue;
		size_t k = 0;
		while (k < nobjects && strcmp(objects[k], f->object))
			k++;
		if (k == nobjects) {
			ALLOC_GROW(objects, nobjects + 1, alloc);
			objects[nobjects++] = xstrdup(f->object);
		}
	}
	for (size_t k = 0; k < nobjects; k++) {
		added += add_object(p, objects[k]);
		free(objects[k]);
	}
	free(objects);
	return added;
}
