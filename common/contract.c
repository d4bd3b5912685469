#include "contract.h"

#include <string.h>

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Parses lowercase hex without prefix; returns the characters used or 0. */
static size_t parse_hex(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;
	size_t i = 0;

	for (; i < len && hex_digit(s[i]) >= 0; i++) {
		if (i == 16)
			return 0;
		v = v << 4 | (uint64_t)hex_digit(s[i]);
	}
	*out = v;
	return i;
}

/* ADDR+SIZE; returns the characters used or 0. */
static size_t parse_range(const char *s, size_t len, struct contract_range *r)
{
	size_t a = parse_hex(s, len, &r->addr);
	if (!a || a >= len || s[a] != '+')
		return 0;
	size_t b = parse_hex(s + a + 1, len - a - 1, &r->size);
	return b ? a + 1 + b : 0;
}

static int parse_u32(const char *s, size_t len, uint32_t *out)
{
	uint64_t v = 0;

	if (len == 0 || len > 10)
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (v > UINT32_MAX)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

int contract_parse(const char *text, struct contract *out, const char **why)
{
	const char *p = text;
	int have_version = 0, have_dir = 0;

	memset(out, 0, sizeof(*out));
	out->chunk_bytes = CONTRACT_CHUNK_DEFAULT;
	out->clock = CONTRACT_CLOCK_TSC;
	if (!text) {
		*why = "missing";
		return -1;
	}
	while (*p && !have_dir) {
		const char *eq = strchr(p, '=');
		if (!eq) {
			*why = "field without '='";
			return -1;
		}
		size_t klen = (size_t)(eq - p);
		const char *val = eq + 1;

		if (klen == 3 && !memcmp(p, "dir", 3)) {
			size_t vlen = strlen(val);
			if (vlen == 0 || vlen >= sizeof(out->dir)) {
				*why = "bad dir length";
				return -1;
			}
			memcpy(out->dir, val, vlen + 1);
			have_dir = 1;
			break;
		}
		if (klen == 3 && !memcmp(p, "smp", 3)) {
			const char *colon = strchr(val, ':');
			uint32_t len;
			struct sampling s;
			if (!colon || parse_u32(val, (size_t)(colon - val), &len) ||
			    len >= sizeof(out->sampling) || strnlen(colon + 1, len) != len ||
			    colon[1 + len] != ';') {
				*why = "bad sampling settings length";
				return -1;
			}
			memcpy(out->sampling, colon + 1, len);
			out->sampling[len] = '\0';
			if (!len || sampling_parse(out->sampling, &s, why) != 0) {
				if (!len)
					*why = "empty sampling settings";
				return -1;
			}
			p = colon + 1 + len + 1;
			continue;
		}
		const char *semi = strchr(val, ';');
		if (!semi) {
			*why = "field not ended by ';' (dir must come last)";
			return -1;
		}
		size_t vlen = (size_t)(semi - val);
		if (klen == 1 && p[0] == 'v') {
			if (parse_u32(val, vlen, &out->version) ||
			    out->version != CONTRACT_VERSION) {
				*why = "unsupported contract version";
				return -1;
			}
			have_version = 1;
		} else if (klen == 5 && !memcmp(p, "chunk", 5)) {
			if (parse_u32(val, vlen, &out->chunk_bytes) ||
			    out->chunk_bytes < CONTRACT_CHUNK_MIN ||
			    out->chunk_bytes > CONTRACT_CHUNK_MAX ||
			    (out->chunk_bytes & 4095)) {
				*why = "bad chunk size";
				return -1;
			}
		} else if (klen == 4 && !memcmp(p, "ring", 4)) {
			if (parse_u32(val, vlen, &out->ring_bytes) ||
			    out->ring_bytes < CONTRACT_RING_MIN ||
			    out->ring_bytes > CONTRACT_RING_MAX || (out->ring_bytes & 4095)) {
				*why = "bad ring size";
				return -1;
			}
		} else if (klen == 5 && !memcmp(p, "start", 5)) {
			if (parse_range(val, vlen, &out->start) != vlen) {
				*why = "bad start trigger";
				return -1;
			}
			out->has_start = 1;
		} else if (klen == 4 && !memcmp(p, "stop", 4)) {
			size_t used = 0;
			while (used < vlen) {
				if (out->nstops == CONTRACT_STOPS_MAX) {
					*why = "too many stop triggers";
					return -1;
				}
				size_t n = parse_range(val + used, vlen - used, &out->stops[out->nstops++]);
				/* a range, then either the end or a comma and another */
				if (!n || (used + n < vlen && (val[used + n] != ',' || used + n + 1 == vlen))) {
					*why = "bad stop trigger";
					return -1;
				}
				used += n + (used + n < vlen);
			}
		} else if (klen == 2 && !memcmp(p, "ev", 2)) {
			size_t used = 0;
			while (used < vlen) {
				const char *colon = memchr(val + used, ':', vlen - used);
				struct contract_counter *c = &out->counters[out->ncounters];
				uint32_t type;
				if (out->ncounters == CONTRACT_COUNTERS_MAX || !colon ||
				    parse_u32(val + used, (size_t)(colon - val - used), &type)) {
					*why = "bad counter";
					return -1;
				}
				size_t rest = vlen - (size_t)(colon + 1 - val);
				size_t n = parse_hex(colon + 1, rest, &c->config);
				if (!n || (n < rest && (colon[1 + n] != ',' || n + 1 == rest))) {
					*why = "bad counter";
					return -1;
				}
				c->type = type;
				out->ncounters++;
				used = (size_t)(colon + 1 - val) + n + (n < rest);
			}
		} else if (klen == 5 && !memcmp(p, "count", 5)) {
			if (parse_u32(val, vlen, &out->count_nodes) ||
			    out->count_nodes < CONTRACT_NODES_MIN ||
			    out->count_nodes > CONTRACT_NODES_MAX) {
				*why = "bad node count";
				return -1;
			}
		} else if (klen == 7 && !memcmp(p, "stopped", 7)) {
			out->start_stopped = vlen == 1 && val[0] == '1';
		} else if (klen == 6 && !memcmp(p, "sample", 6)) {
			out->sample_only = vlen == 1 && val[0] == '1';
		} else if (klen == 5 && !memcmp(p, "patch", 5)) {
			out->patch = vlen == 1 && val[0] == '1';
		} else if (klen == 6 && !memcmp(p, "timeby", 6)) {
			if (vlen != 7 || memcmp(val, "samples", 7)) {
				*why = "unknown time source";
				return -1;
			}
			out->time_by_samples = 1;
		} else if (klen == 4 && !memcmp(p, "live", 4)) {
			if (vlen == 5 && !memcmp(val, "start", 5))
				out->live = CONTRACT_LIVE_AT_START;
			else if (vlen == 5 && !memcmp(val, "never", 5))
				out->live = CONTRACT_LIVE_NEVER;
			else {
				*why = "unknown live setting";
				return -1;
			}
		} else if (klen == 6 && !memcmp(p, "cstats", 6)) {
			out->call_stats = vlen == 1 && val[0] == '1';
		} else if (klen == 5 && !memcmp(p, "hooks", 5)) {
			if (parse_u32(val, vlen, &out->hooks)) {
				*why = "bad hook kinds";
				return -1;
			}
		} else if (klen == 7 && !memcmp(p, "onepass", 7)) {
			out->one_pass = vlen == 1 && val[0] == '1';
		} else if (klen == 5 && !memcmp(p, "clock", 5)) {
			if (vlen == 3 && !memcmp(val, "tsc", 3))
				out->clock = CONTRACT_CLOCK_TSC;
			else if (vlen == 4 && !memcmp(val, "mono", 4))
				out->clock = CONTRACT_CLOCK_MONO;
			else {
				*why = "unknown clock";
				return -1;
			}
		} else {
			*why = "unknown field";
			return -1;
		}
		p = semi + 1;
	}
	if (!have_version) {
		*why = "no version";
		return -1;
	}
	if (!have_dir) {
		*why = "no dir";
		return -1;
	}
	return 0;
}

static char *append(char *p, char *end, const char *s)
{
	while (p && *s) {
		if (p >= end)
			return NULL;
		*p++ = *s++;
	}
	return p;
}

static char *append_hex(char *p, char *end, uint64_t v)
{
	char digits[16];
	int n = 0;

	do {
		digits[n++] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	while (p && n) {
		if (p >= end)
			return NULL;
		*p++ = digits[--n];
	}
	return p;
}

static char *append_range(char *p, char *end, const struct contract_range *r)
{
	p = append_hex(p, end, r->addr);
	p = append(p, end, "+");
	return append_hex(p, end, r->size);
}

static char *append_u32(char *p, char *end, uint32_t v)
{
	char digits[11];
	int n = 0;

	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (p && n) {
		if (p >= end)
			return NULL;
		*p++ = digits[--n];
	}
	return p;
}

int contract_format(const struct contract *c, char *buf, size_t size)
{
	char *end = buf + size, *p = buf;

	p = append(p, end, "v=");
	p = append_u32(p, end, c->version);
	p = append(p, end, ";chunk=");
	p = append_u32(p, end, c->chunk_bytes);
	p = append(p, end, c->clock == CONTRACT_CLOCK_MONO ? ";clock=mono" : ";clock=tsc");
	if (c->ring_bytes) {
		p = append(p, end, ";ring=");
		p = append_u32(p, end, c->ring_bytes);
	}
	if (c->has_start) {
		p = append(p, end, ";start=");
		p = append_range(p, end, &c->start);
	}
	for (uint32_t i = 0; i < c->nstops; i++) {
		p = append(p, end, i ? "," : ";stop=");
		p = append_range(p, end, &c->stops[i]);
	}
	if (c->one_pass)
		p = append(p, end, ";onepass=1");
	for (uint32_t i = 0; i < c->ncounters; i++) {
		p = append(p, end, i ? "," : ";ev=");
		p = append_u32(p, end, c->counters[i].type);
		p = append(p, end, ":");
		p = append_hex(p, end, c->counters[i].config);
	}
	if (c->count_nodes) {
		p = append(p, end, ";count=");
		p = append_u32(p, end, c->count_nodes);
	}
	if (c->start_stopped)
		p = append(p, end, ";stopped=1");
	if (c->sample_only)
		p = append(p, end, ";sample=1");
	if (c->patch)
		p = append(p, end, ";patch=1");
	if (c->time_by_samples)
		p = append(p, end, ";timeby=samples");
	if (c->call_stats)
		p = append(p, end, ";cstats=1");
	if (c->live == CONTRACT_LIVE_AT_START)
		p = append(p, end, ";live=start");
	else if (c->live == CONTRACT_LIVE_NEVER)
		p = append(p, end, ";live=never");
	if (c->hooks) {
		p = append(p, end, ";hooks=");
		p = append_u32(p, end, c->hooks);
	}
	if (c->sampling[0]) {
		p = append(p, end, ";smp=");
		p = append_u32(p, end, (uint32_t)strlen(c->sampling));
		p = append(p, end, ":");
		p = append(p, end, c->sampling);
	}
	p = append(p, end, ";dir=");
	p = append(p, end, c->dir);
	if (!p || p >= end)
		return -1;
	*p = '\0';
	return 0;
}

int image_mark_parse(const char *value, uint32_t *pid, uint32_t *image)
{
	/* each number in its 10 digits */
	if (strlen(value) != IMAGE_MARK_LEN || value[10] != '.' || parse_u32(value, 10, pid) ||
	    parse_u32(value + 11, 10, image))
		return -1;
	return 0;
}

static void write_mark_field(char *s, uint32_t v)
{
	for (int i = 9; i >= 0; i--, v /= 10)
		s[i] = (char)('0' + v % 10);
}

void image_mark_write(char *value, uint32_t pid, uint32_t image)
{
	write_mark_field(value, pid);
	write_mark_field(value + 11, image);
}
