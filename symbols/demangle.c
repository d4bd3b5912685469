#include "symbols/demangle.h"

#include <libiberty/demangle.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

/* GNU gprof's flags (gprof/utils.c print_name_only) */
#define DEMANGLE_FLAGS (DMGL_PARAMS | DMGL_ANSI)

static int enabled = 1;

void demangle_set_enabled(int on)
{
	enabled = on;
}

int demangle_set_style(const char *style)
{
	enum demangling_styles s = cplus_demangle_name_to_style(style);

	if (s == unknown_demangling)
		return -1;
	cplus_demangle_set_style(s);
	enabled = 1;
	return 0;
}

/* demangle_symbol() whatever the setting */
static char *demangle_always(const char *symbol)
{
	if (!symbol || !*symbol)
		return NULL;

	/* As BFD does: leading dots and dollars (PowerPC64 ELF, XCOFF) and
	 * a version or "@plt" suffix are no part of the mangled name. */
	const char *name = symbol;
	while (*name == '.' || *name == '$')
		name++;
	const char *suffix = strchr(name, '@');
	char *bare = suffix ? xstrndup(name, (size_t)(suffix - name)) : NULL;
	char *res = cplus_demangle(bare ? bare : name, DEMANGLE_FLAGS);
	free(bare);
	if (!res || (name == symbol && !suffix))
		return res;
	char *full = xasprintf("%.*s%s%s", (int)(name - symbol), symbol, res, suffix ? suffix : "");
	free(res);
	return full;
}

char *demangle_symbol(const char *symbol)
{
	return enabled ? demangle_always(symbol) : NULL;
}

char *demangle_for_display(const char *symbol)
{
	char *d = demangle_symbol(symbol);
	return d ? d : xstrdup(symbol);
}

/* Where SHOWN's parameter list begins: the '(' that matches its last ')',
 * or NULL when it has none (a C name, a variable). */
static const char *params_start(const char *shown)
{
	const char *close = strrchr(shown, ')');
	int depth = 0;

	if (!close)
		return NULL;
	for (const char *c = close; c >= shown; c--) {
		if (*c == ')')
			depth++;
		else if (*c == '(' && --depth == 0)
			return c;
	}
	return NULL;
}

/* After the last space of [S, END) outside brackets: the name after a
 * template function's return type ("int sum_all<int>" -> "sum_all<int>"). */
static const char *after_return_type(const char *s, const char *end)
{
	const char *name = s;
	int depth = 0;

	for (const char *c = s; c < end; c++) {
		if (*c == '(' || *c == '<' || *c == '[' || *c == '{')
			depth++;
		else if ((*c == ')' || *c == '>' || *c == ']' || *c == '}') && depth > 0)
			depth--;
		else if (*c == ' ' && !depth)
			name = c + 1;
	}
	return name;
}

static int same(const char *spec, const char *s, const char *end)
{
	size_t n = (size_t)(end - s);
	return strlen(spec) == n && !strncmp(spec, s, n);
}

/* Whether SPEC is SHOWN without its parameter list or return type. */
static int names_shown(const char *shown, const char *spec)
{
	const char *params = params_start(shown);

	if (!params || params == shown)
		return 0;
	return same(spec, shown, params) || same(spec, after_return_type(shown, params), params);
}

int demangled_name_matches(const char *symbol, const char *shown, const char *spec)
{
	if (!strcmp(spec, symbol) || !strcmp(spec, shown))
		return 1;
	if (strcmp(shown, symbol))
		return names_shown(shown, spec);
	/* shown raw (--no-demangle): a C++ spec still names it */
	char *demangled = demangle_always(symbol);
	int yes = demangled && (!strcmp(spec, demangled) || names_shown(demangled, spec));
	free(demangled);
	return yes;
}
