#include "symbols/fde_table.h"

#include <stdlib.h>
#include <string.h>

#include "partition.h"
#include "xalloc.h"

/* The encodings every GNU linker writes (LSB: DW_EH_PE_*): a table of
 * 4-byte signed offsets from the start of .eh_frame_hdr. */
#define ENC_OMIT 0xff
#define ENC_TABLE 0x3b		/* datarel | sdata4 */
#define ENC_UDATA4 0x03
#define ENC_PCREL_SDATA4 0x1b

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static int32_t get_s32(const unsigned char *p)
{
	int32_t v;
	memcpy(&v, p, 4);
	return v;
}

void fde_table_load(Elf *elf, struct fde_table *out)
{
	size_t nph;
	GElf_Phdr hdr_ph = { 0 }, ph;
	int found = 0;

	memset(out, 0, sizeof(*out));
	if (elf_getphdrnum(elf, &nph) != 0)
		return;
	for (size_t i = 0; i < nph; i++) {
		if (!gelf_getphdr(elf, (int)i, &ph))
			return;
		if (ph.p_type == PT_GNU_EH_FRAME) {
			hdr_ph = ph;
			found = 1;
		} else if (ph.p_type == PT_LOAD && (ph.p_flags & PF_X) &&
			   ph.p_vaddr + ph.p_memsz > out->end) {
			out->end = ph.p_vaddr + ph.p_memsz;
		}
	}
	if (!found || hdr_ph.p_filesz < 12)
		return;
	Elf_Data *d = elf_getdata_rawchunk(elf, (int64_t)hdr_ph.p_offset, hdr_ph.p_filesz,
					   ELF_T_BYTE);
	if (!d || d->d_size < 12)
		return;
	const unsigned char *p = d->d_buf;
	if (p[0] != 1 || p[1] != ENC_PCREL_SDATA4 || p[2] != ENC_UDATA4 || p[3] != ENC_TABLE)
		return;
	uint32_t count;
	memcpy(&count, p + 8, 4);
	if (count > (d->d_size - 12) / 8)
		return;
	out->starts = xmalloc((count ? count : 1) * sizeof(*out->starts));
	for (uint32_t i = 0; i < count; i++)
		out->starts[i] = hdr_ph.p_vaddr + (uint64_t)(int64_t)get_s32(p + 12 + 8 * (size_t)i);
	out->n = count;
	/* the linker sorts it; a damaged one is sorted here rather than
	 * trusted by the binary search */
	qsort(out->starts, out->n, sizeof(*out->starts), cmp_u64);
}

void fde_table_release(struct fde_table *t)
{
	free(t->starts);
	memset(t, 0, sizeof(*t));
}

int fde_table_lookup(const struct fde_table *t, uint64_t addr, uint64_t *start,
		     uint64_t *size)
{
	/* the first entry above ADDR */
	size_t lo = PARTITION_POINT(t->n, mid, t->starts[mid] <= addr);
	if (!lo)
		return -1;
	*start = t->starts[lo - 1];
	uint64_t next = lo < t->n ? t->starts[lo] : t->end;
	*size = next > *start ? next - *start : 0;
	return 0;
}
