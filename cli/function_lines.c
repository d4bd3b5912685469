/*
 * Where each function begins: its object's DWARF line table looked up at
 * the function's link-time start, once per object, for the reports that
 * name files and lines (exports, the HTML report's source view).  A
 * lookup with lines is slower than one without, which is why the loader
 * leaves them out.
 */
#include "cli/function_lines.h"

#include <stdlib.h>
#include <string.h>

#include "load/load.h"
#include "symbols/symtab.h"
#include "xalloc.h"

void function_lines_load(const struct data_file *df, struct profile *p)
{
	for (size_t i = 0; i < df->nobjects; i++) {
		const struct data_object *o = &df->objects[i];
		int first = 1, wanted = 0;
		for (size_t k = 0; k < i && first; k++)
			first = strcmp(df->objects[k].path, o->path) != 0;
		for (size_t k = 0; first && k < p->nfuncs && !wanted; k++)
			wanted = !strcmp(p->funcs[k].object, o->path);
		if (!first || !wanted)
			continue;
		struct symtab *st = symtab_new();
		/* At bias 0 the link-time addresses the profile holds are the
		 * addresses to look up. */
		if (load_symtab_add(st, o, 0) == 0) {
			for (size_t k = 0; k < p->nfuncs; k++) {
				struct func *fn = &p->funcs[k];
				struct symbol_info si;
				if (strcmp(fn->object, o->path) || fn->file)
					continue;
				symtab_lookup(st, fn->addr, 1, &si);
				/* an IFUNC's name stands for the variant its
				 * resolver chose, whose code the recording does
				 * not name: the lines at its address are the
				 * resolver's, so its file is left unknown */
				if (si.file && !si.ifunc) {
					fn->file = xstrdup(si.file);
					fn->line = si.line;
				}
			}
		}
		symtab_free(st);
	}
}
