#include "optimize/clone_names.h"

#include <ctype.h>
#include <string.h>

/* The suffixes gcc appends; those that take a number are followed by ".N". */
static const struct {
	const char *word;
	int numbered;
} suffixes[] = {
	{ "cold", 0 }, { "part", 1 }, { "isra", 1 }, { "constprop", 1 },
	{ "lto_priv", 1 }, { "localalias", 0 }, { "clone", 1 },
};

/* Bytes of the suffix ".WORD[.N]" at S (which starts at a dot), or 0. */
static size_t suffix_at(const char *s)
{
	if (*s != '.')
		return 0;
	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		size_t len = strlen(suffixes[i].word);
		if (strncmp(s + 1, suffixes[i].word, len))
			continue;
		const char *end = s + 1 + len;
		if (suffixes[i].numbered) {
			if (end[0] != '.' || !isdigit((unsigned char)end[1]))
				continue;
			end++;
			while (isdigit((unsigned char)*end))
				end++;
		}
		if (*end == 0 || *end == '.')
			return (size_t)(end - s);
	}
	return 0;
}

size_t clone_base_len(const char *name)
{
	for (const char *dot = strchr(name, '.'); dot; dot = strchr(dot + 1, '.')) {
		/* A base only when everything after it is suffixes. */
		const char *s = dot;
		size_t n;
		while ((n = suffix_at(s)) != 0)
			s += n;
		if (!*s && s != dot)
			return (size_t)(dot - name);
	}
	return strlen(name);
}

int clone_is_cold(const char *name)
{
	size_t n = strlen(name), base = clone_base_len(name);
	return n - base >= 5 && !strcmp(name + n - 5, ".cold");
}

int clone_same_base(const char *name, const char *other)
{
	size_t a = clone_base_len(name), b = clone_base_len(other);
	return a == b && !strncmp(name, other, a);
}
