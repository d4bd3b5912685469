#include "cli/find_function.h"

#include <stdlib.h>
#include <string.h>

#include "die.h"
#include "model/symspec.h"

uint32_t find_function(const struct profile *p, const char *spec, const char *option,
		       const char *input)
{
	uint32_t *found, fn;
	size_t n;

	switch (symspec_match(p, spec, &found, &n)) {
	case SYMSPEC_FOUND:
		break;
	case SYMSPEC_NO_OBJECT:
		die("no object '%.*s' in '%s'; give an object's file name as 'callscope info' "
		    "shows it (e.g. 'libz.so.1:NAME')", (int)(strchr(spec, ':') - spec), spec,
		    input);
	case SYMSPEC_UNSUPPORTED:
		die("'%s' names a source file or line; %s takes NAME or OBJECT:NAME", spec,
		    option);
	case SYMSPEC_EMPTY:
		usage_die("%s wants NAME or OBJECT:NAME, not '%s'", option, spec);
	default:
		die("no function '%s' ran in '%s'; see 'callscope report' for the names", spec,
		    input);
	}
	if (n > 1)	/* named apart by their tags (model/homonyms.c) */
		die("'%s' names %zu functions ('%s', '%s'%s); name one as the reports show it, "
		    "e.g. %s%s'%s'", spec, n, p->funcs[found[0]].name, p->funcs[found[1]].name,
		    n > 2 ? ", ..." : "", option[0] == '-' ? option : "", option[0] == '-' ? "=" : "",
		    p->funcs[found[0]].name);
	fn = found[0];
	free(found);
	return fn;
}
