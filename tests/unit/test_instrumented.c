/*
 * program_hooks_probe(), which `record` asks of every program before it
 * starts it: the hooks a 64-bit ELF file's undefined symbols name, read
 * from its section headers with no library loaded, in a file written
 * here (a dynamic symbol table, its strings, a dynamic section), and the
 * same file cut short, which must not be read past its end.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbols/instrumented.h"

static const char strings[] = "\0main\0mcount\0__cyg_profile_func_enter@GLIBC_2.2.5\0malloc";

/* An ELF file with sections null, .dynsym, .dynstr, .dynamic at PATH,
 * cut to its first KEEP bytes (0: whole); the names of main (defined),
 * mcount and __cyg_profile_func_enter (undefined) and malloc (undefined);
 * its DT_FLAGS_1 DF_1_PIE when PIE, and no program header (no loader). */
static void write_elf(const char *path, size_t keep, int pie)
{
	struct {
		Elf64_Ehdr eh;
		Elf64_Sym syms[5];
		char str[sizeof(strings)];
		Elf64_Dyn dyn[2];
		Elf64_Shdr sh[4];
	} f;

	memset(&f, 0, sizeof(f));
	memcpy(f.eh.e_ident, ELFMAG, SELFMAG);
	f.eh.e_ident[EI_CLASS] = ELFCLASS64;
	f.eh.e_ident[EI_DATA] = ELFDATA2LSB;
	f.eh.e_ident[EI_VERSION] = EV_CURRENT;
	f.eh.e_type = ET_DYN;
	f.eh.e_machine = EM_X86_64;
	f.eh.e_version = EV_CURRENT;
	f.eh.e_ehsize = sizeof(Elf64_Ehdr);
	f.eh.e_shoff = offsetof(__typeof__(f), sh);
	f.eh.e_shentsize = sizeof(Elf64_Shdr);
	f.eh.e_shnum = 4;
	memcpy(f.str, strings, sizeof(strings));
	f.syms[1] = (Elf64_Sym){ .st_name = 1, .st_shndx = 1 };	/* main, defined */
	f.syms[2] = (Elf64_Sym){ .st_name = 6 };
	f.syms[3] = (Elf64_Sym){ .st_name = 13 };
	f.syms[4] = (Elf64_Sym){ .st_name = 50 };
	f.sh[1] = (Elf64_Shdr){ .sh_type = SHT_DYNSYM, .sh_offset = offsetof(__typeof__(f), syms),
				.sh_size = sizeof(f.syms), .sh_entsize = sizeof(Elf64_Sym),
				.sh_link = 2 };
	f.sh[2] = (Elf64_Shdr){ .sh_type = SHT_STRTAB, .sh_offset = offsetof(__typeof__(f), str),
				.sh_size = sizeof(f.str) };
	f.dyn[0] = (Elf64_Dyn){ .d_tag = DT_FLAGS_1, .d_un.d_val = pie ? DF_1_PIE : 0 };
	f.sh[3] = (Elf64_Shdr){ .sh_type = SHT_DYNAMIC, .sh_offset = offsetof(__typeof__(f), dyn),
				.sh_size = sizeof(f.dyn), .sh_entsize = sizeof(Elf64_Dyn),
				.sh_link = 2 };
	FILE *out = fopen(path, "wb");
	assert_non_null(out);
	assert_int_equal(fwrite(&f, keep ? keep : sizeof(f), 1, out), 1);
	assert_int_equal(fclose(out), 0);
}

static void test_reads_the_hooks_of_undefined_symbols(void **state)
{
	char path[] = "/tmp/callscope-instrumented-XXXXXX";
	struct program_hooks hooks;

	(void)state;
	close(mkstemp(path));
	write_elf(path, 0, 0);
	assert_int_equal(program_hooks_probe(path, &hooks), 0);
	assert_int_equal(hooks.kinds, HOOKS_MCOUNT | HOOKS_CYG);
	assert_int_equal(hooks.dynamic, 1);
	unlink(path);
}

/* -static-pie: a dynamic section to relocate itself, but no loader to
 * preload the runtime */
static void test_a_pie_without_loader_is_static(void **state)
{
	char path[] = "/tmp/callscope-instrumented-XXXXXX";
	struct program_hooks hooks;

	(void)state;
	close(mkstemp(path));
	write_elf(path, 0, 1);
	assert_int_equal(program_hooks_probe(path, &hooks), 0);
	assert_int_equal(hooks.dynamic, 0);
	unlink(path);
}

static void test_a_file_cut_short_is_not_read_past_its_end(void **state)
{
	char path[] = "/tmp/callscope-instrumented-XXXXXX";
	struct program_hooks hooks;

	(void)state;
	close(mkstemp(path));
	/* the header says where the sections are, but they are gone */
	write_elf(path, sizeof(Elf64_Ehdr) + 40, 0);
	int rc = program_hooks_probe(path, &hooks);
	assert_true(rc == 0 || rc == -1);
	assert_int_equal(hooks.kinds, 0);
	unlink(path);
}

static void test_not_elf(void **state)
{
	char path[] = "/tmp/callscope-instrumented-XXXXXX";
	struct program_hooks hooks;
	FILE *out;

	(void)state;
	close(mkstemp(path));
	out = fopen(path, "w");
	assert_non_null(out);
	fputs("#!/bin/sh\necho a script\n", out);
	fclose(out);
	assert_int_equal(program_hooks_probe(path, &hooks), -1);
	unlink(path);
	assert_int_equal(program_hooks_probe(path, &hooks), -2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reads_the_hooks_of_undefined_symbols),
		cmocka_unit_test(test_a_pie_without_loader_is_static),
		cmocka_unit_test(test_a_file_cut_short_is_not_read_past_its_end),
		cmocka_unit_test(test_not_elf),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
