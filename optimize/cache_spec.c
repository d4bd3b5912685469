#include "optimize/cache_spec.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cache_parse_size(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	unsigned shift = 0;
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	}
	if ((*end == 'b' || *end == 'B') && shift)
		end++;
	if (*end || v > (UINT64_MAX >> shift))
		return -1;
	*out = (uint64_t)v << shift;
	return 0;
}

static int power_of_two(uint64_t v)
{
	return v && !(v & (v - 1));
}

int cache_parse_spec(const char *s, struct cache_spec *out, const char **why)
{
	char buf[64];
	char *ways, *line, *end;
	uint64_t size;
	unsigned long w, l;

	*why = "want SIZE,WAYS,LINE such as 8K,2,32";
	if (!s || strlen(s) >= sizeof(buf))
		return -1;
	memcpy(buf, s, strlen(s) + 1);
	ways = strchr(buf, ',');
	if (!ways)
		return -1;
	*ways++ = 0;
	line = strchr(ways, ',');
	if (!line)
		return -1;
	*line++ = 0;
	if (cache_parse_size(buf, &size))
		return -1;
	errno = 0;
	w = strtoul(ways, &end, 10);
	if (errno || *end || !w || w > 1024)
		return -1;
	l = strtoul(line, &end, 10);
	if (errno || *end)
		return -1;
	if (l < 16 || l > 4096 || !power_of_two(l)) {
		*why = "the line size must be a power of two from 16 to 4096 bytes";
		return -1;
	}
	if (size % (w * l) || !power_of_two(size / (w * l))) {
		*why = "SIZE / (WAYS x LINE) must be a whole power of two (the number of sets)";
		return -1;
	}
	out->size = size;
	out->ways = (unsigned)w;
	out->line = (unsigned)l;
	return 0;
}

static int read_sys(const char *dir, const char *name, char *buf, size_t len)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (!fgets(buf, (int)len, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

int cache_host_l1i(struct cache_spec *out)
{
	out->size = 32768;
	out->ways = 8;
	out->line = 64;
	for (int i = 0; i < 16; i++) {
		char dir[128], level[16], type[32], size[32], ways[16], line[16];
		snprintf(dir, sizeof(dir), "/sys/devices/system/cpu/cpu0/cache/index%d", i);
		if (read_sys(dir, "level", level, sizeof(level)) || strcmp(level, "1") ||
		    read_sys(dir, "type", type, sizeof(type)) || strcmp(type, "Instruction"))
			continue;
		if (read_sys(dir, "size", size, sizeof(size)) ||
		    read_sys(dir, "ways_of_associativity", ways, sizeof(ways)) ||
		    read_sys(dir, "coherency_line_size", line, sizeof(line)))
			return -1;
		char spec[100];
		struct cache_spec c;
		const char *why;
		snprintf(spec, sizeof(spec), "%s,%s,%s", size, ways, line);
		if (cache_parse_spec(spec, &c, &why))
			return -1;
		*out = c;
		return 0;
	}
	return -1;
}

const char *cache_spec_label(const struct cache_spec *c, char *buf, unsigned len)
{
	if (c->size % 1024 == 0)
		snprintf(buf, len, "%lluK/%u/%u", (unsigned long long)(c->size / 1024), c->ways, c->line);
	else
		snprintf(buf, len, "%llu/%u/%u", (unsigned long long)c->size, c->ways, c->line);
	return buf;
}
