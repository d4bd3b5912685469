/*
 * Reading the call frame information the loader mapped (eh_frame.h): the
 * pointer encodings of the LSB's .eh_frame, its CIEs as far as an FDE
 * needs them, FDEs, and the sorted search table of .eh_frame_hdr.
 */
#define _GNU_SOURCE
#include "eh_frame.h"

/* DW_EH_PE_* pointer encodings (LSB ABI) */
#define PE_OMIT 0xff
#define PE_FORMAT 0x0f
#define PE_ABSPTR 0x00
#define PE_UDATA2 0x02
#define PE_UDATA4 0x03
#define PE_UDATA8 0x04
#define PE_SDATA2 0x0a
#define PE_SDATA4 0x0b
#define PE_SDATA8 0x0c
#define PE_APPL 0x70
#define PE_PCREL 0x10
#define PE_DATAREL 0x30

int eh_readable(const struct eh_span *s, const uint8_t *p, size_t n)
{
	return p >= s->lo && p <= s->hi && (size_t)(s->hi - p) >= n;
}

/* The 4 bytes at P, which a damaged table may leave unaligned. */
static uint32_t load_u32(const uint8_t *p)
{
	uint32_t v;

	__builtin_memcpy(&v, p, 4);
	return v;
}

/* Reads the LEB128 at *P (inside S), sign-extended when SIGNED. */
static int get_leb(const struct eh_span *s, const uint8_t **p, uint64_t *out, int is_signed)
{
	uint64_t v = 0;

	for (int shift = 0; shift < 64; shift += 7) {
		if (!eh_readable(s, *p, 1))
			return -1;
		uint8_t b = *(*p)++;
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			if (is_signed && shift + 7 < 64 && (b & 0x40))
				v |= ~(uint64_t)0 << (shift + 7);
			*out = v;
			return 0;
		}
	}
	return -1;
}

int eh_get_uleb(const struct eh_span *s, const uint8_t **p, uint64_t *out)
{
	return get_leb(s, p, out, 0);
}

int eh_get_sleb(const struct eh_span *s, const uint8_t **p, int64_t *out)
{
	uint64_t v;

	if (get_leb(s, p, &v, 1))
		return -1;
	*out = (int64_t)v;
	return 0;
}

static size_t encoded_size(uint8_t enc)
{
	switch (enc & PE_FORMAT) {
	case PE_ABSPTR: case PE_UDATA8: case PE_SDATA8: return 8;
	case PE_UDATA4: case PE_SDATA4: return 4;
	case PE_UDATA2: case PE_SDATA2: return 2;
	default: return 0;
	}
}

/* Reads a pointer encoded with ENC at *P (pc- or data-relative to BASE). */
static int get_encoded(const struct eh_span *s, const uint8_t **p, uint8_t enc,
		       uintptr_t datarel, uintptr_t *out)
{
	size_t n = encoded_size(enc);
	const uint8_t *at = *p;
	int64_t v = 0;

	if (!n || !eh_readable(s, at, n))
		return -1;
	switch (enc & PE_FORMAT) {
	case PE_UDATA2: { uint16_t x; __builtin_memcpy(&x, at, 2); v = x; break; }
	case PE_SDATA2: { int16_t x; __builtin_memcpy(&x, at, 2); v = x; break; }
	case PE_UDATA4: v = load_u32(at); break;
	case PE_SDATA4: v = (int32_t)load_u32(at); break;
	default: __builtin_memcpy(&v, at, 8); break;
	}
	*p += n;
	switch (enc & PE_APPL) {
	case 0: break;
	case PE_PCREL: v += (int64_t)(uintptr_t)at; break;
	case PE_DATAREL: v += (int64_t)datarel; break;
	default: return -1;
	}
	*out = (uintptr_t)v;
	return 0;
}

/* What an FDE needs from its CIE: how its pointers are encoded, whether
 * it carries augmentation data, and what unwinding needs (eh_fde). */
struct cie_info {
	uint8_t fde_enc;
	int has_z;
	int signal;
	uint64_t code_align, ra;
	int64_t data_align;
	const uint8_t *insns, *end;
};

static int read_cie(const struct eh_span *s, const uint8_t *cie, struct cie_info *out)
{
	const uint8_t *p = cie;
	uint64_t skip;

	if (!eh_readable(s, p, 9) || load_u32(p) == 0xffffffffu || load_u32(p + 4) != 0 ||
	    !eh_readable(s, p + 4, load_u32(p)))
		return -1;	/* 64-bit DWARF, not a CIE, or past the segment */
	out->end = p + 4 + load_u32(p);
	p += 8;
	if (*p != 1 && *p != 3)
		return -1;
	const char *aug = (const char *)++p;
	while (eh_readable(s, p, 1) && *p)
		p++;
	if (!eh_readable(s, p, 1))
		return -1;
	p++;
	out->fde_enc = PE_ABSPTR;
	out->has_z = aug[0] == 'z';
	out->signal = 0;
	if (eh_get_uleb(s, &p, &out->code_align) || eh_get_sleb(s, &p, &out->data_align))
		return -1;
	if (cie[8] == 1) {
		if (!eh_readable(s, p, 1))
			return -1;
		out->ra = *p++;
	} else if (eh_get_uleb(s, &p, &out->ra)) {
		return -1;
	}
	out->insns = NULL;	/* unknown augmentation: no instructions */
	if (!out->has_z)
		return 0;
	if (eh_get_uleb(s, &p, &skip) || skip > (uint64_t)(out->end - p))
		return -1;
	const uint8_t *insns = p + skip;
	for (const char *a = aug + 1; *a; a++) {
		if (!eh_readable(s, p, 1))
			return -1;
		if (*a == 'R') {
			out->fde_enc = *p++;
		} else if (*a == 'L') {
			p++;
		} else if (*a == 'P') {
			uint8_t enc = *p++;
			uintptr_t ignored;
			if (get_encoded(s, &p, enc & 0x7f, 0, &ignored))
				return -1;
		} else if (*a == 'S') {
			out->signal = 1;
		} else if (*a != 'B') {
			return 0;	/* the rest cannot be parsed: R came first anyway */
		}
	}
	out->insns = insns;
	return 0;
}

