/*
 * symtab against the test binary itself: the process records its own
 * image as the runtime would (load bias, PT_LOAD segments, build ID note
 * from memory) and resolves the addresses of functions defined here.
 */
#define _GNU_SOURCE 1
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <elf.h>
#include <fcntl.h>
#include <inttypes.h>
#include <link.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbols/symtab.h"
#include "xalloc.h"

/*
 * The markers return their own line: each is one line long, so that line
 * is both where the function is defined and the line of its first
 * instruction.  noinline and taking their addresses keep them real, named
 * functions at -O2.
 */
static __attribute__((noinline)) int marker_static(void) { return __LINE__; }
int test_symtab_marker_global(void);
__attribute__((noinline)) int test_symtab_marker_global(void) { return __LINE__; }

/* One function with two names, as glibc defines many: a strong one with
 * leading underscores, which libdwfl prefers, and the weak public one a
 * reader wants.  Its loop makes an address inside it that is not its entry. */
int __test_symtab_aliased(int n);
__attribute__((noinline)) int __test_symtab_aliased(int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += i * n;
	return s;
}
int test_symtab_aliased(int n) __attribute__((weak, alias("__test_symtab_aliased")));

#define MAX_SEGS 16

struct image {
	char exe[PATH_MAX];
	uint64_t bias;
	struct symtab_segment segs[MAX_SEGS];
	size_t nseg;
	uint8_t build_id[64];
	size_t build_id_len;
};

static struct image self;

static void find_build_id(const struct dl_phdr_info *info, const ElfW(Phdr) *ph)
{
	const uint8_t *p = (const uint8_t *)(info->dlpi_addr + ph->p_vaddr);
	const uint8_t *end = p + ph->p_memsz;
	size_t align = ph->p_align == 8 ? 8 : 4;

	while ((size_t)(end - p) >= sizeof(ElfW(Nhdr))) {
		const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)p;
		size_t namesz = (n->n_namesz + align - 1) & ~(align - 1);
		size_t descsz = (n->n_descsz + align - 1) & ~(align - 1);
		const uint8_t *name = p + sizeof(*n);
		const uint8_t *desc = name + namesz;

		if (desc + descsz > end)
			return;
		if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 &&
		    !memcmp(name, "GNU", 4) && n->n_descsz <= sizeof(self.build_id)) {
			memcpy(self.build_id, desc, n->n_descsz);
			self.build_id_len = n->n_descsz;
			return;
		}
		p = desc + descsz;
	}
}

static int main_program(struct dl_phdr_info *info, size_t size, void *data)
{
	int i;

	(void)size;
	(void)data;
	/* The first entry is the main program. */
	self.bias = info->dlpi_addr;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type == PT_LOAD && self.nseg < MAX_SEGS) {
			self.segs[self.nseg].vaddr = ph->p_vaddr;
			self.segs[self.nseg].memsz = ph->p_memsz;
			self.segs[self.nseg].flags = ph->p_flags;
			self.nseg++;
		} else if (ph->p_type == PT_NOTE && !self.build_id_len) {
			find_build_id(info, ph);
		}
	}
	return 1;
}

static int setup_image(void **state)
{
	ssize_t n = readlink("/proc/self/exe", self.exe, sizeof(self.exe) - 1);

	(void)state;
	if (n <= 0)
		return -1;
	self.exe[n] = '\0';
	dl_iterate_phdr(main_program, NULL);
	return self.nseg ? 0 : -1;
}

static uint64_t fn_addr(int (*fn)(void))
{
	return (uint64_t)(uintptr_t)fn;
}

/* Warnings go to stderr; the tests count them. */
static int saved_stderr = -1;
static FILE *captured;

static void capture_stderr(void)
{
	fflush(stderr);
	captured = tmpfile();
	assert_non_null(captured);
	saved_stderr = dup(2);
	assert_true(saved_stderr >= 0);
	assert_true(dup2(fileno(captured), 2) >= 0);
}

/* Returns a malloc'd copy of what was written to stderr since capture. */
static char *release_stderr(void)
{
	char *buf;
	long len;

	fflush(stderr);
	dup2(saved_stderr, 2);
	close(saved_stderr);
	len = ftell(captured);
	assert_true(len >= 0);
	buf = xmalloc((size_t)len + 1);
	rewind(captured);
	assert_int_equal(fread(buf, 1, (size_t)len, captured), (size_t)len);
	buf[len] = '\0';
	fclose(captured);
	return buf;
}

