/*
 * Linker maps and object files: which input section holds each function.
 * See sections.h.
 *
 * GNU ld and gold print the same layout: an output section at column 0,
 * its input sections one space in (".text.f  0xADDR  0xSIZE  file"; a long
 * section name wraps and its address, size and file follow on the next
 * line), the global symbols of each input section on lines of their own
 * ("                0xADDR   name"), and lines that are neither (patterns,
 * fills, assignments) in between.  lld prints columns under a header
 * "VMA LMA Size Align Out In Symbol": an output section in the Out column,
 * "file:(section)" in the In column, symbols (static ones too) in the
 * Symbol column.
 */
#include "optimize/sections.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "die.h"
#include "partition.h"
#include "readfile.h"
#include "xalloc.h"

/* The largest map read: a map is text; anything larger is not one. */
#define LINK_MAP_MAX (512u << 20)

struct line {
	const char *p, *end;
};

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static void skip_spaces(struct line *l)
{
	while (l->p < l->end && is_space(*l->p))
		l->p++;
}

/* Takes the next whitespace-separated token; returns its length (0: none). */
static size_t token(struct line *l, const char **start)
{
	skip_spaces(l);
	*start = l->p;
	while (l->p < l->end && !is_space(*l->p))
		l->p++;
	return (size_t)(l->p - *start);
}

/* Parses a number in base BASE from a token; returns 0 on success. */
static int number(const char *s, size_t n, int base, uint64_t *out)
{
	char buf[32];
	char *end;

	if (!n || n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n);
	buf[n] = 0;
	if (base == 16 && n > 2 && buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X'))
		;	/* strtoull takes the prefix */
	else if (base == 16 && (buf[0] == '-' || buf[0] == '+'))
		return -1;
	errno = 0;
	*out = strtoull(buf, &end, base);
	return errno || *end ? -1 : 0;
}

static int starts_with(const char *s, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);
	return n >= k && !memcmp(s, prefix, k);
}

/* Code output sections: .text, and .text.* ones a script made. */
static int code_output(const char *name, size_t n)
{
	return starts_with(name, n, ".text") && (n == 5 || name[5] == '.');
}

static void add_section(struct link_map *m, const char *name, size_t nlen, const char *file,
			size_t flen, uint64_t addr, uint64_t size)
{
	if (!size || addr + size < addr)
		return;
	ALLOC_GROW(m->sections, m->n + 1, m->alloc);
	struct link_section *s = &m->sections[m->n++];
	s->name = xstrndup(name, nlen);
	s->file = xstrndup(file, flen);
	s->addr = addr;
	s->size = size;
}

static void add_symbol(struct link_map *m, const char *name, size_t n, uint64_t addr)
{
	ALLOC_GROW(m->symbols, m->nsymbols + 1, m->symbols_alloc);
	m->symbols[m->nsymbols].name = xstrndup(name, n);
	m->symbols[m->nsymbols].addr = addr;
	m->nsymbols++;
}

/* "0xADDR 0xSIZE file..." after an input section's name. */
static int gnu_section_tail(struct link_map *m, struct line l, const char *name, size_t nlen)
{
	const char *a, *s;
	size_t an = token(&l, &a), sn = token(&l, &s);
	uint64_t addr, size;

	if (number(a, an, 16, &addr) || number(s, sn, 16, &size))
		return -1;
	skip_spaces(&l);
	const char *file = l.p, *end = l.end;
	while (end > file && is_space(end[-1]))
		end--;
	if (end == file)
		return -1;
	add_section(m, name, nlen, file, (size_t)(end - file), addr, size);
	return 0;
}

