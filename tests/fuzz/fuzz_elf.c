/*
 * Fuzz harness for the readers of the ELF files a user names: the
 * program given to `callscope gprof` (its symbols, .text, and with -l
 * its DWARF lines), optimize's --binary and --objects, and the PLT stubs
 * and FDE table read from a recorded binary.  The input is handed over as
 * a file, as they take one (a memfd, by its /proc path).  libelf and libdw
 * do the parsing; what is fuzzed is what our code makes of what they
 * return: counts, offsets and names from a hostile file.  Any input must
 * end in a clean error or a result, never a crash, a hang or a huge
 * allocation.
 */
#include <gelf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "die.h"
#include "gprof/gprof.h"
#include "symbols/elf_funcs.h"
#include "symbols/fde_table.h"
#include "symbols/object_sections.h"
#include "symbols/plt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void funcs(const char *path)
{
	struct elf_funcs t;

	if (elf_funcs_load(path, &t) == 0) {
		struct elf_name_index *ix = elf_name_index_new(&t);
		for (size_t i = 0; i < t.n; i++) {
			const size_t *first;
			if (!elf_name_lookup(ix, t.funcs[i].name, &first) ||
			    elf_funcs_at(&t, t.funcs[i].addr) < 0)
				abort();	/* every function is found by name and address */
		}
		elf_name_index_free(ix);
	}
	elf_funcs_release(&t);
}

static void gprof_program(const char *path)
{
	struct gprof_symtab st;
	struct gprof_opts o = { .output_width = 80 };

	if (gprof_symtab_load(&st, path, &o) == 0) {
		for (size_t i = 0; i < st.n; i++)
			if (gprof_lookup(st.syms, st.n, st.syms[i].addr) == NULL &&
			    st.syms[i].addr <= st.syms[i].end_addr)
				abort();	/* a symbol's own start is its own */
		size_t n;
		struct gprof_sym *lines = gprof_line_syms(&st, &n);
		free(lines);
	}
	gprof_symtab_release(&st);
}

static void objects(const char *path)
{
	struct object_sections os = { 0 };

	object_sections_add(&os, path);
	object_sections_release(&os);
}

/* The readers that take an open Elf, on a private copy of the bytes. */
static void in_memory(const uint8_t *data, size_t size)
{
	char *copy = malloc(size ? size : 1);
	Elf *e;

	memcpy(copy, data, size);
	elf_version(EV_CURRENT);
	e = elf_memory(copy, size);
	if (e && elf_kind(e) == ELF_K_ELF) {
		struct plt_symbols plt;
		struct fde_table fde;
		plt_symbols_load(e, &plt);
		for (size_t i = 0; i < plt.n; i++)
			if (plt_symbols_lookup(&plt, plt.a[i].start) != &plt.a[i])
				abort();
		plt_symbols_release(&plt);
		fde_table_load(e, &fde);
		for (size_t i = 0; i < fde.n; i++) {
			uint64_t start, len;
			if (fde_table_lookup(&fde, fde.starts[i], &start, &len) != 0)
				abort();
		}
		fde_table_release(&fde);
	}
	if (e)
		elf_end(e);
	free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	char path[64];

	die_set_quiet(1);
	if (fd < 0 && (fd = memfd_create("fuzz_elf", 0)) < 0)
		abort();
	if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	funcs(path);
	gprof_program(path);
	objects(path);
	in_memory(data, size);
	return 0;
}