static size_t count_lines(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);
	return ls >= lx && !strcmp(s + ls - lx, suffix);
}

static struct symtab *load_self(void)
{
	struct symtab *st = symtab_new();

	assert_int_equal(symtab_add_object(st, self.exe, self.bias, self.build_id,
					   self.build_id_len, self.segs, self.nseg), 0);
	return st;
}

static void test_static_and_global(void **state)
{
	struct symtab *st = load_self();
	struct symbol_info si;

	(void)state;
	symtab_lookup(st, fn_addr(marker_static), 0, &si);
	assert_string_equal(si.name, "marker_static");
	assert_int_equal(si.start, fn_addr(marker_static) - self.bias);
	assert_true(si.size > 0);
	assert_int_equal(si.in_object, 1);
	assert_string_equal(si.object, self.exe);
	assert_null(si.file);

	/* An address inside the function resolves to its start too. */
	symtab_lookup(st, fn_addr(test_symtab_marker_global) + 1, 0, &si);
	assert_string_equal(si.name, "test_symtab_marker_global");
	assert_int_equal(si.start, fn_addr(test_symtab_marker_global) - self.bias);
	symtab_free(st);
}

static void test_alias_named_alike_inside(void **state)
{
	struct symtab *st = load_self();
	struct symbol_info at_entry, inside;
	uint64_t entry = (uint64_t)(uintptr_t)test_symtab_aliased;

	(void)state;
	/* a sample's PC inside, looked up first, must not fix the name */
	symtab_lookup(st, entry + 4, 0, &inside);
	symtab_lookup(st, entry, 0, &at_entry);
	assert_string_equal(at_entry.name, "test_symtab_aliased");
	assert_string_equal(inside.name, "test_symtab_aliased");
	assert_int_equal(inside.start, entry - self.bias);
	symtab_free(st);
}

static void test_lines(void **state)
{
	struct symtab *st = load_self();
	struct symbol_info si;

	(void)state;
	/* First without lines, so the cached entry must be completed. */
	symtab_lookup(st, fn_addr(marker_static), 0, &si);
	symtab_lookup(st, fn_addr(marker_static), 1, &si);
	assert_string_equal(si.name, "marker_static");
	assert_non_null(si.file);
	assert_true(ends_with(si.file, "test_symtab.c"));
	assert_int_equal(si.line, marker_static());

	symtab_lookup(st, fn_addr(test_symtab_marker_global), 1, &si);
	assert_string_equal(si.name, "test_symtab_marker_global");
	assert_non_null(si.file);
	assert_true(ends_with(si.file, "test_symtab.c"));
	assert_int_equal(si.line, test_symtab_marker_global());
	symtab_free(st);
}

static void test_add_twice(void **state)
{
	struct symtab *st = load_self();
	struct symbol_info si;
	char *err;

	(void)state;
	capture_stderr();
	assert_int_equal(symtab_add_object(st, self.exe, self.bias, self.build_id,
					   self.build_id_len, self.segs, self.nseg), 0);
	err = release_stderr();
	assert_string_equal(err, "");
	free(err);
	symtab_lookup(st, fn_addr(marker_static), 0, &si);
	assert_string_equal(si.name, "marker_static");
	symtab_free(st);
}

static void test_build_id_mismatch(void **state)
{
	struct symtab *st = symtab_new();
	uint8_t wrong[sizeof(self.build_id)];
	struct symbol_info si;
	uint64_t off = fn_addr(marker_static) - self.bias;
	const char *base = strrchr(self.exe, '/') + 1;
	char *err, *expect;

	(void)state;
	if (!self.build_id_len)
		skip();
	memcpy(wrong, self.build_id, self.build_id_len);
	wrong[0] ^= 0xff;
	capture_stderr();
	assert_int_equal(symtab_add_object(st, self.exe, self.bias, wrong,
					   self.build_id_len, self.segs, self.nseg), -1);
	/* Adding it again changes nothing and says nothing more. */
	assert_int_equal(symtab_add_object(st, self.exe, self.bias, wrong,
					   self.build_id_len, self.segs, self.nseg), -1);
	err = release_stderr();
	assert_int_equal(count_lines(err), 1);
	assert_non_null(strstr(err, "build ID differs"));
	assert_non_null(strstr(err, self.exe));
	free(err);

	symtab_lookup(st, fn_addr(marker_static), 1, &si);
	expect = xasprintf("%s+0x%" PRIx64, base, off);
	assert_string_equal(si.name, expect);
	free(expect);
	assert_int_equal(si.in_object, 1);
	assert_int_equal(si.start, off);
	assert_string_equal(si.object, self.exe);
	assert_null(si.file);
	symtab_free(st);
}