static void parse_gnu(struct link_map *m, const char *text, size_t len, int *seen_output)
{
	const char *p = text, *end = text + len;
	int in_code = 0;
	const char *pending = NULL;	/* a wrapped input section name */
	size_t pending_len = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		struct line l = { p, nl ? nl : end };
		p = nl ? nl + 1 : end;
		if (l.p == l.end)
			continue;
		if (!is_space(*l.p)) {
			/* Column 0: an output section, or a heading. */
			const char *t;
			size_t n = token(&l, &t);
			pending = NULL;
			in_code = n > 1 && t[0] == '.' && code_output(t, n);
			if (n > 1 && t[0] == '.')
				*seen_output = 1;
			continue;
		}
		if (!in_code)
			continue;
		if (l.p[0] == ' ' && l.end - l.p > 1 && l.p[1] == '.') {
			/* An input section: " .text.f  0xADDR 0xSIZE file". */
			const char *name;
			struct line rest;
			l.p++;
			size_t n = token(&l, &name);
			rest = l;
			skip_spaces(&rest);
			pending = NULL;
			if (rest.p == rest.end) {
				pending = name;
				pending_len = n;
			} else {
				gnu_section_tail(m, l, name, n);
			}
			continue;
		}
		struct line probe = l;
		const char *t;
		size_t n = token(&probe, &t);
		if (!starts_with(t, n, "0x")) {
			pending = NULL;
			continue;
		}
		if (pending) {
			gnu_section_tail(m, l, pending, pending_len);
			pending = NULL;
			continue;
		}
		/* "                0xADDR                name": a symbol. */
		uint64_t addr;
		const char *name, *extra;
		size_t nn;
		if (number(t, n, 16, &addr))
			continue;
		nn = token(&probe, &name);
		if (!nn || token(&probe, &extra) || memchr(name, '=', nn) || memchr(name, '(', nn))
			continue;
		add_symbol(m, name, nn, addr);
	}
}

/* Column of WORD in the header line L, or -1. */
static long column_of(struct line l, const char *word)
{
	size_t w = strlen(word);

	for (const char *s = l.p; s + w <= l.end; s++)
		if (!memcmp(s, word, w) && (s == l.p || is_space(s[-1])) &&
		    (s + w == l.end || is_space(s[w])))
			return (long)(s - l.p);
	return -1;
}

static int parse_lld(struct link_map *m, const char *text, size_t len, int *seen_output)
{
	const char *p = text, *end = text + len;
	long col_in = -1, col_sym = -1;
	int in_code = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		struct line l = { p, nl ? nl : end };
		const char *line_start = p;
		p = nl ? nl + 1 : end;
		if (col_in < 0) {
			if (column_of(l, "VMA") >= 0 && column_of(l, "Align") >= 0) {
				col_in = column_of(l, "In");
				col_sym = column_of(l, "Symbol");
				if (col_in < 0 || col_sym <= col_in)
					return -1;
			}
			continue;
		}
		uint64_t v[4];
		int ok = 1;
		for (int i = 0; i < 4 && ok; i++) {
			const char *t;
			size_t n = token(&l, &t);
			ok = !number(t, n, 16, &v[i]);
		}
		if (!ok)
			continue;
		skip_spaces(&l);
		if (l.p == l.end)
			continue;
		const char *t = l.p, *e = l.end;
		while (e > t && is_space(e[-1]))
			e--;
		/* The column the text starts in says what it is. */
		long col = (long)(t - line_start);
		if (col < col_in) {
			*seen_output = 1;
			in_code = code_output(t, (size_t)(e - t));
		} else if (col < col_sym) {
			if (!in_code)
				continue;
			/* "file:(section)" */
			const char *open = NULL;
			for (const char *s = t; s + 1 < e; s++)
				if (s[0] == ':' && s[1] == '(')
					open = s;
			if (!open || e[-1] != ')' || e - 1 <= open + 2)
				continue;
			add_section(m, open + 2, (size_t)(e - 1 - (open + 2)), t, (size_t)(open - t),
				    v[0], v[2]);
		} else if (in_code) {
			add_symbol(m, t, (size_t)(e - t), v[0]);
		}
	}
	return col_in < 0 ? -1 : 0;
}

static int by_section_address(const void *a, const void *b)
{
	const struct link_section *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return (x->size > y->size) - (x->size < y->size);
}

