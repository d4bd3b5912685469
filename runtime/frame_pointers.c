/*
 * Whether a loaded object's code keeps frame pointers, read from its call
 * frame information (the .eh_frame the loader mapped, found through
 * PT_GNU_EH_FRAME's search table).
 *
 * The sampler walks frame pointers only where they can be trusted: a
 * function built with -fomit-frame-pointer uses rbp as an ordinary
 * register, so a walk through it either stops early or, worse, skips its
 * caller.  The call frame information says which functions set up a
 * frame: theirs move the CFA rule to rbp (DW_CFA_def_cfa_register 6, or
 * DW_CFA_def_cfa 6, n).  An object keeps frame pointers when most of its
 * functions do; compilers choose per translation unit, so the share is
 * near 0 % or near 100 % in practice.
 *
 * Only the program's own mapped memory is read, never in a signal
 * handler, and every read is checked against the mapped segment that holds
 * the table, so a damaged table gives "unknown", never a fault.
 */
#define _GNU_SOURCE
#include "frame_pointers.h"

#include <stddef.h>

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

#define REG_FRAME 6		/* rbp in the x86-64 DWARF numbering */
#define SCAN_MAX 64		/* FDEs looked at per object, spread over it: enough
				 * to tell a share over 90 % from one under 60 % (the
				 * 75 % line is 4 and 2.4 standard deviations away),
				 * while each FDE read is a cold cache line and page:
				 * 256 cost a program's start 0.1 ms more */
#define SMALL_FUNCTION 16	/* bytes: stubs that need no frame either way */

/* A byte range the reads must stay inside. */
struct span {
	const uint8_t *lo, *hi;
};

static int readable(const struct span *s, const uint8_t *p, size_t n)
{
	return p >= s->lo && p <= s->hi && (size_t)(s->hi - p) >= n;
}