static void test_empty_build_id_is_not_checked(void **state)
{
	struct symtab *st = symtab_new();
	struct symbol_info si;

	(void)state;
	assert_int_equal(symtab_add_object(st, self.exe, self.bias, NULL, 0,
					   self.segs, self.nseg), 0);
	symtab_lookup(st, fn_addr(test_symtab_marker_global), 0, &si);
	assert_string_equal(si.name, "test_symtab_marker_global");
	symtab_free(st);
}

static void test_outside_every_object(void **state)
{
	struct symtab *st = load_self();
	struct symbol_info si;

	(void)state;
	symtab_lookup(st, 0x10, 1, &si);
	assert_string_equal(si.name, "0x10");
	assert_int_equal(si.in_object, 0);
	assert_int_equal(si.start, 0x10);
	assert_null(si.file);

	symtab_lookup(st, UINT64_MAX, 0, &si);
	assert_string_equal(si.name, "0xffffffffffffffff");
	assert_int_equal(si.in_object, 0);
	symtab_free(st);
}

static void test_missing_file(void **state)
{
	struct symtab *st = symtab_new();
	struct symtab_segment seg = { 0x1000, 0x2000, PF_R | PF_X };
	struct symbol_info si;
	char *err;

	(void)state;
	capture_stderr();
	assert_int_equal(symtab_add_object(st, "/nonexistent/libgone.so", 0x7f0000000000,
					   (const uint8_t *)"\1\2\3\4", 4, &seg, 1), -1);
	err = release_stderr();
	assert_int_equal(count_lines(err), 1);
	assert_non_null(strstr(err, "cannot read '/nonexistent/libgone.so'"));
	assert_non_null(strstr(err, "No such file or directory"));
	free(err);

	symtab_lookup(st, 0x7f0000001234, 1, &si);
	assert_string_equal(si.name, "libgone.so+0x1234");
	assert_int_equal(si.in_object, 1);
	assert_int_equal(si.start, 0x1234);
	symtab_free(st);
}

static void test_vdso_is_silent(void **state)
{
	struct symtab *st = symtab_new();
	struct symtab_segment seg = { 0, 0x2000, PF_R | PF_X };
	struct symbol_info si;
	char *err;

	(void)state;
	capture_stderr();
	assert_int_equal(symtab_add_object(st, "linux-vdso.so.1", 0x7ffd00000000,
					   (const uint8_t *)"\1\2\3\4", 4, &seg, 1), 0);
	err = release_stderr();
	assert_string_equal(err, "");
	free(err);

	symtab_lookup(st, 0x7ffd00000a30, 0, &si);
	assert_string_equal(si.name, "[vdso]+0xa30");
	assert_int_equal(si.in_object, 1);
	symtab_free(st);
}

/* Writes LEN bytes of the test binary, passed through MANGLE, to a temp file. */
static char *copy_self(size_t len, void (*mangle)(uint8_t *buf, size_t len))
{
	char *path = xstrdup("/tmp/test_symtab.XXXXXX");
	uint8_t *buf;
	ssize_t n;
	int in, out;

	in = open(self.exe, O_RDONLY);
	assert_true(in >= 0);
	buf = xmalloc(len);
	n = read(in, buf, len);
	assert_true(n > 0);
	close(in);
	if (mangle)
		mangle(buf, (size_t)n);
	out = mkstemp(path);
	assert_true(out >= 0);
	assert_int_equal(write(out, buf, (size_t)n), n);
	close(out);
	free(buf);
	return path;
}