int link_map_parse(const char *text, size_t len, struct link_map *out, char *err, size_t errlen)
{
	int seen_output = 0;

	memset(out, 0, sizeof(*out));
	out->kind = LINK_MAP_LLD;
	if (parse_lld(out, text, len, &seen_output) != 0) {
		link_map_release(out);
		out->kind = LINK_MAP_GNU;
		parse_gnu(out, text, len, &seen_output);
	}
	if (!seen_output) {
		snprintf(err, errlen, "no output section found");
		return -1;
	}
	if (!out->n) {
		snprintf(err, errlen, "no input section of .text found");
		return -1;
	}
	qsort(out->sections, out->n, sizeof(*out->sections), by_section_address);
	return 0;
}

int link_map_load(const char *path, struct link_map *out)
{
	char err[128];
	char *text;
	size_t size;

	memset(out, 0, sizeof(*out));
	if (read_file(path, LINK_MAP_MAX, &text, &size) != 0) {
		if (errno == EINVAL || errno == EFBIG)
			return error("'%s' is not a linker map (not a regular file of at most %u MiB)",
				     path, LINK_MAP_MAX >> 20);
		if (errno == EIO)
			return error("cannot read the map '%s': %s", path, strerror(errno));
		return error("cannot open the map '%s': %s; link with -Wl,-Map=%s to write it",
			     path, strerror(errno), path);
	}
	int rc = link_map_parse(text, size, out, err, sizeof(err));
	free(text);
	if (rc)
		return error("'%s' is not a linker map (%s); give the file -Wl,-Map= wrote", path, err);
	return 0;
}

void link_map_release(struct link_map *m)
{
	for (size_t i = 0; i < m->n; i++) {
		free(m->sections[i].name);
		free(m->sections[i].file);
	}
	for (size_t i = 0; i < m->nsymbols; i++)
		free(m->symbols[i].name);
	free(m->sections);
	free(m->symbols);
	memset(m, 0, sizeof(*m));
}

const struct link_section *link_map_find(const struct link_map *m, uint64_t addr)
{
	/* The last section starting at or before ADDR. */
	size_t lo = PARTITION_POINT(m->n, mid, m->sections[mid].addr <= addr);
	if (!lo)
		return NULL;
	const struct link_section *s = &m->sections[lo - 1];
	return addr - s->addr < s->size ? s : NULL;
}

int link_map_check(const struct link_map *m, const struct elf_funcs *binary,
		   const char *map_path, const char *binary_path)
{
	struct elf_name_index *ix = elf_name_index_new(binary);
	size_t matched = 0, uncovered = 0, code = 0;
	int rc = 0;

	for (size_t i = 0; i < m->nsymbols && !rc; i++) {
		const struct link_symbol *s = &m->symbols[i];
		const size_t *first;
		size_t n = elf_name_lookup(ix, s->name, &first), k;
		if (!n)
			continue;	/* not a function symbol, or not kept */
		for (k = 0; k < n && binary->funcs[first[k]].addr != s->addr; k++)
			;
		if (k < n) {
			matched++;
			continue;
		}
		rc = error("the map '%s' does not describe '%s': '%s' is at 0x%llx in the map and 0x%llx "
			   "in the binary; give the map written by the link that made the binary",
			   map_path, binary_path, s->name, (unsigned long long)s->addr,
			   (unsigned long long)binary->funcs[first[0]].addr);
	}
	for (size_t i = 0; i < binary->n && !rc; i++) {
		const struct elf_func *f = &binary->funcs[i];
		if (!f->in_text || !f->size)
			continue;
		code++;
		if (!link_map_find(m, f->addr))
			uncovered++;
	}
	if (!rc && (uncovered * 10 > code || (m->nsymbols && !matched)))
		rc = error("the map '%s' does not describe '%s': %zu of its %zu functions lie in no "
			   "input section of the map; give the map written by the link that made the binary",
			   map_path, binary_path, uncovered, code);
	elf_name_index_free(ix);
	return rc;
}