int eh_fde_read(const struct eh_span *s, const uint8_t *fde, struct eh_fde *out)
{
	struct cie_info cie;

	if (!eh_readable(s, fde, 8))
		return -1;
	uint32_t len = load_u32(fde), cie_off = load_u32(fde + 4);
	if (len == 0xffffffffu || len < 8 || !cie_off || !eh_readable(s, fde + 4, len))
		return -1;
	const uint8_t *end = fde + 4 + len, *p = fde + 8;
	if ((uintptr_t)(fde + 4) < cie_off || read_cie(s, fde + 4 - cie_off, &cie))
		return -1;
	if (get_encoded(s, &p, cie.fde_enc, 0, &out->begin) ||
	    get_encoded(s, &p, cie.fde_enc & PE_FORMAT, 0, &out->range))
		return -1;
	if (cie.has_z) {
		uint64_t n;
		if (eh_get_uleb(s, &p, &n) || n > (uint64_t)(end - p))
			return -1;
		p += n;
	}
	out->insns = p;
	out->end = end;
	out->addr_size = encoded_size(cie.fde_enc);
	out->cie_insns = cie.insns;	/* NULL: an augmentation it cannot parse */
	out->cie_end = cie.end;
	out->code_align = cie.code_align;
	out->data_align = cie.data_align;
	out->ra = cie.ra;
	out->signal = cie.signal;
	return 0;
}

int eh_table_find(const struct dl_phdr_info *info, struct eh_table *out)
{
	const ElfW(Phdr) *hdr_ph = NULL;
	struct eh_span s = { NULL, NULL };

	for (int i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_GNU_EH_FRAME)
			hdr_ph = &info->dlpi_phdr[i];
	if (!hdr_ph)
		return -1;
	const uint8_t *hdr = (const uint8_t *)(info->dlpi_addr + hdr_ph->p_vaddr);
	/* the mapped segment that holds the table bounds every read: the
	 * table and .eh_frame share the read-only segment */
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type == PT_LOAD && ph->p_vaddr <= hdr_ph->p_vaddr &&
		    hdr_ph->p_vaddr < ph->p_vaddr + ph->p_filesz) {
			s.lo = (const uint8_t *)(info->dlpi_addr + ph->p_vaddr);
			s.hi = s.lo + ph->p_filesz;
		}
	}
	if (!s.lo || !eh_readable(&s, hdr, 4) || hdr[0] != 1)
		return -1;
	uint8_t ptr_enc = hdr[1], count_enc = hdr[2], table_enc = hdr[3];
	const uint8_t *p = hdr + 4;
	uintptr_t eh_frame, count;
	if (ptr_enc == PE_OMIT || count_enc == PE_OMIT || table_enc == PE_OMIT ||
	    get_encoded(&s, &p, ptr_enc, (uintptr_t)hdr, &eh_frame) ||
	    get_encoded(&s, &p, count_enc, (uintptr_t)hdr, &count))
		return -1;
	size_t entry = 2 * encoded_size(table_enc);
	if (!entry || count > (uintptr_t)(s.hi - p) / entry)
		return -1;
	out->span = s;
	out->hdr = hdr;
	out->entries = p;
	out->count = count;
	out->enc = table_enc;
	return 0;
}

int eh_table_entry(const struct eh_table *t, size_t i, uintptr_t *begin, const uint8_t **fde)
{
	const uint8_t *e = t->entries + i * 2 * encoded_size(t->enc);
	uintptr_t at;

	if (i >= t->count || get_encoded(&t->span, &e, t->enc, (uintptr_t)t->hdr, begin) ||
	    get_encoded(&t->span, &e, t->enc, (uintptr_t)t->hdr, &at))
		return -1;
	*fde = (const uint8_t *)at;
	return 0;
}

int eh_fde_find(const struct eh_table *t, uintptr_t pc, struct eh_fde *out)
{
	size_t lo = 0, hi = t->count;
	uintptr_t begin;
	const uint8_t *fde;

	/* the last entry that begins at or before PC */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (eh_table_entry(t, mid, &begin, &fde))
			return -1;
		if (begin <= pc)
			lo = mid;
		else
			hi = mid;
	}
	if (!t->count || eh_table_entry(t, lo, &begin, &fde) || begin > pc ||
	    eh_fde_read(&t->span, fde, out) || out->begin != begin || pc - begin >= out->range)
		return -1;
	return 0;
}

uintptr_t eh_function_start(const struct eh_table *t, uintptr_t pc)
{
	struct eh_fde f;

	return eh_fde_find(t, pc, &f) ? 0 : f.begin;
}