static void test_truncated_file(void **state)
{
	struct symtab *st = symtab_new();
	struct symbol_info si;
	char *path = copy_self(100, NULL);
	char *err;

	(void)state;
	capture_stderr();
	assert_int_equal(symtab_add_object(st, path, self.bias, self.build_id,
					   self.build_id_len, self.segs, self.nseg), -1);
	err = release_stderr();
	assert_int_equal(count_lines(err), 1);
	assert_non_null(strstr(err, "cannot read"));
	free(err);

	symtab_lookup(st, fn_addr(marker_static), 1, &si);
	assert_int_equal(si.in_object, 1);
	assert_non_null(strstr(si.name, "+0x"));
	unlink(path);
	free(path);
	symtab_free(st);
}

/* Corruptions of the ELF and section headers, and of the bytes after them. */
static unsigned mangle_kind;

static void mangle(uint8_t *buf, size_t len)
{
	Elf64_Ehdr *eh = (Elf64_Ehdr *)buf;
	uint32_t seed = 12345 + mangle_kind;
	size_t i;

	if (len < sizeof(*eh))
		return;
	switch (mangle_kind % 6) {
	case 0:
		eh->e_shoff = UINT64_MAX - 8;
		break;
	case 1:
		eh->e_shnum = 0xffff;
		break;
	case 2:
		eh->e_phoff = len - 8;
		eh->e_phnum = 0xffff;
		break;
	case 3:
		eh->e_shstrndx = 0xfffe;
		break;
	case 4:
		/* Scribble over the section headers. */
		if (eh->e_shoff < len)
			for (i = eh->e_shoff; i < len; i++) {
				seed = seed * 1103515245 + 12345;
				if ((seed >> 16) % 7 == 0)
					buf[i] = (uint8_t)(seed >> 8);
			}
		break;
	default:
		/* Scribble over everything but the ELF header. */
		for (i = sizeof(*eh); i < len; i++) {
			seed = seed * 1103515245 + 12345;
			if ((seed >> 16) % 61 == 0)
				buf[i] = (uint8_t)(seed >> 8);
		}
		break;
	}
}

static void test_corrupt_copies(void **state)
{
	off_t size;
	int fd;

	(void)state;
	fd = open(self.exe, O_RDONLY);
	assert_true(fd >= 0);
	size = lseek(fd, 0, SEEK_END);
	close(fd);
	assert_true(size > 0);

	for (mangle_kind = 0; mangle_kind < 12; mangle_kind++) {
		struct symtab *st = symtab_new();
		char *path = copy_self((size_t)size, mangle);
		struct symbol_info si;
		uint64_t a;
		int rc;

		/* No build ID: whatever symbols survive are used. */
		capture_stderr();
		rc = symtab_add_object(st, path, self.bias, NULL, 0, self.segs,
				       self.nseg);
		free(release_stderr());
		assert_true(rc == 0 || rc == -1);
		for (a = fn_addr(marker_static) - 64; a < fn_addr(marker_static) + 64; a += 7) {
			symtab_lookup(st, a, 1, &si);
			assert_non_null(si.name);
		}
		symtab_lookup(st, fn_addr(test_symtab_marker_global), 1, &si);
		assert_non_null(si.name);
		unlink(path);
		free(path);
		symtab_free(st);
	}
}

static void test_many_lookups_are_cached(void **state)
{
	struct symtab *st = load_self();
	struct symbol_info a, b;
	uint64_t base = fn_addr(marker_static) & ~(uint64_t)0xfff, i;

	(void)state;
	/* Enough distinct addresses to grow the cache a few times. */
	for (i = 0; i < 5000; i++)
		symtab_lookup(st, base + i, i & 1, &a);
	symtab_lookup(st, 0x20, 0, &a);
	symtab_lookup(st, 0x20, 0, &b);
	assert_ptr_equal(a.name, b.name);
	symtab_lookup(st, fn_addr(marker_static), 0, &a);
	assert_string_equal(a.name, "marker_static");
	symtab_free(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_static_and_global),
		cmocka_unit_test(test_alias_named_alike_inside),
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_add_twice),
		cmocka_unit_test(test_build_id_mismatch),
		cmocka_unit_test(test_empty_build_id_is_not_checked),
		cmocka_unit_test(test_outside_every_object),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_vdso_is_silent),
		cmocka_unit_test(test_truncated_file),
		cmocka_unit_test(test_corrupt_copies),
		cmocka_unit_test(test_many_lookups_are_cached),
	};

	return cmocka_run_group_tests(tests, setup_image, NULL);
}
