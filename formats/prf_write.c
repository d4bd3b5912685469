/*
 * Writer of CodeScape .prf files (formats/prf.h, docs/prf.md).  The
 * layout is canonical: header, then the overlay, function and trace
 * regions back to back in that order, so the offsets follow from the
 * counts and a file read back is written byte for byte the same.
 */
#include <stdlib.h>
#include <string.h>

#include "formats/bytebuf.h"
#include "formats/prf.h"

struct enc {
	struct bytebuf b;
	int be;
};

static void put_n(struct enc *e, uint64_t v, int bytes)
{
	uint8_t tmp[8];

	for (int i = 0; i < bytes; i++) {
		int shift = 8 * (e->be ? bytes - 1 - i : i);
		tmp[i] = (uint8_t)(v >> shift);
	}
	bytebuf_add(&e->b, tmp, (size_t)bytes);
}

static void put_u8(struct enc *e, uint8_t v) { put_n(e, v, 1); }
static void put_u16(struct enc *e, uint16_t v) { put_n(e, v, 2); }
static void put_u32(struct enc *e, uint32_t v) { put_n(e, v, 4); }
static void put_u64(struct enc *e, uint64_t v) { put_n(e, v, 8); }

static void put_name(struct enc *e, const struct prf_name *n)
{
	put_u16(e, n->len);
	bytebuf_add(&e->b, n->s, n->len);
}

static uint32_t names_len(const struct prf_func *f)
{
	return (uint32_t)f->name.len + f->label.len + f->qualified.len;
}

/* The body shared by function and call records, from the description on. */
static void put_func_body(struct enc *e, const struct prf_func *f)
{
	put_u8(e, f->description);
	put_u16(e, f->attributes);
	put_u16(e, f->cache_line);
	put_u32(e, f->min_pc);
	put_u32(e, f->max_pc);
	put_u32(e, f->overlay_area);
	put_u32(e, f->overlay_id);
	put_u32(e, f->group_id);
	bytebuf_add(&e->b, f->spare, sizeof(f->spare));
	put_u64(e, f->hits);
	put_u64(e, f->c1);
	put_u64(e, f->c1_self);
	put_u64(e, f->c2);
	put_u64(e, f->c2_self);
	put_name(e, &f->name);
	put_name(e, &f->label);
	put_name(e, &f->qualified);
}

uint8_t *prf_encode(const struct prf_file *f, size_t *len)
{
	struct enc e = { { 0 }, f->big_endian };
	const struct prf_header *h = &f->h;
	size_t overlay_bytes = f->noverlays * (4 + PRF_OVERLAY_LEN), func_bytes = 0;
	uint32_t calls = 0;

	for (size_t i = 0; i < f->nfuncs; i++)
		func_bytes += 4 + PRF_FUNC_FIXED_LEN + names_len(&f->funcs[i]);
	for (size_t i = 0; i < f->ntrace; i++)
		calls += f->trace[i].is_call;

	bytebuf_add(&e.b, PRF_MAGIC, PRF_MAGIC_LEN);
	put_u32(&e, PRF_HEADER_LEN);
	put_u8(&e, h->version);
	bytebuf_add(&e.b, h->spare1, sizeof(h->spare1));
	put_u8(&e, h->icache);
	put_u8(&e, h->day);
	put_u8(&e, h->month);
	put_u8(&e, h->year);
	put_u8(&e, h->hour);
	put_u8(&e, h->minute);
	put_u8(&e, h->second);
	put_u8(&e, h->type);
	put_u64(&e, h->hits);
	put_u64(&e, h->c1);
	put_u64(&e, h->c1_self);
	put_u64(&e, h->c2);
	put_u64(&e, h->c2_self);
	put_u8(&e, h->counter1);
	put_u8(&e, h->counter2);
	put_u32(&e, (uint32_t)f->noverlays);
	put_u32(&e, (uint32_t)f->nfuncs);
	put_u32(&e, h->type == PRF_TRACE ? calls : 0);
	put_u32(&e, 0);					/* overlays right after the header */
	put_u32(&e, (uint32_t)overlay_bytes);		/* then the functions */
	put_u32(&e, h->type == PRF_TRACE ? (uint32_t)(overlay_bytes + func_bytes) : 0);
	bytebuf_add(&e.b, h->spare2, sizeof(h->spare2));

	for (size_t i = 0; i < f->noverlays; i++) {
		put_u32(&e, PRF_OVERLAY_LEN);
		put_u32(&e, f->overlays[i].index_id);
		put_u32(&e, f->overlays[i].start);
		put_u32(&e, f->overlays[i].end);
		put_u32(&e, f->overlays[i].current);
	}
	for (size_t i = 0; i < f->nfuncs; i++) {
		put_u32(&e, PRF_FUNC_FIXED_LEN + names_len(&f->funcs[i]));
		put_func_body(&e, &f->funcs[i]);
	}
	for (size_t i = 0; h->type == PRF_TRACE && i < f->ntrace; i++) {
		const struct prf_trace *t = &f->trace[i];
		if (t->is_call) {
			put_u32(&e, PRF_CALL_FIXED_LEN + names_len(&t->f));
			put_u8(&e, PRF_CALL_MARK);
			put_u32(&e, t->call_number);
			put_func_body(&e, &t->f);
		} else {
			put_u32(&e, PRF_RETURN_LEN);
			put_u8(&e, PRF_RETURN_MARK);
			put_u32(&e, t->call_number);
		}
	}
	*len = e.b.len;
	return e.b.p;
}

int prf_write(FILE *out, const struct prf_file *f)
{
	size_t len;
	uint8_t *bytes = prf_encode(f, &len);
	int rc = fwrite(bytes, 1, len, out) == len && fflush(out) == 0 ? 0 : -1;

	free(bytes);
	return rc;
}

void prf_name_set(struct prf_name *name, const char *s)
{
	size_t n = strlen(s);

	/* A name holds at most 65535 bytes: a longer one is cut. */
	if (n > UINT16_MAX)
		n = UINT16_MAX;
	free(name->s);
	name->s = xmalloc(n + 1);
	memcpy(name->s, s, n);
	name->s[n] = '\0';
	name->len = (uint16_t)n;
}

const char *prf_counter_name(uint8_t id)
{
	switch (id) {
	case PRF_COUNTER_NONE: return "none";
	case PRF_COUNTER_ICACHE_MISS: return "instruction cache miss";
	case PRF_COUNTER_INSN_EXEC: return "instruction execution";
	case PRF_COUNTER_ELAPSED: return "elapsed time";
	case PRF_COUNTER_FREEZE_24:
	case PRF_COUNTER_FREEZE_25: return "pipeline freeze by cache miss";
	default: return NULL;
	}
}