static int get_uleb(const struct span *s, const uint8_t **p, uint64_t *out)
{
	uint64_t v = 0;

	for (int shift = 0; shift < 64; shift += 7) {
		if (!readable(s, *p, 1))
			return -1;
		uint8_t b = *(*p)++;
		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*out = v;
			return 0;
		}
	}
	return -1;
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
static int get_encoded(const struct span *s, const uint8_t **p, uint8_t enc,
		       uintptr_t datarel, uintptr_t *out)
{
	size_t n = encoded_size(enc);
	const uint8_t *at = *p;
	int64_t v = 0;

	if (!n || !readable(s, at, n))
		return -1;
	switch (enc & PE_FORMAT) {
	case PE_UDATA2: v = *(const uint16_t *)at; break;
	case PE_SDATA2: v = *(const int16_t *)at; break;
	case PE_UDATA4: v = *(const uint32_t *)at; break;
	case PE_SDATA4: v = *(const int32_t *)at; break;
	default: v = *(const int64_t *)at; break;
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

/* What an FDE needs from its CIE: how its pointers are encoded and
 * whether it carries augmentation data. */
struct cie_info {
	uint8_t fde_enc;
	int has_z;
};

static int read_cie(const struct span *s, const uint8_t *cie, struct cie_info *out)
{
	const uint8_t *p = cie;
	uint64_t skip;

	if (!readable(s, p, 9) || *(const uint32_t *)p == 0xffffffffu ||
	    *(const uint32_t *)(p + 4) != 0)
		return -1;	/* 64-bit DWARF, or not a CIE */
	p += 8;
	if (*p != 1 && *p != 3)
		return -1;
	const char *aug = (const char *)++p;
	while (readable(s, p, 1) && *p)
		p++;
	if (!readable(s, p, 1))
		return -1;
	p++;
	out->fde_enc = PE_ABSPTR;
	out->has_z = aug[0] == 'z';
	if (get_uleb(s, &p, &skip) || get_uleb(s, &p, &skip))	/* alignments */
		return -1;
	if (cie[8] == 1)
		p++;
	else if (get_uleb(s, &p, &skip))
		return -1;
	if (!out->has_z)
		return 0;
	if (get_uleb(s, &p, &skip))
		return -1;
	for (const char *a = aug + 1; *a; a++) {
		if (!readable(s, p, 1))
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
		} else if (*a != 'S' && *a != 'B') {
			return 0;	/* the rest cannot be parsed: R came first anyway */
		}
	}
	return 0;
}

/*
 * Whether the instructions [P, END) make rbp the CFA register: 1 when
 * they do, 0 when they move the CFA some other way, -1 when they never
 * move it (a leaf that pushes nothing: it has no frame to keep either
 * way, and its caller is found from the top of the stack), describe a
 * PLT stub (a CFA expression) or use an opcode it does not know.
 */
static int sets_frame_register(const struct span *s, const uint8_t *p, const uint8_t *end,
			       size_t addr_size)
{
	struct span in = { s->lo, end < s->hi ? end : s->hi };
	uint64_t a, b;
	int moved = 0;

	while (p < in.hi) {
		uint8_t op = *p++;
		switch (op >> 6) {
		case 1: case 3: continue;		/* advance_loc, restore */
		case 2: if (get_uleb(&in, &p, &a)) return -1; continue;	/* offset */
		}
		switch (op) {
		case 0x00: case 0x0a: case 0x0b: break;	/* nop, remember, restore state */
		case 0x01: p += addr_size; break;	/* set_loc */
		case 0x02: p += 1; break;
		case 0x03: p += 2; break;
		case 0x04: p += 4; break;
		case 0x06: case 0x07: case 0x08: case 0x2e:
			if (get_uleb(&in, &p, &a)) return -1;
			break;
		case 0x0e: case 0x13:	/* def_cfa_offset, def_cfa_offset_sf */
			if (get_uleb(&in, &p, &a)) return -1;
			moved = 1;
			break;
		case 0x0d:	/* def_cfa_register */
			if (get_uleb(&in, &p, &a)) return -1;
			if (a == REG_FRAME) return 1;
			moved = 1;
			break;
		case 0x0c: case 0x12:	/* def_cfa, def_cfa_sf */
			if (get_uleb(&in, &p, &a) || get_uleb(&in, &p, &b)) return -1;
			if (a == REG_FRAME) return 1;
			moved = 1;
			break;
		case 0x05: case 0x09: case 0x11: case 0x14: case 0x15: case 0x2f:
			if (get_uleb(&in, &p, &a) || get_uleb(&in, &p, &b)) return -1;
			break;
		case 0x0f:	/* def_cfa_expression: PLT stubs, not functions */
			return -1;
		case 0x10: case 0x16:	/* expression, val_expression */
			if (get_uleb(&in, &p, &a) || get_uleb(&in, &p, &b)) return -1;
			p += b;
			break;
		default:
			return -1;
		}
	}
	return moved ? 0 : -1;
}

/* 1 when the FDE at FDE sets up a frame, 0 when not, -1 when it is too
 * small or too simple to say, or cannot be read. */
static int fde_keeps_frame(const struct span *s, const uint8_t *fde)
{
	struct cie_info cie;
	uintptr_t begin, range;

	if (!readable(s, fde, 8))
		return -1;
	uint32_t len = *(const uint32_t *)fde, cie_off = *(const uint32_t *)(fde + 4);
	if (len == 0xffffffffu || len < 8 || !cie_off || !readable(s, fde + 4, len))
		return -1;
	const uint8_t *end = fde + 4 + len, *p = fde + 8;
	if ((uintptr_t)(fde + 4) < cie_off || read_cie(s, fde + 4 - cie_off, &cie))
		return -1;
	if (get_encoded(s, &p, cie.fde_enc, 0, &begin) ||
	    get_encoded(s, &p, cie.fde_enc & PE_FORMAT, 0, &range))
		return -1;
	if (range < SMALL_FUNCTION)
		return -1;
	if (cie.has_z) {
		uint64_t n;
		if (get_uleb(s, &p, &n) || n > (uint64_t)(end - p))
			return -1;
		p += n;
	}
	return sets_frame_register(s, p, end, encoded_size(cie.fde_enc));
}

int frame_pointers_kept(const struct dl_phdr_info *info)
{
	const ElfW(Phdr) *hdr_ph = NULL;
	struct span s = { NULL, NULL };

	for (int i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_GNU_EH_FRAME)
			hdr_ph = &info->dlpi_phdr[i];
	if (!hdr_ph)
		return 0;
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
	if (!s.lo || !readable(&s, hdr, 4) || hdr[0] != 1)
		return 0;
	uint8_t ptr_enc = hdr[1], count_enc = hdr[2], table_enc = hdr[3];
	const uint8_t *p = hdr + 4;
	uintptr_t eh_frame, count;
	if (ptr_enc == PE_OMIT || count_enc == PE_OMIT || table_enc == PE_OMIT ||
	    get_encoded(&s, &p, ptr_enc, (uintptr_t)hdr, &eh_frame) ||
	    get_encoded(&s, &p, count_enc, (uintptr_t)hdr, &count))
		return 0;
	size_t entry = 2 * encoded_size(table_enc);
	if (!entry || count > (uintptr_t)(s.hi - p) / entry)
		return 0;
	/* evenly spread over the table when there are more than SCAN_MAX */
	size_t step = count > SCAN_MAX ? count / SCAN_MAX : 1, with = 0, seen = 0;
	for (size_t i = 0; i < count; i += step) {
		const uint8_t *e = p + i * entry + entry / 2;
		uintptr_t fde;
		if (get_encoded(&s, &e, table_enc, (uintptr_t)hdr, &fde))
			return 0;
		int keeps = fde_keeps_frame(&s, (const uint8_t *)fde);
		if (keeps < 0)
			continue;
		with += (size_t)keeps;
		seen++;
	}
	return seen && with * 4 >= seen * 3;
}
