/*
 * Reader of CodeScape .prf files (formats/prf.h, docs/prf.md).  The file
 * is hostile: every length is checked against the bytes that remain,
 * counts are bounded by the bytes they would need before anything is
 * allocated, every record's L must equal what its fields take, and the
 * trace records must nest (each return closes the innermost open call).
 * The first problem ends the parse with its offset and record named.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "formats/prf.h"
#include "xalloc.h"

struct dec {
	const uint8_t *base, *p, *end;
	int be;
	int failed;
	char *err;
	size_t errlen;
	char what[48];		/* the record being read, for messages */
};

static void fail(struct dec *d, const uint8_t *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void fail(struct dec *d, const uint8_t *at, const char *fmt, ...)
{
	char msg[160];
	va_list ap;

	if (d->failed)
		return;
	d->failed = 1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(d->err, d->errlen, "offset %zu in %s: %s", (size_t)(at - d->base), d->what, msg);
}

static uint64_t get_n(struct dec *d, int bytes)
{
	uint64_t v = 0;

	if (d->failed)
		return 0;
	if (d->end - d->p < bytes) {
		fail(d, d->p, "truncated");
		return 0;
	}
	for (int i = 0; i < bytes; i++) {
		int shift = 8 * (d->be ? bytes - 1 - i : i);
		v |= (uint64_t)d->p[i] << shift;
	}
	d->p += bytes;
	return v;
}

static uint8_t get_u8(struct dec *d) { return (uint8_t)get_n(d, 1); }
static uint16_t get_u16(struct dec *d) { return (uint16_t)get_n(d, 2); }
static uint32_t get_u32(struct dec *d) { return (uint32_t)get_n(d, 4); }
static uint64_t get_u64(struct dec *d) { return get_n(d, 8); }

static void get_bytes(struct dec *d, void *dst, size_t n)
{
	if (d->failed)
		return;
	if ((size_t)(d->end - d->p) < n) {
		fail(d, d->p, "truncated");
		return;
	}
	memcpy(dst, d->p, n);
	d->p += n;
}

static void get_name(struct dec *d, struct prf_name *n)
{
	uint16_t len = get_u16(d);

	if (d->failed)
		return;
	if ((size_t)(d->end - d->p) < len) {
		fail(d, d->p - 2, "a name of %u bytes runs past the record", len);
		return;
	}
	n->s = xmalloc((size_t)len + 1);
	memcpy(n->s, d->p, len);
	n->s[len] = '\0';
	n->len = len;
	d->p += len;
}

static void get_func_body(struct dec *d, struct prf_func *f)
{
	f->description = get_u8(d);
	f->attributes = get_u16(d);
	f->cache_line = get_u16(d);
	f->min_pc = get_u32(d);
	f->max_pc = get_u32(d);
	f->overlay_area = get_u32(d);
	f->overlay_id = get_u32(d);
	f->group_id = get_u32(d);
	get_bytes(d, f->spare, sizeof(f->spare));
	f->hits = get_u64(d);
	f->c1 = get_u64(d);
	f->c1_self = get_u64(d);
	f->c2 = get_u64(d);
	f->c2_self = get_u64(d);
	get_name(d, &f->name);
	get_name(d, &f->label);
	get_name(d, &f->qualified);
}

/*
 * Starts a structure: reads its L and narrows the decoder to its L
 * bytes.  Returns the old end, to restore with end_struct().
 */
static const uint8_t *begin_struct(struct dec *d, uint32_t *len, uint32_t min_len)
{
	const uint8_t *start = d->p, *old_end = d->end;

	*len = get_u32(d);
	if (d->failed)
		return old_end;
	if (*len < min_len)
		fail(d, start, "length %u is too short (at least %u)", *len, min_len);
	else if ((size_t)(d->end - d->p) < *len)
		fail(d, start, "length %u runs past the end of the file", *len);
	else
		d->end = d->p + *len;
	return old_end;
}

static void end_struct(struct dec *d, const uint8_t *old_end, uint32_t len)
{
	if (!d->failed && d->p != d->end)
		fail(d, d->p, "length %u does not match its fields (%zu bytes left over)", len,
		     (size_t)(d->end - d->p));
	d->end = old_end;
}

/* Positions the decoder at region offset OFF (from the header's end)
 * holding COUNT records of at least MIN_SIZE bytes each. */
static void seek_region(struct dec *d, const uint8_t *region_base, uint32_t off, uint32_t count,
			size_t min_size, const char *what)
{
	size_t left = (size_t)(d->end - region_base);

	snprintf(d->what, sizeof(d->what), "header");
	if (off > left) {
		fail(d, region_base, "the %s offset %u lies past the end of the file", what, off);
		return;
	}
	if ((uint64_t)count * min_size > left - off) {
		fail(d, region_base, "%u %s cannot fit in the %zu bytes after offset %u", count,
		     what, left - off, off);
		return;
	}
	d->p = region_base + off;
}

int prf_parse(const uint8_t *bytes, size_t n, struct prf_file *out, char *err, size_t errlen)
{
	struct dec d = { bytes, bytes, bytes + n, 0, 0, err, errlen, "header" };
	struct prf_header *h = &out->h;

	memset(out, 0, sizeof(*out));
	if (n < PRF_MAGIC_LEN || memcmp(bytes, PRF_MAGIC, PRF_MAGIC_LEN)) {
		snprintf(err, errlen, "not a CodeScape profile: it does not start with '%s'",
			 PRF_MAGIC);
		return -1;
	}
	d.p += PRF_MAGIC_LEN;
	/* The header's length is 85 in the file's byte order: that tells it. */
	if (n >= PRF_MAGIC_LEN + 4 && d.p[0] == 0 && d.p[3] == PRF_HEADER_LEN)
		d.be = 1;
	out->big_endian = d.be;
	uint32_t len;
	const uint8_t *old_end = begin_struct(&d, &len, PRF_HEADER_LEN);
	if (!d.failed && len != PRF_HEADER_LEN)
		fail(&d, bytes + PRF_MAGIC_LEN, "length %u, expected %u", len, PRF_HEADER_LEN);
	h->version = get_u8(&d);
	get_bytes(&d, h->spare1, sizeof(h->spare1));
	h->icache = get_u8(&d);
	h->day = get_u8(&d);
	h->month = get_u8(&d);
	h->year = get_u8(&d);
	h->hour = get_u8(&d);
	h->minute = get_u8(&d);
	h->second = get_u8(&d);
	const uint8_t *type_at = d.p;
	h->type = get_u8(&d);
	h->hits = get_u64(&d);
	h->c1 = get_u64(&d);
	h->c1_self = get_u64(&d);
	h->c2 = get_u64(&d);
	h->c2_self = get_u64(&d);
	h->counter1 = get_u8(&d);
	h->counter2 = get_u8(&d);
	uint32_t noverlays = get_u32(&d), nfuncs = get_u32(&d);
	const uint8_t *calls_at = d.p;
	uint32_t ncalls = get_u32(&d);
	uint32_t overlay_off = get_u32(&d), func_off = get_u32(&d), trace_off = get_u32(&d);
	get_bytes(&d, h->spare2, sizeof(h->spare2));
	end_struct(&d, old_end, len);
	if (!d.failed && h->type != PRF_STATISTICAL && h->type != PRF_TRACE)
		fail(&d, type_at, "unknown profile type %u (1 statistical, 2 trace)", h->type);
	if (!d.failed && h->type == PRF_STATISTICAL && ncalls)
		fail(&d, calls_at, "a statistical profile cannot hold %u trace calls", ncalls);
	if (d.failed)
		return -1;

	const uint8_t *region_base = d.p;
	if (noverlays) {
		seek_region(&d, region_base, overlay_off, noverlays, 4 + PRF_OVERLAY_LEN,
			    "overlay records");
		if (!d.failed)
			out->overlays = xcalloc(noverlays, sizeof(*out->overlays));
		for (uint32_t i = 0; i < noverlays && !d.failed; i++) {
			snprintf(d.what, sizeof(d.what), "overlay record %u", i);
			old_end = begin_struct(&d, &len, PRF_OVERLAY_LEN);
			struct prf_overlay *o = &out->overlays[i];
			o->index_id = get_u32(&d);
			o->start = get_u32(&d);
			o->end = get_u32(&d);
			o->current = get_u32(&d);
			end_struct(&d, old_end, len);
			out->noverlays = i + 1;
		}
	}
	if (nfuncs && !d.failed) {
		seek_region(&d, region_base, func_off, nfuncs, 4 + PRF_FUNC_FIXED_LEN,
			    "function records");
		if (!d.failed)
			out->funcs = xcalloc(nfuncs, sizeof(*out->funcs));
		for (uint32_t i = 0; i < nfuncs && !d.failed; i++) {
			snprintf(d.what, sizeof(d.what), "function record %u", i);
			old_end = begin_struct(&d, &len, PRF_FUNC_FIXED_LEN);
			out->nfuncs = i + 1;
			get_func_body(&d, &out->funcs[i]);
			end_struct(&d, old_end, len);
		}
	}
	if (ncalls && !d.failed) {
		/* Each call has its return: 2 x ncalls records. */
		seek_region(&d, region_base, trace_off, ncalls,
			    (4 + PRF_CALL_FIXED_LEN) + (4 + PRF_RETURN_LEN), "trace calls");
		uint32_t *open = NULL;
		size_t depth = 0, calls_seen = 0;
		if (!d.failed) {
			out->trace = xcalloc((size_t)ncalls * 2, sizeof(*out->trace));
			out->trace_alloc = (size_t)ncalls * 2;
			open = xcalloc(ncalls, sizeof(*open));
		}
		for (size_t i = 0; i < (size_t)ncalls * 2 && !d.failed; i++) {
			struct prf_trace *t = &out->trace[i];
			const uint8_t *at = d.p;
			snprintf(d.what, sizeof(d.what), "trace record %zu", i);
			old_end = begin_struct(&d, &len, PRF_RETURN_LEN);
			uint8_t mark = get_u8(&d);
			t->call_number = get_u32(&d);
			if (d.failed)
				break;
			out->ntrace = i + 1;
			if (mark == PRF_CALL_MARK) {
				t->is_call = 1;
				if (calls_seen == ncalls) {
					fail(&d, at, "more calls than the %u the header counts", ncalls);
					break;
				}
				if (len < PRF_CALL_FIXED_LEN) {
					fail(&d, at, "a call record of length %u is too short", len);
					break;
				}
				get_func_body(&d, &t->f);
				open[depth++] = t->call_number;
				calls_seen++;
			} else if (mark == PRF_RETURN_MARK) {
				if (len != PRF_RETURN_LEN)
					fail(&d, at, "a return record of length %u (expected %u)", len,
					     PRF_RETURN_LEN);
				else if (!depth)
					fail(&d, at, "return from call %u while no call is open",
					     t->call_number);
				else if (open[depth - 1] != t->call_number)
					fail(&d, at, "return from call %u while call %u is the innermost",
					     t->call_number, open[depth - 1]);
				else
					depth--;
			} else {
				fail(&d, at, "unknown record kind 0x%02x (0xff call, 0x00 return)", mark);
			}
			end_struct(&d, old_end, len);
		}
		if (!d.failed && depth)
			fail(&d, d.p, "%zu calls never return", depth);
		free(open);
	}
	return d.failed ? -1 : 0;
}

static void func_release(struct prf_func *f)
{
	free(f->name.s);
	free(f->label.s);
	free(f->qualified.s);
}

void prf_file_release(struct prf_file *f)
{
	for (size_t i = 0; i < f->nfuncs; i++)
		func_release(&f->funcs[i]);
	for (size_t i = 0; i < f->ntrace; i++)
		if (f->trace[i].is_call)
			func_release(&f->trace[i].f);
	free(f->overlays);
	free(f->funcs);
	free(f->trace);
	memset(f, 0, sizeof(*f));
}
